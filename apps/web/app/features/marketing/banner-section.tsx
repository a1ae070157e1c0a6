import { useId, useMemo, useState } from 'react';
import {
  BANNER_PREVIEW_SCALE,
  BANNER_SIZES,
  BANNER_THEMES,
  type BannerSize,
  type BannerTheme,
} from '@skanova/shared/marketing/constants';
import { bannerEmbedHtml, bannerFileName, bannerImagePath } from '@skanova/shared/marketing/assets';
import { renderBannerSvg } from '@skanova/shared/marketing/banner-template';
import { useTranslation } from '../../lib/react-i18n';
import { siteConfig } from '../../lib/site-config';
import { bannerTextsFrom } from './banner-texts';
import { downloadBlob } from '../../lib/download';
import { svgToPng } from '../../lib/svg-image';
import { CopyStatus } from './copy-status';
import { usePageLanguage } from './page-language';
import { createQrMatrix } from '../../lib/qr-code';
import { useCopyFeedback } from './use-copy-feedback';

// Banners (docs/product/routes-and-screens.md#marketing-materials-panel 1): size and theme (local settings, docs/product/routes-and-screens.md#referral-qr-panel), a
// half-size preview, a full-size PNG — and one at twice the pixels for high-density screens — made
// here from the same SVG template the server renders for the embed snippet's image URL.

const SIZES = Object.keys(BANNER_SIZES) as BannerSize[];

export function BannerSection({ code, link }: { code: string; link: string }) {
  const { t } = useTranslation('marketing');
  const lang = usePageLanguage();
  const id = useId();
  const [size, setSize] = useState<BannerSize>('horizontal');
  const [theme, setTheme] = useState<BannerTheme>('purple');
  const [downloadFailed, setDownloadFailed] = useState(false);
  const feedback = useCopyFeedback();
  const qr = useMemo(() => createQrMatrix(link), [link]);
  const { width, height } = BANNER_SIZES[size];
  const alt = t('banners.alt', { code });
  const banner = { size, theme, code, brand: siteConfig.brandName, texts: bannerTextsFrom(t), qr };
  const preview = renderBannerSvg({ ...banner, scale: BANNER_PREVIEW_SCALE, title: alt });
  const embed = bannerEmbedHtml({
    imageUrl: `${siteConfig.publicUrl}${bannerImagePath(code, size, theme, lang)}`,
    link,
    width,
    height,
    alt,
  });

  /** The PNG at the banner's size, or twice it: the same drawing (vector), rasterised with more pixels. */
  async function downloadPng(density: 1 | 2) {
    setDownloadFailed(false);
    try {
      downloadBlob(
        await svgToPng(renderBannerSvg({ ...banner, title: alt, scale: density }), width * density, height * density),
        bannerFileName(code, size, theme, density),
      );
    } catch (error) {
      console.error('Banner PNG failed', error);
      setDownloadFailed(true);
    }
  }

  return (
    <section className="card marketing-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('banners.title')}</h2>
      <p>{t('banners.intro')}</p>
      <div className="columns form-row">
        <div className="form-field">
          <label htmlFor={`${id}-size`}>{t('banners.size')}</label>
          <select id={`${id}-size`} value={size} onChange={(event) => setSize(event.target.value as BannerSize)}>
            {SIZES.map((key) => (
              <option key={key} value={key}>
                {t(`banners.sizes.${key}`, BANNER_SIZES[key])}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-theme`}>{t('banners.theme')}</label>
          <select id={`${id}-theme`} value={theme} onChange={(event) => setTheme(event.target.value as BannerTheme)}>
            {BANNER_THEMES.map((key) => (
              <option key={key} value={key}>
                {t(`banners.themes.${key}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <figure className="banner-preview">
        {/* The template's own markup: every text in it is escaped (see banner-template.ts). */}
        <div className="banner-preview__image" dangerouslySetInnerHTML={{ __html: preview }} />
        <figcaption>{t('banners.preview')}</figcaption>
      </figure>
      <div className="form-field">
        <label htmlFor={`${id}-html`}>{t('banners.htmlLabel')}</label>
        <textarea id={`${id}-html`} className="marketing-code" readOnly rows={4} value={embed} />
      </div>
      <div className="button-row">
        <button type="button" className="button button--primary" onClick={() => void downloadPng(1)}>
          {t('banners.downloadPng')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => void downloadPng(2)}>
          {t('banners.downloadPng2x')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void feedback.copy(embed, t('banners.htmlCopied'))}
        >
          {t('banners.copyHtml')}
        </button>
      </div>
      {downloadFailed ? (
        <p className="form-error" role="alert">
          {t('qr.downloadError')}
        </p>
      ) : null}
      <CopyStatus message={feedback.message} />
    </section>
  );
}
