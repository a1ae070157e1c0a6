import type { TestApp } from './app.ts';
import { TEST_PUBLIC_URL } from './app.ts';

// Affiliate fixtures: sign up through the real function and sign in through the real endpoint.

let counter = 0;

export interface TestAffiliate {
  email: string;
  password: string;
  affiliateId: string;
  /** Cookie header of the signed-in session. */
  cookie: string;
}

export function signupPayload(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    email: `affiliate${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: 'correct horse battery',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '',
    companyName: '',
    website: '',
    paymentMethod: 'later',
    paymentDetails: null,
    termsAccepted: true,
    language: 'en',
    ...overrides,
  };
}

/** Cookie header from a response's Set-Cookie headers. */
export function cookieFrom(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((line) => line.split(';', 1)[0]).join('; ');
}

export async function callFn(t: TestApp, name: string, data: unknown, cookie?: string, ip = '127.0.0.1') {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/fn/${name}`,
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, ...(cookie ? { cookie } : {}) },
    remoteAddress: ip,
    payload: JSON.stringify({ data }),
  });
  return { status: response.statusCode, body: response.json() as { result?: any; error?: { status: string; message: string; details?: any } }, headers: response.headers };
}

export async function createTestAffiliate(t: TestApp, overrides: Record<string, unknown> = {}): Promise<TestAffiliate> {
  const payload = signupPayload(overrides);
  // Each signup from its own address: the per-IP signup limit is part of what is tested elsewhere.
  const ip = `10.9.${Math.floor(counter / 250)}.${counter % 250}`;
  const response = await callFn(t, 'createAffiliate', payload, undefined, ip);
  if (response.status !== 200) throw new Error(`signup failed: ${JSON.stringify(response.body)}`);
  return {
    email: payload.email as string,
    password: payload.password as string,
    affiliateId: response.body.result.affiliateId,
    cookie: cookieFrom(response.headers['set-cookie']),
  };
}

export async function signIn(t: TestApp, email: string, password: string, ip = '127.0.0.1') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
    remoteAddress: ip,
    payload: JSON.stringify({ email, password }),
  });
  return { status: response.statusCode, body: response.json() as any, cookie: cookieFrom(response.headers['set-cookie']) };
}
