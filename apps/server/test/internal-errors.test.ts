import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { callableDefiner, registerCallables } from '../src/http/callable.ts';
import { CallableError } from '../src/lib/callable-error.ts';
import { TEST_PUBLIC_URL, memoryMailer, testConfig } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';

// An unexpected failure inside a server function is logged with its request id and answered
// `internal`, without its details (docs/product/messages.md#error-codes-and-http-statuses, docs/product/calls-and-data.md#callable-protocol).

const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean))
      logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

/** A function outside the product's contract, registered by this test only. */
interface FailingContract {
  failOnPurpose: { request: { kind: 'crash' | 'refuse' }; response: never };
}

const failing = callableDefiner<FailingContract>()({
  name: 'failOnPurpose',
  input: z.object({ kind: z.enum(['crash', 'refuse']) }),
  async handler({ kind }) {
    if (kind === 'refuse') throw new CallableError('failed-precondition', 'Not now.', { code: 'not-now' });
    throw new Error('connection to db-secret-host:5432 refused');
  },
});

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>['app'];

beforeAll(async () => {
  database = await createTestDatabase();
  let context: Awaited<ReturnType<typeof buildApp>>['context'];
  ({ app, context } = await buildApp({
    config: testConfig(),
    database,
    mailer: memoryMailer().mailer,
    serveSite: false,
    logger: { level: 'error', stream: logStream },
  }));
  registerCallables(app, context, [failing]);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const call = (data: unknown, requestId?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/fn/failOnPurpose',
    headers: {
      'content-type': 'application/json',
      origin: TEST_PUBLIC_URL,
      ...(requestId ? { 'x-request-id': requestId } : {}),
    },
    payload: { data },
  });

describe('unexpected errors', () => {
  it('answers internal without the details of the error and logs it with the request id', async () => {
    const response = await call({ kind: 'crash' }, 'req-0123456789');
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.error.status).toBe('INTERNAL');
    expect(body.error.message).toContain('req-0123456789');
    expect(response.body).not.toContain('db-secret-host');
    const logged = logLines.find((line) => line.reqId === 'req-0123456789' && line.level === 50);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('db-secret-host');
  });

  it('answers a deliberate error with its code, status and details', async () => {
    const response = await call({ kind: 'refuse' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { status: 'FAILED_PRECONDITION', message: 'Not now.', details: { code: 'not-now' } },
    });
  });

  it('validates the input before the handler runs', async () => {
    const response = await call({ kind: 'explode' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.status).toBe('INVALID_ARGUMENT');
  });
});
