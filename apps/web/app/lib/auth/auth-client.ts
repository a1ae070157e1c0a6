import { AFFILIATE_RESET_PASSWORD_PAGE } from '@skanova/shared/affiliate/constants';
import { AuthError, type AuthErrorCode } from './auth-error';

// The browser side of the sign-in endpoints (/api/auth, served by the auth library behind the
// server's allow-list and limits). Failures become the spec's login codes (docs/product/messages.md#sign-in-messages), which the pages
// translate: never the library's English text.

export { AuthError, type AuthErrorCode } from './auth-error';

/** The library's codes → ours. */
function errorCode(status: number, code: unknown): AuthErrorCode {
  if (status === 429) return code === 'ADDRESS_LOCKED' ? 'address-locked' : 'too-many-requests';
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

export function signIn(email: string, password: string): Promise<unknown> {
  return post('/sign-in/email', { email: email.trim(), password, rememberMe: true });
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
