import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthError, signIn } from './auth-client';

// The sign-in endpoint's 429s: the per-address lock (a password reset unlocks it) and the other
// limits are told apart, so the form can offer the way out only when it exists.

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

async function failureOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AuthError);
  return (error as AuthError).code;
}

describe('signIn failures', () => {
  it('reads the address lock as address-locked', async () => {
    answer(429, { code: 'ADDRESS_LOCKED', message: 'Too many failed sign-ins for this address.' });
    expect(await failureOf(signIn('ada@example.com', 'correct horse'))).toBe('address-locked');
  });

  it('reads the other limits as too-many-requests', async () => {
    answer(429, { code: 'TOO_MANY_REQUESTS', message: 'Too many requests.' });
    expect(await failureOf(signIn('ada@example.com', 'correct horse'))).toBe('too-many-requests');
  });
});
