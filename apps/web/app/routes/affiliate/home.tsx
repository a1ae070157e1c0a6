import { Link } from 'react-router';
import { programmeValues } from '../../components/affiliate-programme';
import { PageMeta } from '../../components/page-meta';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../root';
import '../../components/affiliate-pages.css';

// Strings: `affiliate` (declared by the layout).
export const handle: RouteHandle = { i18n: [] };

interface Item {
  title: string;
  text: string;
}

interface Question {
  question: string;
  answer: string;
}

/**
 * The affiliate landing (spec §2): title, subtitle, join and login buttons, four features, four steps,
 * a four-question FAQ and a closing call to action. Rates and rules come from the shared constants.
 */
export default function AffiliateHome() {
  const { t, i18n } = useTranslation('affiliate');
  const programme = programmeValues(i18n.language);
  const values = { ...programme, paymentRule: t('programme.paymentRule', programme) };
  const list = <T,>(key: string) => t(key, { returnObjects: true, ...values }) as T[];
  const heading = (id: string) => (
    <div className="section__header">
      <h2 id={`${id}-title`}>{t(`landing.${id}.title`)}</h2>
      {id === 'faq' ? null : <p className="section__lead">{t(`landing.${id}.lead`)}</p>}
    </div>
  );
  return (
    <>
      <PageMeta
        path="/affiliate"
        title={t('landing.meta.title', values)}
        description={t('landing.meta.description', values)}
      />
      <section className="hero affiliate-hero" aria-labelledby="affiliate-title">
        <div className="container hero__inner">
          <div>
            <p className="eyebrow">{t('landing.eyebrow')}</p>
            <h1 id="affiliate-title">{t('landing.title')}</h1>
            <p className="hero__subtitle">{t('landing.subtitle', values)}</p>
            <div className="hero__actions">
              <Link className="button button--primary button--large" to="/affiliate/signup">
                {t('landing.join')}
              </Link>
              <Link className="button button--secondary button--large" to="/affiliate/login">
                {t('landing.login')}
              </Link>
            </div>
            <p className="hero__note">{t('landing.note')}</p>
          </div>
          <div className="card affiliate-rates">
            <h2 className="affiliate-rates__title">{t('landing.rates.title')}</h2>
            <dl>
              <div>
                <dt className="affiliate-rates__amount">{values.standard}</dt>
                <dd>{t('landing.rates.standard')}</dd>
              </div>
              <div>
                <dt className="affiliate-rates__amount affiliate-rates__amount--premium">{values.premium}</dt>
                <dd>{t('landing.rates.premium', values)}</dd>
              </div>
            </dl>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="container">
          {heading('features')}
          <ul className="card-grid affiliate-features">
            {list<Item>('landing.features.items').map((feature) => (
              <li key={feature.title}>
                <article className="card feature-card">
                  <h3>{feature.title}</h3>
                  <p>{feature.text}</p>
                </article>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section--tinted" aria-labelledby="steps-title">
        <div className="container">
          {heading('steps')}
          <ol className="steps affiliate-steps">
            {list<Item>('landing.steps.items').map((step) => (
              <li key={step.title}>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="faq-title">
        <div className="container affiliate-faq">
          {heading('faq')}
          {/* Native disclosure: one answer open at a time (shared name), no JavaScript. */}
          <div className="accordion">
            {list<Question>('landing.faq.items').map((item) => (
              <details key={item.question} className="accordion__item" name="affiliate-faq">
                <summary className="accordion__trigger">{item.question}</summary>
                <div className="accordion__panel">
                  <p>{item.answer}</p>
                </div>
              </details>
            ))}
          </div>
        </div>
      </section>

      <section className="cta" aria-labelledby="cta-title">
        <div className="container">
          <div className="cta__box">
            <h2 id="cta-title">{t('landing.cta.title')}</h2>
            <p>{t('landing.cta.text')}</p>
            <div className="affiliate-cta__actions">
              <Link className="button button--large affiliate-cta__button" to="/affiliate/signup">
                {t('landing.cta.button')}
              </Link>
              <Link className="affiliate-cta__terms" to="/affiliate/terms">
                {t('landing.cta.terms')}
              </Link>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
