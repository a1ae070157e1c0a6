import { type ReactNode, createContext, startTransition, useCallback, useContext, useEffect, useState } from 'react';
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
    const next = await readSession();
    setState(next);
    return next;
  }, []);
  const clear = useCallback(() => setState({ status: 'signed-out' }), []);
  useEffect(() => {
    // The first reading may arrive before the chunks of the prerendered page's lazy parts (header,
    // form): an urgent update reaching a part not hydrated yet makes React paint it afresh — it
    // blinks, and what was typed into it is lost. As a transition, the parts hydrate in place first.
    void readSession().then((next) => startTransition(() => setState(next)));
  }, []);
  return <SessionContext value={{ state, refresh, clear }}>{children}</SessionContext>;
}

function readSession(): Promise<SessionState> {
  return getSession().then(
    (session) => (session ? { status: 'signed-in', session } : { status: 'signed-out' }),
    // A failing session check is treated as signed out: the login page says what went wrong next.
    () => ({ status: 'signed-out' }),
  );
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
