import { Link } from 'react-router';
import { programmeValues } from '../../components/affiliate-programme';
import {
  CallToAction,
  type CardItem,
  FeatureCards,
  Hero,
  PageSection,
  Steps,
} from '../../components/marketing-sections';
import { PageMeta } from '../../components/page-meta';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../lib/route-handle';
import '../../components/accordion.css';
import '../../components/affiliate-pages.css';

// Strings: `affiliate` (declared by the layout).
export const handle: RouteHandle = { i18n: [] };

interface Question {
  question: string;
  answer: string;
}

/**
 * The affiliate landing (docs/product/routes-and-screens.md#affiliate-signup): title, subtitle, join and login buttons, four features, four steps,
 * a four-question FAQ and a closing call to action. Rates and rules come from the shared constants.
 */
export default function AffiliateHome() {
  const { t, i18n } = useTranslation('affiliate');
  const programme = programmeValues(i18n.language);
  const values = { ...programme, paymentRule: t('programme.paymentRule', programme) };
  const list = <T,>(key: string) => t(key, { returnObjects: true, ...values }) as T[];
  return (
    <>
      <PageMeta
        path="/affiliate"
        title={t('landing.meta.title', values)}
        description={t('landing.meta.description', values)}
      />
      <Hero
        id="affiliate"
        eyebrow={t('landing.eyebrow')}
        title={t('landing.title')}
        subtitle={t('landing.subtitle', values)}
        actions={
          <>
            <Link className="button button--primary button--large" to="/affiliate/signup">
              {t('landing.join')}
            </Link>
            <Link className="button button--secondary button--large" to="/affiliate/login">
              {t('landing.login')}
            </Link>
          </>
        }
        note={t('landing.note')}
        aside={
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
        }
      />

      <PageSection
        id="features"
        title={t('landing.features.title')}
        lead={t('landing.features.lead')}
        className="affiliate-features"
      >
        <FeatureCards items={list<CardItem>('landing.features.items')} />
      </PageSection>

      <PageSection
        id="steps"
        tinted
        title={t('landing.steps.title')}
        lead={t('landing.steps.lead')}
        className="affiliate-steps"
      >
        <Steps items={list<CardItem>('landing.steps.items')} />
      </PageSection>

      <PageSection id="faq" title={t('landing.faq.title')} className="affiliate-faq">
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
      </PageSection>

      <CallToAction id="cta" title={t('landing.cta.title')} text={t('landing.cta.text')}>
        <div className="affiliate-cta__actions">
          <Link className="button button--large affiliate-cta__button" to="/affiliate/signup">
            {t('landing.cta.button')}
          </Link>
          <Link className="affiliate-cta__terms" to="/affiliate/terms">
            {t('landing.cta.terms')}
          </Link>
        </div>
      </CallToAction>
    </>
  );
}
