import { useTranslation } from '../lib/react-i18n';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { siteConfig } from '../lib/site-config';

interface PageMetaProps {
  /** Page path without query, e.g. "/terms". */
  path: string;
  title: string;
  description: string;
  /** Referral landings and error pages are kept out of search engines. */
  noindex?: boolean;
}

/** Title, description, canonical and hreflang alternates; React 19 hoists them into <head>. */
export function PageMeta({ path, title, description, noindex = false }: PageMetaProps) {
  const { i18n } = useTranslation();
  const url = (lang: string) => `${siteConfig.publicUrl}${path}?lang=${lang}`;
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      {noindex ? <meta name="robots" content="noindex, nofollow" /> : null}
      <link rel="canonical" href={url(i18n.language)} />
      {LANGUAGES.map((lang) => (
        <link key={lang} rel="alternate" hrefLang={lang} href={url(lang)} />
      ))}
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:site_name" content={siteConfig.brandName} />
      <meta property="og:locale" content={i18n.language === 'fr' ? 'fr_FR' : 'en_US'} />
    </>
  );
}
