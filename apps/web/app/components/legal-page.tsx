import type { LegalSection } from '@skanova/shared/i18n/legal-document';
import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import { PageMeta } from './page-meta';
import './legal-page.css';

/**
 * A legal document whose text lives in an i18n namespace of this shape:
 * { meta: { title, description }, title, updated, intro?: string[],
 *   sections: [{ heading, paragraphs?: string[], items?: string[], after?: string[] }] }
 * Strings may use {{brand}}, {{supportEmail}}, {{dpoEmail}}, {{companyAddress}} and {{publicUrl}}.
 */

// At build time the addresses are the server's placeholder tokens; in the browser, the real values.
const EMAIL = /([\w.+-]+@[\w-]+(?:\.[\w-]+)+|%%SK:(?:supportEmail|dpoEmail)%%)/;

/** Text with its e-mail addresses as mailto links. */
function Linkified({ text }: { text: string }) {
  return text.split(EMAIL).map((part, index) =>
    index % 2 === 1 ? (
      <a key={part + index} href={`mailto:${part}`}>
        {part}
      </a>
    ) : (
      part
    ),
  );
}

/** A list item "Label: text" (or "Label : texte") shows its label in bold. */
function Item({ text }: { text: string }) {
  const match = /^([^:]{2,60}?)([\u00a0\u202f ]?:\s)([\s\S]+)$/.exec(text);
  if (!match) return <Linkified text={text} />;
  return (
    <>
      <strong>{match[1]}</strong>
      {match[2]}
      <Linkified text={match[3] ?? ''} />
    </>
  );
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
      {Array.isArray(intro)
        ? intro.map((paragraph) => (
            <p key={paragraph}>
              <Linkified text={paragraph} />
            </p>
          ))
        : null}
      <ol className="legal__sections">
        {sections.map((section, index) => (
          <li key={section.heading} id={`section-${index + 1}`}>
            <h2>{section.heading}</h2>
            {section.paragraphs?.map((paragraph) => (
              <p key={paragraph}>
                <Linkified text={paragraph} />
              </p>
            ))}
            {section.items ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>
                    <Item text={item} />
                  </li>
                ))}
              </ul>
            ) : null}
            {section.after?.map((paragraph) => (
              <p key={paragraph}>
                <Linkified text={paragraph} />
              </p>
            ))}
          </li>
        ))}
      </ol>
    </article>
  );
}
