import { type ReactNode, createContext, useCallback, useContext, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AFFILIATE_DASHBOARD_PAGE } from '@skanova/shared/affiliate/constants';
import { type Session, getSession } from './get-session';

// The signed-in state of the affiliate area and the console (docs/product/routes-and-screens.md#protected-pages):
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

/** Pages for visitors (login, signup) send a signed-in affiliate to the dashboard. */
export function useRedirectIfSignedIn(): void {
  const { state } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    if (state.status === 'signed-in') void navigate(AFFILIATE_DASHBOARD_PAGE, { replace: true });
  }, [state.status, navigate]);
}
