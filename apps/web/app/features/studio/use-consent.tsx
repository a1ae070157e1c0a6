import { useNavigate } from 'react-router';
import { STUDIO_HOME } from '@skanova/shared/studio/constants';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { takeEarlyRead } from './early-reads';
import { FirstVisit } from './first-visit';
import { startServiceWorker } from './offline/app-update';
import { rememberConsentHint } from './returning-hint';
import { type ConsentRecord, studioStore } from './storage';

/**
 * The visitor's consent as this device keeps it: read once the page is in the browser. Until then
 * ('loading') the pages show what a first visit sees, as they were prerendered (first-visit.tsx).
 */
export type ConsentStatus =
  | { status: 'loading' }
  | { status: 'absent' }
  | { status: 'given'; consent: ConsentRecord }
  /** IndexedDB refused (private browsing, storage disabled). */
  | { status: 'unavailable' };

export function useConsent() {
  const [state, setState] = useState<ConsentStatus>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    (takeEarlyRead('consent') ?? studioStore().consent()).then(
      (consent) => {
        rememberConsentHint(Boolean(consent));
        if (live) setState(consent ? { status: 'given', consent } : { status: 'absent' });
      },
      () => live && setState({ status: 'unavailable' }),
    );
    return () => {
      live = false;
    };
  }, []);
  const give = useCallback(async () => {
    const consent = await studioStore().giveConsent(new Date());
    rememberConsentHint(true);
    setState({ status: 'given', consent });
    // The offline copy of the app (about 6 MB with the models) is downloaded once the visitor is in.
    startServiceWorker();
  }, []);
  const withdraw = useCallback(async () => {
    await studioStore().withdrawConsent();
    rememberConsentHint(false);
    setState({ status: 'absent' });
  }, []);
  return { ...state, give, withdraw };
}

/**
 * The app's pages past its home: without consent they send the visitor to the home, where consent is
 * asked; while the device's answer is read, they show what a first visit sees (the consent, as they
 * were prerendered), which the home shows too; then they show `children`.
 */
export function ConsentedOnly({ children }: { children: ReactNode }) {
  const consent = useConsent();
  if (consent.status === 'absent')
    return (
      <>
        <FirstVisit known onConsent={consent.give} />
        <ToHome />
      </>
    );
  if (consent.status === 'loading') return <FirstVisit known={false} onConsent={consent.give} />;
  return children;
}

function ToHome() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(STUDIO_HOME, { replace: true });
  }, [navigate]);
  return null;
}
