import type { TFunction } from 'i18next';
import type { BannerTexts } from '@skanova/shared/marketing/banner-template';

/** The banner's words from the `marketing` translations; the server reads the same keys. */
export function bannerTextsFrom(t: TFunction): BannerTexts {
  return {
    headline: t('banner.headline'),
    tagline: t('banner.tagline'),
    cta: t('banner.cta'),
    codeLabel: t('banner.codeLabel'),
    scan: t('banner.scan'),
  };
}
