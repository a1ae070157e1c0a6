import { useTranslation } from '../lib/react-i18n';
import { PageMeta } from '../components/page-meta';
import { StoreLinks } from '../components/store-links';
import { siteConfig } from '../lib/site-config';
import type { RouteHandle } from '../root';

export const handle: RouteHandle = { i18n: ['home'] };

interface Item {
  title: string;
  text: string;
  items?: string[];
}

interface Testimonial {
  quote: string;
  name: string;
  detail: string;
}

/** Home page of spec §2: hero, three features, three steps, three testimonials, closing call to action. */
export default function Home() {
  const { t } = useTranslation('home');
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as T[];
  const heading = (id: string) => (
    <div className="section__header">
      <h2 id={`${id}-title`}>{t(`${id}.title`)}</h2>
      <p className="section__lead">{t(`${id}.lead`)}</p>
    </div>
  );
  return (
    <>
      <PageMeta path="/" title={t('meta.title')} description={t('meta.description')} />
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__inner">
          <div>
            <p className="eyebrow">{t('hero.eyebrow')}</p>
            <h1 id="hero-title">{t('hero.title')}</h1>
            <p className="hero__subtitle">{t('hero.subtitle')}</p>
            <div className="hero__actions">
              <a className="button button--primary button--large" href={siteConfig.webAppUrl}>
                {t('hero.getStarted')}
              </a>
              <a className="button button--secondary button--large" href="#features">
                {t('hero.learnMore')}
              </a>
            </div>
            <p className="hero__note">{t('hero.note')}</p>
          </div>
          <div className="hero__visual" role="img" aria-label={t('hero.visual')} />
        </div>
      </section>

      <section id="features" className="section" aria-labelledby="features-title">
        <div className="container">
          {heading('features')}
          <ul className="card-grid">
            {list<Item>('features.items').map((feature) => (
              <li key={feature.title}>
                <article className="card feature-card">
                  <h3>{feature.title}</h3>
                  <p>{feature.text}</p>
                  {feature.items ? (
                    <ul className="chips">
                      {feature.items.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                  ) : null}
                </article>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section--tinted" aria-labelledby="how-title">
        <div className="container">
          {heading('how')}
          <ol className="steps">
            {list<Item>('how.steps').map((step) => (
              <li key={step.title}>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="testimonials-title">
        <div className="container">
          {heading('testimonials')}
          <ul className="card-grid">
            {list<Testimonial>('testimonials.items').map((item) => (
              <li key={item.name}>
                <figure className="card testimonial">
                  <blockquote>
                    <p>{item.quote}</p>
                  </blockquote>
                  <figcaption>
                    <strong>{item.name}</strong>
                    {item.detail}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="container cta" aria-labelledby="cta-title">
        <div className="cta__box">
          <h2 id="cta-title">{t('cta.title')}</h2>
          <p>{t('cta.text')}</p>
          <StoreLinks />
          <p className="cta__note">{t('cta.note')}</p>
        </div>
      </section>
    </>
  );
}
