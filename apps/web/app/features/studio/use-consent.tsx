import { useNavigate } from 'react-router';
import { STUDIO_HOME } from '@skanova/shared/studio/constants';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import { takeEarlyRead } from './early-reads';
import { startServiceWorker } from './offline/app-update';
import { type ConsentRecord, studioStore } from './storage';

/** The visitor's consent as this device keeps it: read once the page is in the browser. */
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
      (consent) => live && setState(consent ? { status: 'given', consent } : { status: 'absent' }),
      () => live && setState({ status: 'unavailable' }),
    );
    return () => {
      live = false;
    };
  }, []);
  const give = useCallback(async () => {
    const consent = await studioStore().giveConsent(new Date());
    setState({ status: 'given', consent });
    // The offline copy of the app (about 6 MB with the models) is downloaded once the visitor is in.
    startServiceWorker();
  }, []);
  const withdraw = useCallback(async () => {
    await studioStore().withdrawConsent();
    setState({ status: 'absent' });
  }, []);
  return { ...state, give, withdraw };
}

/**
 * The app's pages past its home: without consent they send the visitor to the home, where consent is
 * asked; while the device's answer is read, they say so; then they show `children`.
 */
export function ConsentedOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('studio');
  const consent = useConsent();
  if (consent.status === 'absent') return <ToHome />;
  if (consent.status === 'loading')
    return (
      <p className="studio-loading" role="status">
        {t('home.loading')}
      </p>
    );
  return children;
}

function ToHome() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(STUDIO_HOME, { replace: true });
  }, [navigate]);
  return null;
}
