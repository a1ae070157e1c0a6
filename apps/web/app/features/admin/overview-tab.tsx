import { Link } from 'react-router';
import type { AdminOverview } from '@skanova/shared/admin/responses';
import { MINIMUM_PAYOUT_CENTS } from '@skanova/shared/affiliate/programme';
import { useTranslation } from '../../lib/react-i18n';
import { formatCount, formatDay, formatMoney } from '../../lib/format';
import { formatDateTime } from './admin-format';
import { AdminTable, ListState } from './console-parts';
import { OverviewChart } from './overview-chart';
import { useAdminOverview } from './queries';
import './overview.css';

// The operators' first screen (docs/product/routes-and-screens.md#operator-console): what waits for an operator, with links to the tabs
// that handle it; the programme's figures; the commissions by status; what the next payday will
// pay; and a year of activity. Every figure is the server's (adminGetOverview); money arrives in
// cents and becomes dollars here.

/** The cut-off, always a 1st: French writes it "1er décembre 2026". */
function firstOfMonth(iso: string, lang: string): string {
  const day = formatDay(iso, lang);
  return lang === 'fr' ? day.replace(/^1 /, '1er ') : day;
}

/** Where each waiting item is handled: a tab (the hash) and its filters (the query string). */
function actionLinks(overview: AdminOverview) {
  const { pendingApplications, failedPayouts, openTickets } = overview.needsAction;
  return [
    { key: 'pendingApplications', count: pendingApplications, to: { search: '?status=pending', hash: '#affiliates' } },
    {
      key: 'failedPayouts',
      count: failedPayouts.count,
      to: { search: `?payday=${failedPayouts.payday}&status=failed`, hash: '#payouts' },
    },
    { key: 'openTickets', count: openTickets, to: { search: '', hash: '#tickets' } },
  ] as const;
}

export function OverviewTab() {
  const { t } = useTranslation('admin');
  const overview = useAdminOverview();
  return (
    <div className="admin-stack admin-overview">
      <h2 className="visually-hidden">{t('tabs.overview')}</h2>
      <ListState query={overview} empty={false} />
      {overview.data ? (
        <OverviewBody
          overview={overview.data}
          refreshing={overview.isFetching}
          onRefresh={() => void overview.refetch()}
        />
      ) : null}
    </div>
  );
}

function OverviewBody({
  overview,
  refreshing,
  onRefresh,
}: {
  overview: AdminOverview;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  return (
    <>
      <div className="admin-overview__as-of">
        <p>{t('overview.asOf', { date: formatDateTime(overview.asOf, lang) })}</p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={onRefresh}
          disabled={refreshing}
        >
          {refreshing ? t('overview.refreshing') : t('overview.refresh')}
        </button>
      </div>
      <NeedsAction overview={overview} />
      <Programme overview={overview} />
      <div className="admin-overview__columns">
        <Commissions overview={overview} />
        <NextPayday overview={overview} />
      </div>
      <section className="card" aria-labelledby="admin-overview-chart-title">
        <h3 id="admin-overview-chart-title">{t('overview.chart.title')}</h3>
        <OverviewChart months={overview.months} />
      </section>
    </>
  );
}

function NeedsAction({ overview }: { overview: AdminOverview }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const links = actionLinks(overview);
  const payday = formatDay(overview.needsAction.failedPayouts.payday, lang);
  return (
    <section className="card" aria-labelledby="admin-overview-action-title">
      <h3 id="admin-overview-action-title">{t('overview.action.title')}</h3>
      <ul className="admin-overview-actions">
        {links.map((link) => (
          <li key={link.key}>
            <Link
              to={link.to}
              className={`admin-overview-actions__link${link.count > 0 ? ' admin-overview-actions__link--due' : ''}`}
            >
              <strong className="admin-overview-actions__count">{formatCount(link.count, lang)}</strong>{' '}
              <span>{t(`overview.action.${link.key}`, { date: payday })}</span>
            </Link>
          </li>
        ))}
      </ul>
      {links.every((link) => link.count === 0) ? (
        <p className="admin-overview__note">{t('overview.action.nothing')}</p>
      ) : null}
    </section>
  );
}

function Programme({ overview }: { overview: AdminOverview }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const figures = [
    { key: 'activeAffiliates', value: overview.affiliates.active },
    { key: 'pendingAffiliates', value: overview.affiliates.pending },
    { key: 'clicks', value: overview.totals.clicks },
    { key: 'installs', value: overview.totals.installs },
    { key: 'conversions', value: overview.totals.conversions },
  ];
  return (
    <section className="card" aria-labelledby="admin-overview-programme-title">
      <h3 id="admin-overview-programme-title">{t('overview.programme.title')}</h3>
      <dl className="admin-overview-figures">
        {figures.map((figure) => (
          <div key={figure.key}>
            <dt>{t(`overview.programme.${figure.key}`)}</dt>
            <dd>{formatCount(figure.value, lang)}</dd>
          </div>
        ))}
      </dl>
      <p className="admin-overview__note">{t('overview.programme.note')}</p>
    </section>
  );
}

function Commissions({ overview }: { overview: AdminOverview }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const statuses = ['pending', 'approved', 'paid'] as const;
  return (
    <section className="card" aria-labelledby="admin-overview-commissions-title">
      <h3 id="admin-overview-commissions-title">{t('overview.commissions.title')}</h3>
      <AdminTable
        className="admin-overview-commissions"
        columns={[
          { label: t('overview.commissions.status') },
          { label: t('overview.commissions.count'), number: true },
          { label: t('overview.commissions.amount'), number: true },
        ]}
      >
        {statuses.map((status) => (
          <tr key={status}>
            <th scope="row">{t(`overview.commissions.${status}`)}</th>
            <td className="admin-table__number">{formatCount(overview.commissions[status].count, lang)}</td>
            <td className="admin-table__number">{formatMoney(overview.commissions[status].cents, lang)}</td>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}

function NextPayday({ overview }: { overview: AdminOverview }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const { date, cutoff, payouts, cents } = overview.nextPayday;
  return (
    <section className="card" aria-labelledby="admin-overview-payday-title">
      <h3 id="admin-overview-payday-title">{t('overview.payday.title', { date: formatDay(date, lang) })}</h3>
      <dl className="admin-overview-figures admin-overview-figures--two">
        <div>
          <dt>{t('overview.payday.amount')}</dt>
          <dd>{formatMoney(cents, lang)}</dd>
        </div>
        <div>
          <dt>{t('overview.payday.payouts')}</dt>
          <dd>{formatCount(payouts, lang)}</dd>
        </div>
      </dl>
      <p className="admin-overview__note">
        {t('overview.payday.rule', {
          cutoff: firstOfMonth(cutoff, lang),
          minimum: formatMoney(MINIMUM_PAYOUT_CENTS, lang),
        })}
      </p>
    </section>
  );
}
