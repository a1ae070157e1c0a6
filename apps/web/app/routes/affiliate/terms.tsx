import { Suspense, lazy } from 'react';
import { Link } from 'react-router';
import { programmeValues } from '../../components/affiliate-programme';
import { PageMeta } from '../../components/page-meta';
import { useSession } from '../../lib/auth/session';
import { useTranslation } from '../../lib/react-i18n';
import { siteConfig } from '../../lib/site-config';
import type { RouteHandle } from '../../lib/route-handle';
import '../../components/affiliate-pages.css';
import '../../components/legal-page.css';

export const handle: RouteHandle = { i18n: ['affiliate-terms'] };

// A signed-in affiliate under a rule of their own reads it above the terms; loaded only then.
const OwnRuleNotice = lazy(() => import('../../features/affiliate/own-rule-notice'));

interface TermsSection {
  heading: string;
  paragraphs?: string[];
  definitions?: { term: string; definition: string }[];
  /** Where the commission table goes (after the paragraphs). */
  table?: 'commissions';
  items?: string[];
  after?: string[];
}

function Paragraphs({ texts }: { texts?: string[] }) {
  return texts?.map((text) => <p key={text}>{text}</p>) ?? null;
}

/** The two tiers (docs/product/money.md#premium-tier), from the shared constants. */
function CommissionTable({ values }: { values: ReturnType<typeof programmeValues> }) {
  const { t } = useTranslation('affiliate-terms');
  const rows = [
    ['standard', values.standard],
    ['premium', values.premium],
  ] as const;
  return (
    <div className="table-scroll">
      <table className="affiliate-terms__table">
        <caption>{t('commissionTable.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('commissionTable.tier')}</th>
            <th scope="col">{t('commissionTable.condition')}</th>
            <th scope="col">{t('commissionTable.rate', values)}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([tier, rate]) => (
            <tr key={tier}>
              <th scope="row">{t(`commissionTable.${tier}`)}</th>
              <td>{t(`commissionTable.${tier}Condition`, values)}</td>
              <td>{rate}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The affiliate programme terms (docs/product/routes-and-screens.md#affiliate-terms-page; the real rules of docs/product/money.md and docs/product/attribution.md).
 * The texts are the specification's rule; a signed-in affiliate under another rule reads theirs first.
 */
export default function AffiliateTerms() {
  const { t, i18n } = useTranslation('affiliate-terms');
  const { t: tAffiliate } = useTranslation('affiliate');
  const { state } = useSession();
  const values = programmeValues(i18n.language);
  const sections = t('sections', {
    returnObjects: true,
    ...values,
    paymentRule: tAffiliate('programme.paymentRule', values),
  }) as TermsSection[];
  return (
    <article className="container legal affiliate-terms">
      <PageMeta path="/affiliate/terms" title={t('meta.title')} description={t('meta.description')} />
      <header className="legal__header">
        <h1>{t('title')}</h1>
        <p className="legal__updated">{t('updated')}</p>
      </header>
      {state.status === 'signed-in' ? (
        <Suspense fallback={null}>
          <OwnRuleNotice />
        </Suspense>
      ) : null}
      <ol className="legal__sections">
        {sections.map((section, index) => (
          <li key={section.heading} id={`section-${index + 1}`}>
            <h2>{section.heading}</h2>
            <Paragraphs texts={section.paragraphs} />
            {section.definitions ? (
              <dl className="affiliate-terms__definitions">
                {section.definitions.map((entry) => (
                  <div key={entry.term}>
                    <dt>{entry.term}</dt>
                    <dd>{entry.definition}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {section.table === 'commissions' ? <CommissionTable values={values} /> : null}
            {section.items ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
            <Paragraphs texts={section.after} />
          </li>
        ))}
      </ol>
      <footer className="affiliate-terms__footer">
        <p>
          {t('contact')} <a href={`mailto:${siteConfig.supportEmail}`}>{siteConfig.supportEmail}</a>
        </p>
        <p className="affiliate-terms__acceptance">{t('acceptance', values)}</p>
        <Link className="button button--secondary" to="/affiliate/signup">
          {t('back')}
        </Link>
      </footer>
    </article>
  );
}
