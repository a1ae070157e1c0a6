import { useTranslation } from '../lib/react-i18n';
import { CallToAction, type CardItem, FeatureCards, Hero, PageSection, Steps } from '../components/marketing-sections';
import { PageMeta } from '../components/page-meta';
import { StoreLinks } from '../components/store-links';
import { siteConfig } from '../lib/site-config';
import type { RouteHandle } from '../lib/route-handle';

export const handle: RouteHandle = { i18n: ['home'] };

interface Testimonial {
  quote: string;
  name: string;
  detail: string;
}

/** Home page of docs/product/routes-and-screens.md#home-page: hero, three features, three steps, three testimonials, closing call to action. */
export default function Home() {
  const { t } = useTranslation('home');
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as T[];
  return (
    <>
      <PageMeta path="/" title={t('meta.title')} description={t('meta.description')} />
      <Hero
        id="hero"
        eyebrow={t('hero.eyebrow')}
        title={t('hero.title')}
        subtitle={t('hero.subtitle')}
        actions={
          <>
            <a className="button button--primary button--large" href={siteConfig.webAppUrl}>
              {t('hero.getStarted')}
            </a>
            <a className="button button--secondary button--large" href="#features">
              {t('hero.learnMore')}
            </a>
          </>
        }
        note={t('hero.note')}
        aside={<div className="hero__visual" role="img" aria-label={t('hero.visual')} />}
      />

      <PageSection id="features" title={t('features.title')} lead={t('features.lead')}>
        <FeatureCards items={list<CardItem>('features.items')} />
      </PageSection>

      <PageSection id="how" tinted title={t('how.title')} lead={t('how.lead')}>
        <Steps items={list<CardItem>('how.steps')} />
      </PageSection>

      <PageSection id="testimonials" title={t('testimonials.title')} lead={t('testimonials.lead')}>
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
      </PageSection>

      {/* Two ways in, each saying what it opens: the web app in this browser, or the mobile app's stores. */}
      <CallToAction id="cta" title={t('cta.title')} text={t('cta.text')}>
        <div className="cta__choices">
          <section aria-labelledby="cta-web-title">
            <h3 id="cta-web-title">{t('cta.web.title')}</h3>
            <p>{t('cta.web.text')}</p>
            <a className="button" href={siteConfig.webAppUrl}>
              {t('cta.web.action')}
            </a>
          </section>
          <section aria-labelledby="cta-stores-title">
            <h3 id="cta-stores-title">{t('cta.stores.title')}</h3>
            <p>{t('cta.stores.text')}</p>
            <StoreLinks />
          </section>
        </div>
        <p className="cta__note">{t('cta.note')}</p>
      </CallToAction>
    </>
  );
}
