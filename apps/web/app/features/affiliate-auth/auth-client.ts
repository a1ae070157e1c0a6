import { AFFILIATE_RESET_PASSWORD_PAGE } from '@skanova/shared/constants/affiliate';

// The browser side of the sign-in endpoints (/api/auth, served by the auth library behind the
// server's allow-list and limits). Failures become the spec's login codes (spec §8), which the pages
// translate: never the library's English text.

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role?: string | null;
}

export interface Session {
  user: SessionUser;
  session: { expiresAt: string };
}

/** Spec §8 login codes, plus the ones the other forms need. */
export type AuthErrorCode =
  | 'user-not-found'
  | 'wrong-password'
  | 'too-many-requests'
  | 'user-disabled'
  | 'invalid-token'
  | 'weak-password'
  | 'network'
  | 'unknown';

export class AuthError extends Error {
  constructor(readonly code: AuthErrorCode) {
    super(code);
    this.name = 'AuthError';
  }
}

/** The library's codes → ours. */
function errorCode(status: number, code: unknown): AuthErrorCode {
  if (status === 429) return 'too-many-requests';
  switch (code) {
    case 'INVALID_EMAIL_OR_PASSWORD':
    case 'INVALID_PASSWORD':
      return 'wrong-password';
    case 'USER_NOT_FOUND':
      return 'user-not-found';
    case 'BANNED_USER':
      return 'user-disabled';
    case 'INVALID_TOKEN':
      return 'invalid-token';
    case 'PASSWORD_TOO_SHORT':
    case 'PASSWORD_TOO_LONG':
      return 'weak-password';
    default:
      return 'unknown';
  }
}

async function post<T>(path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch {
    throw new AuthError('network');
  }
  const json = (await response.json().catch(() => null)) as { code?: unknown } | null;
  if (!response.ok) throw new AuthError(errorCode(response.status, json?.code));
  return json as T;
}

export async function getSession(): Promise<Session | null> {
  const response = await fetch('/api/auth/get-session', { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new AuthError(response.status === 429 ? 'too-many-requests' : 'unknown');
  return ((await response.json().catch(() => null)) as Session | null) ?? null;
}

export function signIn(email: string, password: string): Promise<unknown> {
  return post('/sign-in/email', { email: email.trim(), password, rememberMe: true });
}

export function signOut(): Promise<unknown> {
  return post('/sign-out', {});
}

/** Always answers the same whether or not the address has an account. */
export function requestPasswordReset(email: string): Promise<unknown> {
  return post('/request-password-reset', { email: email.trim(), redirectTo: AFFILIATE_RESET_PASSWORD_PAGE });
}

export function resetPassword(token: string, newPassword: string): Promise<unknown> {
  return post('/reset-password', { token, newPassword });
}

export function changePassword(currentPassword: string, newPassword: string): Promise<unknown> {
  return post('/change-password', { currentPassword, newPassword, revokeOtherSessions: true });
}
