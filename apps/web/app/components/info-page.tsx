import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import { PageMeta } from './page-meta';
import './info-page.css';

interface InfoSection {
  heading: string;
  paragraphs?: string[];
  items?: string[];
}

/**
 * A short company page (about, careers, press, blog) whose text lives in the `company` namespace:
 * { <page>: { meta: { title, description }, title, lead, sections: InfoSection[], contact } }.
 */
export function InfoPage({ page }: { page: 'about' | 'careers' | 'press' | 'blog' }) {
  const { t } = useTranslation('company');
  const sections = t(`${page}.sections`, { returnObjects: true }) as InfoSection[];
  return (
    <article className={`container page page--${page}`}>
      <PageMeta path={`/${page}`} title={t(`${page}.meta.title`)} description={t(`${page}.meta.description`)} />
      <header className="page__header">
        <h1>{t(`${page}.title`)}</h1>
        <p className="page__lead">{t(`${page}.lead`)}</p>
      </header>
      <div className="page__body">
        {sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs?.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            {section.items ? (
              <ul className="fact-list">
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
        <div className="contact-note">
          <p>
            {t(`${page}.contact`)} <a href={`mailto:${siteConfig.supportEmail}`}>{siteConfig.supportEmail}</a>
          </p>
        </div>
      </div>
    </article>
  );
}
