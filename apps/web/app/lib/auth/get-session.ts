import { AuthError } from './auth-error';

// Who is signed in: what the affiliate and console layouts read on every page, kept apart from
// auth-client.ts (the forms' part, loaded with the forms) and sign-out.ts (the signed-in pages' part).

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

export async function getSession(): Promise<Session | null> {
  const response = await fetch('/api/auth/get-session', { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new AuthError(response.status === 429 ? 'too-many-requests' : 'unknown');
  return ((await response.json().catch(() => null)) as Session | null) ?? null;
}
