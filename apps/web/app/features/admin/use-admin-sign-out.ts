import { useState } from 'react';
import { signOut } from '../../lib/auth/get-session';
import { useSession } from '../../lib/auth/session';

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
