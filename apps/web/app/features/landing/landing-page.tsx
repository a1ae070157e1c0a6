import type { TFunction } from 'i18next';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import { LANDING_COUNTDOWN_SECONDS } from '@skanova/shared/site/timing';
import { siteConfig } from '../../lib/site-config';
import { StoreLinks } from '../../components/store-links';
import { playStoreUrlWithReferrer, webAppLink } from './links';
import { type LandingState, useLandingFlow } from './use-landing-flow';
import './landing.css';

type Translate = TFunction<'landing'>;

/** What the status line shows (it changes every second during the countdown). */
function statusText(state: LandingState | null, t: Translate): string {
  if (!state) return '';
  if (state.phase === 'opening') return t('status.opening');
  if (state.phase === 'desktop') return t('status.desktopReady');
  if (state.platform === 'ios') return t('status.iosWaiting');
  if (state.platform === 'android') return t('status.countdown', { seconds: state.secondsLeft });
  return t('status.desktopCountdown', { seconds: state.secondsLeft });
}

/** What assistive technologies hear: once per phase, not every second. */
function announcement(state: LandingState | null, t: Translate): string {
  if (!state) return '';
  if (state.phase === 'opening') return t('status.opening');
  if (state.phase === 'desktop') return t('desktop.title');
  if (state.platform === 'ios') return t('status.iosWaiting');
  // The countdown is announced once, with its full length, when it starts.
  const key = state.platform === 'android' ? 'announce.countdown' : 'announce.desktopCountdown';
  return t(key, { seconds: LANDING_COUNTDOWN_SECONDS });
}

// Only computers show QR codes, at the end of the countdown: their code and encoder load on demand.
const loadStoreQrCodes = () => import('./store-qr-codes');
const StoreQrCodes = lazy(() => loadStoreQrCodes().then((module) => ({ default: module.StoreQrCodes })));

export function LandingPage() {
  const { t } = useTranslation('landing');
  const { state, openApp } = useLandingFlow();
  const code = state?.target.code ?? null;
  const platform = state?.platform;
  const mobile = platform === 'ios' || platform === 'android';
  const playStoreUrl = state
    ? playStoreUrlWithReferrer(siteConfig.playStoreUrl, state.trackingId, code)
    : siteConfig.playStoreUrl;

  // Computers end with QR codes: fetch them during the countdown.
  useEffect(() => {
    if (platform !== 'desktop') return;
    loadStoreQrCodes()
      .then((module) => module.loadQrLibrary())
      .catch(() => undefined);
  }, [platform]);

  return (
    // The consent banner is a short bar here (features/consent/consent-panel.tsx): the full one
    // would cover "Open the app" on a phone.
    <div className="landing" data-consent-bar="compact">
      <header className="landing__header">
        {/* The site's logo, as in the public header (its mark and name are the shared .brand style). */}
        <a className="brand landing__brand" href="/">
          <span className="brand__name">{siteConfig.brandName}</span>
        </a>
      </header>
      <main id="main" className="landing__main">
        <div className="landing__card">
          <h1 className="landing__title">{t('title')}</h1>
          <p className="landing__tagline">{t('tagline')}</p>
          <p className="landing__invite">{code ? t('invited', { code: code.toUpperCase() }) : null}</p>
          <p className="landing__status" aria-hidden="true">
            {statusText(state, t)}
          </p>
          <p className="landing__sr-only" role="status">
            {announcement(state, t)}
          </p>
          {mobile ? (
            <button type="button" className="landing__open" onClick={openApp}>
              {t('openApp')}
            </button>
          ) : null}
          <h2 className="landing__stores-title">{t('stores.title')}</h2>
          {/* A phone sees its own store; a computer, and the page before it knows the device, both. */}
          <StoreLinks
            appStore={platform === 'android' ? null : siteConfig.appStoreUrl}
            googlePlay={platform === 'ios' ? null : playStoreUrl}
          />
          {state?.phase === 'desktop' ? (
            <section className="landing__desktop" aria-labelledby="landing-desktop-title">
              <h2 id="landing-desktop-title" className="landing__desktop-title">
                <svg
                  className="landing__check"
                  viewBox="0 0 24 24"
                  width="24"
                  height="24"
                  aria-hidden="true"
                  focusable="false"
                >
                  <path d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z" fill="currentColor" />
                </svg>
                {t('desktop.title')}
              </h2>
              <p>{t('desktop.text')}</p>
              <Suspense fallback={null}>
                <StoreQrCodes appStoreUrl={siteConfig.appStoreUrl} playStoreUrl={playStoreUrl} />
              </Suspense>
            </section>
          ) : null}
          {/* The web app, for whoever would rather not install anything: the referral code goes with it. */}
          <section className="landing__web" aria-labelledby="landing-web-title">
            <h2 id="landing-web-title" className="landing__stores-title">
              {t('web.title')}
            </h2>
            <p>{t('web.text')}</p>
            <a className="button button--secondary" href={webAppLink(siteConfig.webAppUrl, state?.target)}>
              {t('web.action')}
            </a>
          </section>
        </div>
      </main>
    </div>
  );
}
