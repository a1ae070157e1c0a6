import { noInputSchema } from '@skanova/shared/callable/schemas';
import { contactRequestSchema } from '@skanova/shared/support/schemas';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { callables } from '../src/functions/index.ts';
import { defineCallable } from '../src/http/callable.ts';

// The server's functions are typed against the shared contract (CallableFunctions), as the web
// client is (ADR 008). The definitions below that break it are type errors: `tsc -p apps/server`
// (in `npm test`) fails if any line marked @ts-expect-error compiles.

const activeVisitors = defineCallable({
  name: 'getActiveVisitors',
  access: 'affiliate',
  input: noInputSchema,
  async handler() {
    return { activeVisitors: 3, windowMinutes: 5, at: '2026-11-24T10:00:00.000Z' };
  },
});

defineCallable({
  name: 'getActiveVisitors',
  access: 'affiliate',
  input: noInputSchema,
  // @ts-expect-error a result that is not the contract's response (a count must be a number)
  async handler() {
    return { activeVisitors: '3', windowMinutes: 5, at: '2026-11-24T10:00:00.000Z' };
  },
});

defineCallable({
  name: 'getActiveVisitors',
  access: 'affiliate',
  input: noInputSchema,
  // @ts-expect-error a result missing fields of the contract's response
  async handler() {
    return { activeVisitors: 3 };
  },
});

defineCallable({
  // @ts-expect-error a name the contract does not have
  name: 'getEverything',
  input: z.unknown(),
  async handler() {
    return { activeVisitors: 3, windowMinutes: 5, at: '2026-11-24T10:00:00.000Z' };
  },
});

defineCallable({
  name: 'submitContactForm',
  // @ts-expect-error an input schema that refuses requests the contract allows (it wants a number)
  input: z.object({ ticket: z.number() }),
  async handler() {
    return { ticketId: 'T-1' };
  },
});

defineCallable({
  name: 'submitContactForm',
  input: contactRequestSchema,
  // The handler gets what the schema parsed: the contract's subject, not any text.
  async handler(input) {
    const subject: 'account' | 'subscription' | 'technical' | 'feedback' | 'other' = input.subject;
    return { ticketId: subject };
  },
});

describe('the callable contract', () => {
  it('keeps the definition it checked', () => {
    expect(activeVisitors.name).toBe('getActiveVisitors');
    expect(activeVisitors.access).toBe('affiliate');
    expect(activeVisitors.input).toBe(noInputSchema);
  });

  it('serves each function of the contract once', () => {
    const names = callables.map((definition) => definition.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
