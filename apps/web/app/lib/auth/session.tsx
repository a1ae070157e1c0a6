import { type ReactNode, createContext, useCallback, useContext, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AFFILIATE_DASHBOARD_PAGE, AFFILIATE_LOGIN_PAGE } from '@skanova/shared/constants/affiliate';
import { AuthError } from './auth-error';
import { type Session, getSession, signOut } from './get-session';

// The signed-in state of the affiliate area and the console (spec §2 "Protected-route behaviour"):
// loading, signed in, signed out. Read once from the server on load; sign-in and sign-out refresh it.

export type SessionState = { status: 'loading' } | { status: 'signed-in'; session: Session } | { status: 'signed-out' };

interface SessionContextValue {
  state: SessionState;
  refresh(): Promise<SessionState>;
  /** After sign-out: forget the session without asking the server. */
  clear(): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const refresh = useCallback(async () => {
    const next: SessionState = await getSession().then(
      (session) => (session ? { status: 'signed-in', session } : { status: 'signed-out' }),
      // A failing session check is treated as signed out: the login page says what went wrong next.
      () => ({ status: 'signed-out' }),
    );
    setState(next);
    return next;
  }, []);
  const clear = useCallback(() => setState({ status: 'signed-out' }), []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return <SessionContext value={{ state, refresh, clear }}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession needs a SessionProvider (the affiliate and console layouts provide it)');
  return value;
}

/** The signed-in session inside protected pages (they render only when signed in). */
export function useSignedInSession(): Session {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useSignedInSession outside a protected page');
  return state.session;
}

/**
 * Log out (spec §2 dashboard header): ends the session on the server, forgets it here and goes to the
 * login page. Throws an AuthError when the server could not end it and the session is still valid.
 */
export function useLogout(): () => Promise<void> {
  const { clear, refresh } = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await signOut();
    } catch (error) {
      // Already signed out elsewhere (expired, revoked) is fine; a session that survived is not.
      if ((await refresh()).status === 'signed-in') throw error instanceof AuthError ? error : new AuthError('unknown');
    }
    clear();
    await navigate(AFFILIATE_LOGIN_PAGE, { replace: true });
  }, [clear, refresh, navigate]);
}

/** Pages for visitors (login, signup) send a signed-in affiliate to the dashboard. */
export function useRedirectIfSignedIn(): void {
  const { state } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    if (state.status === 'signed-in') void navigate(AFFILIATE_DASHBOARD_PAGE, { replace: true });
  }, [state.status, navigate]);
}
