import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn, signIn, signupPayload } from './helpers/affiliates.ts';

// Per-IP limits count an IPv6 client by its /64 (docs/decisions/016-security-hardening.md, "IPv6
// clients by their /64"): one /64 gets the budget one address gets, for the limits of the sign-in
// endpoints, of signup, and of the functions' own limits. Runs on PGlite and PostgreSQL.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The `n`th address of a /64: the same network, a different interface id each time. */
const inNetwork = (prefix: string, n: number) =>
  `${prefix}:${n.toString(16)}:${((n * 7919) & 0xffff).toString(16)}:0:1`;

describe('per-IP limits and IPv6', () => {
  it('give one /64 the sign-in budget of one address', async () => {
    const limit = t.config.RATE_LIMIT_SIGNIN_PER_MINUTE;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 3; i++)
      statuses.push((await signIn(t, `nobody${i}@example.com`, 'whatever123', inNetwork('2001:db8:a:1', i))).status);
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(limit)).toEqual([429, 429, 429]);
    // Another /64 has its own budget.
    expect((await signIn(t, 'nobody@example.com', 'whatever123', inNetwork('2001:db8:a:2', 1))).status).toBe(401);
  });

  it('give one /64 the signup budget of one address', async () => {
    const limit = t.config.RATE_LIMIT_SIGNUP_PER_HOUR;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 1; i++)
      statuses.push(
        (await callFn(t, 'createAffiliate', signupPayload(), undefined, inNetwork('2001:db8:b:1', i))).status,
      );
    expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("give one /64 a function's budget of one address (the contact form)", async () => {
    const limit = t.config.RATE_LIMIT_CONTACT_PER_HOUR;
    const form = {
      name: 'Jeanne Dupont',
      email: 'jeanne@example.com',
      subject: 'technical',
      message: 'The scan stops at 80 % and never ends.',
      language: 'fr',
    };
    const statuses: number[] = [];
    for (let i = 0; i < limit + 1; i++)
      statuses.push((await callFn(t, 'submitContactForm', form, undefined, inNetwork('2001:db8:c:1', i))).status);
    expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
