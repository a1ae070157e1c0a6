import { createOperator } from '../../src/features/admin/operators.ts';
import type { TestApp } from './app.ts';
import { TEST_PUBLIC_URL } from './app.ts';
import { signIn } from './affiliates.ts';

// Operators for tests: made by the CLI's function, their password chosen with the link it prints
// (through the real reset endpoint), then signed in.

let counter = 0;

export interface TestOperator {
  email: string;
  password: string;
  userId: string;
  /** Cookie header of the signed-in session. */
  cookie: string;
}

/** The token of a set-password link printed by `admin:create`. */
export function tokenOf(setPasswordUrl: string): string {
  const token = new URL(setPasswordUrl).searchParams.get('token');
  if (!token) throw new Error(`no token in ${setPasswordUrl}`);
  return token;
}

/** `POST /api/auth/reset-password`, as the reset page sends it. */
export async function resetPassword(t: TestApp, token: string, newPassword: string, ip = '127.0.0.1') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
    remoteAddress: ip,
    payload: JSON.stringify({ token, newPassword }),
  });
  return { status: response.statusCode, body: response.json() as { status?: boolean; code?: string } };
}

export async function createTestOperator(
  t: TestApp,
  email = `operator${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`,
): Promise<TestOperator> {
  const password = 'operator password 1';
  const setup = await createOperator(t.context, email);
  // Each from its own address: the per-IP limits of the auth endpoints are tested elsewhere.
  const ip = `10.77.${Math.floor(counter / 250)}.${counter % 250}`;
  const reset = await resetPassword(t, tokenOf(setup.setPasswordUrl), password, ip);
  if (reset.status !== 200) throw new Error(`operator password reset failed: ${JSON.stringify(reset.body)}`);
  const login = await signIn(t, setup.email, password, ip);
  if (login.status !== 200) throw new Error(`operator sign-in failed: ${JSON.stringify(login.body)}`);
  return { email: setup.email, password, userId: setup.userId, cookie: login.cookie };
}
