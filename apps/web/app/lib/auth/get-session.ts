import { AuthError } from './auth-error';

// Who is signed in, and signing out: what the affiliate layout and the dashboard header need on every
// page, kept apart from the rest of auth-client.ts (the forms' part, loaded with the forms).

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

/** Ends the session on the server (its cookie is cleared by the answer). */
export async function signOut(): Promise<void> {
  const response = await fetch('/api/auth/sign-out', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    credentials: 'same-origin',
    body: '{}',
  }).catch(() => {
    throw new AuthError('network');
  });
  if (!response.ok) throw new AuthError(response.status === 429 ? 'too-many-requests' : 'unknown');
}
