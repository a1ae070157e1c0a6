import { AFFILIATE_DASHBOARD_PAGE } from '@skanova/shared/affiliate/constants';
import { useTranslation } from '../../lib/react-i18n';
import type { Session } from '../../lib/auth/get-session';
import { useSession } from '../../lib/auth/session';
import { useSignOut } from '../../lib/auth/signed-in';
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

function OperatorsOnly({ session }: { session: Session }) {
  const { t } = useTranslation('admin');
  const { signOut: onSignOut, busy, failed } = useSignOut();
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
