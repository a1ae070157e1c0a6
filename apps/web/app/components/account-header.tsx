import { useSignOut } from '../lib/auth/signed-in';
import './account-header.css';

// The top of a signed-in page (the dashboard, the console): its title, who is signed in, and
// sign-out, which says so when the server could not end the session.

export interface AccountHeaderProps {
  title: string;
  /** "Signed in as …". */
  who: string;
  signOutLabel: string;
  signingOutLabel: string;
  signOutFailed: string;
  /** After the session ended (e.g. go to the login page). */
  afterSignOut?: () => void | Promise<void>;
}

export function AccountHeader({
  title,
  who,
  signOutLabel,
  signingOutLabel,
  signOutFailed,
  afterSignOut,
}: AccountHeaderProps) {
  const { signOut, busy, failed } = useSignOut(afterSignOut);
  return (
    <header className="account-header">
      <div>
        <h1>{title}</h1>
        <p className="account-header__who">{who}</p>
      </div>
      <div className="account-header__actions">
        <button type="button" className="button button--secondary" onClick={() => void signOut()} disabled={busy}>
          {busy ? signingOutLabel : signOutLabel}
        </button>
        {failed ? (
          <p className="field-error" role="alert">
            {signOutFailed}
          </p>
        ) : null}
      </div>
    </header>
  );
}
