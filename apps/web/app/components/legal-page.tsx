import { useTranslation } from 'react-i18next';
import { siteConfig } from '../lib/site-config';
import { PageMeta } from './page-meta';

/**
 * A legal document whose text lives in an i18n namespace of this shape:
 * { meta: { title, description }, title, updated, intro?: string[],
 *   sections: [{ heading, paragraphs?: string[], items?: string[], after?: string[] }] }
 * Strings may use {{brand}}, {{supportEmail}}, {{dpoEmail}}, {{companyAddress}} and {{publicUrl}}.
 */
export interface LegalSection {
  heading: string;
  paragraphs?: string[];
  items?: string[];
  after?: string[];
}


export function LegalPage({ namespace, path }: { namespace: string; path: string }) {
  const { t } = useTranslation(namespace);
  const vars = {
    supportEmail: siteConfig.supportEmail,
    dpoEmail: siteConfig.dpoEmail,
    companyAddress: siteConfig.companyAddress,
    publicUrl: siteConfig.publicUrl,
  };
  const intro = t('intro', { returnObjects: true, defaultValue: [], ...vars }) as string[];
  const sections = t('sections', { returnObjects: true, ...vars }) as LegalSection[];
  return (
    <article className="container legal">
      <PageMeta path={path} title={t('meta.title')} description={t('meta.description')} />
      <header className="legal__header">
        <h1>{t('title')}</h1>
        <p className="legal__updated">{t('updated')}</p>
      </header>
      {Array.isArray(intro) ? intro.map((paragraph) => <p key={paragraph}>{paragraph}</p>) : null}
      <ol className="legal__sections">
        {sections.map((section, index) => (
          <li key={section.heading} id={`section-${index + 1}`}>
            <h2>{section.heading}</h2>
            {section.paragraphs?.map((paragraph) => <p key={paragraph}>{paragraph}</p>)}
            {section.items ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
            {section.after?.map((paragraph) => <p key={paragraph}>{paragraph}</p>)}
          </li>
        ))}
      </ol>
    </article>
  );
}
