import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_RESULT_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { PageMeta } from '../../components/page-meta';
import { useTranslation } from '../../lib/react-i18n';
import { BlobImage } from './blob-image';
import { ConsentForm } from './consent-form';
import { GetMobileApp } from './get-app/get-mobile-app';
import { type ScanSummary, studioStore } from './storage';
import { formatScanDate } from './format-date';
import { useConsent } from './use-consent';

/** The app's home: the consent before the first scan, then a new scan, the saved scans and the way out. */
export function StudioHome() {
  const { t } = useTranslation('studio');
  const consent = useConsent();
  const [withdrawn, setWithdrawn] = useState(false);

  return (
    <div className="container studio-page">
      <PageMeta path="/studio" title={t('meta.homeTitle')} description={t('meta.homeDescription')} />
      {withdrawn ? (
        <p className="form-success" role="status">
          {t('home.withdrawn')}
        </p>
      ) : null}
      {consent.status === 'loading' ? (
        <p className="studio-loading" role="status">
          {t('home.loading')}
        </p>
      ) : consent.status === 'unavailable' ? (
        <p className="form-error" role="alert">
          {t('home.storageError')}
        </p>
      ) : consent.status === 'absent' ? (
        <ConsentForm
          onConsent={async () => {
            setWithdrawn(false);
            await consent.give();
          }}
        />
      ) : (
        <SignedHome
          givenAt={consent.consent.givenAt}
          onWithdraw={async () => {
            await consent.withdraw();
            setWithdrawn(true);
          }}
        />
      )}
      <GetMobileApp />
    </div>
  );
}

function SignedHome({ givenAt, onWithdraw }: { givenAt: string; onWithdraw: () => Promise<void> }) {
  const { t, i18n } = useTranslation('studio');
  const [scans, setScans] = useState<ScanSummary[] | null>(null);
  const [storageFailed, setStorageFailed] = useState(false);

  useEffect(() => {
    let live = true;
    studioStore()
      .listScans()
      .then(
        (list) => live && setScans(list),
        () => live && setStorageFailed(true),
      );
    return () => {
      live = false;
    };
  }, []);

  return (
    <>
      <section className="studio-hero" aria-labelledby="studio-title">
        <h1 id="studio-title">{t('home.title')}</h1>
        <p className="studio-lead">{t('home.lead')}</p>
        <Link to={STUDIO_SCAN_PAGE} className="button button--primary button--large">
          {t('home.newScan')}
        </Link>
      </section>

      <section className="studio-section" aria-labelledby="saved-title">
        <h2 id="saved-title">{t('home.savedTitle')}</h2>
        {storageFailed ? (
          <p className="form-error" role="alert">
            {t('home.storageError')}
          </p>
        ) : scans === null ? (
          <p className="studio-loading">{t('home.loading')}</p>
        ) : scans.length === 0 ? (
          <p className="studio-muted">{t('home.noScans')}</p>
        ) : (
          <ul className="studio-scans">
            {scans.map((scan) => (
              <li key={scan.id}>
                <Link to={`${STUDIO_RESULT_PAGE}?id=${encodeURIComponent(scan.id)}`} className="studio-scan-card">
                  <BlobImage blob={scan.thumbnail} alt="" className="studio-scan-card__thumb" />
                  <span className="studio-scan-card__text">
                    <span className="studio-scan-card__title">
                      {t('home.scanOf', { date: formatScanDate(scan.takenAt, i18n.language) })}
                    </span>
                    <span className="studio-muted">{t(`home.source.${scan.source}`)}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="studio-section studio-withdraw" aria-labelledby="withdraw-title">
        <h2 id="withdraw-title">{t('home.withdrawTitle')}</h2>
        <p>{t('home.withdrawText', { date: formatScanDate(givenAt, i18n.language) })}</p>
        <button
          type="button"
          className="button button--danger"
          onClick={() => {
            if (window.confirm(t('home.withdrawConfirm'))) void onWithdraw();
          }}
        >
          {t('home.withdraw')}
        </button>
      </section>
    </>
  );
}
