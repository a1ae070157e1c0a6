import { useState } from 'react';
import { AuthError } from './auth-error';
import type { Session } from './get-session';
import { useSession } from './session';

// What only the signed-in pages need (the dashboard, the console): their session, and signing out
// (docs/product/routes-and-screens.md#public-header-and-footer dashboard header): the session ends on the server and is forgotten here.

/** The signed-in session inside protected pages (they render only when signed in). */
export function useSignedInSession(): Session {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useSignedInSession outside a protected page');
  return state.session;
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

export interface SignOut {
  signOut(): Promise<void>;
  busy: boolean;
  /** The server could not end the session and it is still valid: saying "signed out" would be untrue. */
  failed: boolean;
}

/** Sign-out for a button: busy while it runs, then `afterSignOut` (e.g. go to the login page). */
export function useSignOut(afterSignOut?: () => void | Promise<void>): SignOut {
  const { clear, refresh } = useSession();
  const [status, setStatus] = useState<'idle' | 'busy' | 'failed'>('idle');
  return {
    busy: status === 'busy',
    failed: status === 'failed',
    async signOut() {
      setStatus('busy');
      try {
        await signOut();
      } catch (error) {
        // Already signed out elsewhere (expired, revoked) is fine; a session that survived is not.
        if ((await refresh()).status === 'signed-in') {
          console.warn('sign-out failed', error);
          setStatus('failed');
          return;
        }
      }
      setStatus('idle');
      clear();
      await afterSignOut?.();
    },
  };
}
