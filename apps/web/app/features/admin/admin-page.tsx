import { useState } from 'react';
import { AFFILIATE_DASHBOARD_PAGE } from '@skanova/shared/affiliate/constants';
import { useTranslation } from '../../lib/react-i18n';
import { type Session, signOut } from '../affiliate-auth/get-session';
import { useSession } from '../affiliate-auth/session';
import { AdminConsole } from './admin-console';
import { AdminSignIn } from './admin-sign-in';

// /admin's three states besides loading (the prerendered one): the sign-in form when signed out,
// "operators only" for an account without the role, and the console. The role shown here only
// chooses the screen: every console call is authorised by the server.

export function AdminPage() {
  const { state } = useSession();
  const { t } = useTranslation('admin');
  if (state.status === 'loading') {
    return (
      <div className="page-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{t('list.loading')}</span>
      </div>
    );
  }
  if (state.status === 'signed-out') return <AdminSignIn />;
  if (state.session.user.role !== 'admin') return <OperatorsOnly session={state.session} />;
  return <AdminConsole session={state.session} />;
}

/** Ends the session here and on the server; the page then shows the sign-in form. */
export function useAdminSignOut(): { signOut: () => Promise<void>; busy: boolean; failed: boolean } {
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
        // Already signed out elsewhere is fine; a session that survived is not.
        if ((await refresh()).status === 'signed-in') {
          console.warn('sign-out failed', error);
          setStatus('failed');
          return;
        }
      }
      setStatus('idle');
      clear();
    },
  };
}

function OperatorsOnly({ session }: { session: Session }) {
  const { t } = useTranslation('admin');
  const { signOut: onSignOut, busy, failed } = useAdminSignOut();
  return (
    <div className="container admin-denied">
      <h1>{t('denied.title')}</h1>
      <p>{t('denied.text', { email: session.user.email })}</p>
      <div className="button-row">
        <a className="button button--primary" href={AFFILIATE_DASHBOARD_PAGE}>
          {t('denied.dashboard')}
        </a>
        <button type="button" className="button button--secondary" onClick={() => void onSignOut()} disabled={busy}>
          {busy ? t('header.signingOut') : t('denied.switchAccount')}
        </button>
      </div>
      {failed ? (
        <p className="field-error" role="alert">
          {t('header.signOutFailed')}
        </p>
      ) : null}
    </div>
  );
}
