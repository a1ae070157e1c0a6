import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/react-i18n';
import {
  arrivalReferralCode,
  localStorageOrNull,
  rememberReferral,
  rememberedReferral,
  trackingIdFromCookies,
} from '../../../lib/referral-memory';
import { siteConfig } from '../../../lib/site-config';
import { type MobileAppLinks, mobileAppLinks } from './mobile-app-links';
import { StoreLinks } from '../../../components/store-links';
// Its styles come with the app's stylesheet, in the page's head (studio-styles.ts).

// The visitor's arrival, once per page load, as soon as the app's code runs and on whichever of its
// pages they land: a `?ref=CODE` on that page, or on the page of this site that sent them here, is
// kept on the device (lib/referral-memory.ts). Before rendering, because a page that needs consent
// sends the visitor to the home and the address loses its `?ref=`.
if (typeof window !== 'undefined') {
  const code = arrivalReferralCode(window.location.href, document.referrer);
  if (code) rememberReferral(code, new Date(), localStorageOrNull());
}

/** "Get the mobile app": through the referral landing when the visitor came with a code, else the stores. */
export function GetMobileApp() {
  const { t } = useTranslation('studio');
  // Read in the browser only: the prerendered page cannot know the device's referral.
  const [links, setLinks] = useState<MobileAppLinks | null>(null);
  useEffect(() => {
    setLinks(
      mobileAppLinks(
        rememberedReferral(new Date(), localStorageOrNull()),
        trackingIdFromCookies(document.cookie),
        siteConfig,
      ),
    );
  }, []);

  return (
    <section className="studio-section studio-card studio-get-app" aria-labelledby="get-app-title">
      <h2 id="get-app-title">{t('getApp.title')}</h2>
      <p>{t('getApp.text')}</p>
      {links?.kind === 'referral' ? (
        <>
          <a className="button button--primary" href={links.href}>
            {t('getApp.action')}
          </a>
          <p className="studio-muted">{t('getApp.referralNote', { code: links.code })}</p>
        </>
      ) : links ? (
        <StoreLinks appStore={links.appStore} googlePlay={links.googlePlay} />
      ) : null}
    </section>
  );
}
