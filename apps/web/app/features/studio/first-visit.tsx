import { useTranslation } from '../../lib/react-i18n';
import { ConsentForm } from './consent-form';
import { GetMobileApp } from './get-app/get-mobile-app';

interface FirstVisitProps {
  /** The device has answered that it holds no consent; until then this is a guess (returning-hint.ts). */
  known: boolean;
  onConsent: () => Promise<void>;
}

/**
 * What a first visit sees on any page of the app: the consent, then "get the mobile app". It is what
 * the pages are prerendered with, so the first paint is the real page and hydration changes nothing
 * (docs/benchmarks.md#web-app-layout-shift). While it is only a guess, a device that has consented
 * paints "Reading this device's storage…" instead (the stylesheet reads the hint's attribute).
 */
export function FirstVisit({ known, onConsent }: FirstVisitProps) {
  const { t } = useTranslation('studio');
  return (
    <>
      <div className={known ? 'studio-first-visit' : 'studio-first-visit studio-first-visit--guess'}>
        <ConsentForm onConsent={onConsent} />
        <GetMobileApp />
      </div>
      {known ? null : (
        <p className="studio-loading studio-first-visit__returning" role="status">
          {t('home.loading')}
        </p>
      )}
    </>
  );
}
