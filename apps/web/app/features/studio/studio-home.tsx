import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_RESULT_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { PageMeta } from '../../components/page-meta';
import { useTranslation } from '../../lib/react-i18n';
import { preloadAppPage } from './app-pages';
import { BlobImage } from './blob-image';
import { FirstVisit } from './first-visit';
import { GetMobileApp } from './get-app/get-mobile-app';
import { type ScanSummary, studioStore } from './storage';
import { formatScanDate } from './format-date';
import { useConsent } from './use-consent';

/**
 * The app's home: the consent before the first scan, then a new scan, the saved scans and the way out.
 * Sections that follow something read from the device appear with it, so that nothing already shown
 * moves (docs/benchmarks.md#web-app-layout-shift).
 */
export function StudioHome() {
  const { t } = useTranslation('studio');
  const consent = useConsent();
  const [withdrawn, setWithdrawn] = useState(false);
  const [justConsented, setJustConsented] = useState(false);
  const withdrawnNotice = useRef<HTMLParagraphElement>(null);

  // Withdrawn: the button is gone; the notice at the top of the consent says what happened.
  useEffect(() => {
    if (!withdrawn) return;
    window.scrollTo({ top: 0 });
    withdrawnNotice.current?.focus({ preventScroll: true });
  }, [withdrawn]);

  return (
    <div className="container studio-page">
      <PageMeta path="/studio" title={t('meta.homeTitle')} description={t('meta.homeDescription')} />
      {withdrawn ? (
        <p className="form-success" role="status" tabIndex={-1} ref={withdrawnNotice}>
          {t('home.withdrawn')}
        </p>
      ) : null}
      {consent.status === 'unavailable' ? (
        <>
          <p className="form-error" role="alert">
            {t('home.storageError')}
          </p>
          <GetMobileApp />
        </>
      ) : consent.status === 'loading' || consent.status === 'absent' ? (
        // As prerendered: the consent, until the device says whether it holds one (first-visit.tsx).
        <FirstVisit
          known={consent.status === 'absent'}
          onConsent={async () => {
            setWithdrawn(false);
            await consent.give();
            setJustConsented(true);
          }}
        />
      ) : (
        <SignedHome
          givenAt={consent.consent.givenAt}
          justConsented={justConsented}
          onWithdraw={async () => {
            await consent.withdraw();
            setJustConsented(false);
            setWithdrawn(true);
          }}
        />
      )}
    </div>
  );
}

interface SignedHomeProps {
  givenAt: string;
  /** The visitor has just consented: the page starts again at its top, on its title. */
  justConsented: boolean;
  onWithdraw: () => Promise<void>;
}

function SignedHome({ givenAt, justConsented, onWithdraw }: SignedHomeProps) {
  const { t, i18n } = useTranslation('studio');
  const [scans, setScans] = useState<ScanSummary[] | null>(null);
  const [storageFailed, setStorageFailed] = useState(false);
  const title = useRef<HTMLHeadingElement>(null);

  // "New scan" is what most visitors open next: its chunk comes while they read (app-pages.ts).
  useEffect(() => preloadAppPage(STUDIO_SCAN_PAGE), []);

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

  // The consent form was long and its button at its end: the browser would keep that scroll position,
  // and the shorter home would open scrolled to its bottom. It opens at its top, focus on its title.
  useEffect(() => {
    if (!justConsented) return;
    window.scrollTo({ top: 0 });
    title.current?.focus({ preventScroll: true });
  }, [justConsented]);

  const settled = storageFailed || scans !== null;
  return (
    <>
      <section className="studio-hero" aria-labelledby="studio-title">
        <h1 id="studio-title" ref={title} tabIndex={-1}>
          {t('home.title')}
        </h1>
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
                  {/* The preview's place is kept while its image is read. */}
                  <span className="studio-scan-card__thumb">
                    <BlobImage blob={scan.thumbnail} alt="" />
                  </span>
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

      {/* After the list is read: shown earlier, they would jump down when it arrives. */}
      {settled ? (
        <>
          <GetMobileApp />
          {/* Withdrawing deletes everything: within reach, quietly, at the end of the page. */}
          <section className="studio-section studio-withdraw" aria-labelledby="withdraw-title">
            <h2 id="withdraw-title">{t('home.withdrawTitle')}</h2>
            <p className="studio-muted">{t('home.withdrawText', { date: formatScanDate(givenAt, i18n.language) })}</p>
            <button
              type="button"
              className="button button--secondary button--small studio-withdraw__action"
              onClick={() => {
                if (window.confirm(t('home.withdrawConfirm'))) void onWithdraw();
              }}
            >
              {t('home.withdraw')}
            </button>
          </section>
        </>
      ) : null}
    </>
  );
}
