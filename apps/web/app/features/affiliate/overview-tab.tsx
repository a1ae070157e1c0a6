import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { AffiliateStats } from '@skanova/shared/affiliate/stats';
import {
  ACTIVE_VISITORS_REFRESH_SECONDS,
  ACTIVE_VISITORS_WINDOW_MINUTES,
  RECENT_CONVERSIONS_DAYS,
} from '@skanova/shared/affiliate/constants';
import {
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '@skanova/shared/affiliate/programme';
import type { AffiliateRule } from '@skanova/shared/rewards/functions';
import { useTranslation } from '../../lib/react-i18n';
import { nextStep, ruleAmount, ruleInWords } from '../../lib/reward-words';
import { ActivityChart } from './activity-chart';
import { SectionLoading } from './section-loading';
import { formatCount, formatDay, formatDollars, formatMoney, formatPercent } from '../../lib/format';
import { useRefreshWhileVisible } from '../../lib/use-refresh-while-visible';
import { useActiveVisitors, useAffiliateRule } from './queries';

// Overview (docs/product/routes-and-screens.md#overview-tab): six stat cards, real-time active users (docs/product/attribution.md#active-visitors), the premium-rate
// progress (docs/product/money.md#premium-tier) — or, for an affiliate whose rule is not the
// specification's, their own rule in words (docs/product/money.md#operators-groups-rules-and-campaigns) —
// and the last 30 days of clicks and conversions.

/** `onCreateFirstLink`: opens the Links tab on its form (the invitation of an affiliate without a code). */
export function OverviewTab({
  stats,
  onCreateFirstLink,
}: {
  stats: UseQueryResult<AffiliateStats>;
  onCreateFirstLink: () => void;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <div className="dashboard-stack">
      <h2 className="visually-hidden">{t('tabs.overview')}</h2>
      {stats.data ? (
        <>
          {stats.data.status === 'active' && stats.data.referralCodes.length === 0 ? (
            <FirstLinkInvitation onCreate={onCreateFirstLink} />
          ) : null}
          <StatCards stats={stats.data} />
          <div className="columns dashboard-columns">
            <ActiveVisitors stats={stats.data} statsUpdatedAt={stats.dataUpdatedAt} />
            <RuleCard stats={stats.data} />
          </div>
        </>
      ) : stats.isPending ? (
        <SectionLoading />
      ) : null}
      <ActivityChart />
    </div>
  );
}

/** A new affiliate's first step, before any figure means anything: a link of their own. */
function FirstLinkInvitation({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation('dashboard');
  return (
    <section className="card dashboard-first-link" aria-labelledby="dashboard-first-link-title">
      <h3 id="dashboard-first-link-title">{t('links.first.title')}</h3>
      <p>{t('links.first.text')}</p>
      <button type="button" className="button button--primary" onClick={onCreate}>
        {t('links.first.submit')}
      </button>
    </section>
  );
}

function StatCards({ stats }: { stats: AffiliateStats }) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  // Amounts take a whole row on a phone: "12 345,67 $US" never breaks and stays large.
  const cards = [
    { key: 'totalEarnings', value: formatMoney(stats.totalEarningsCents, lang), money: true },
    { key: 'unpaidEarnings', value: formatMoney(stats.unpaidEarningsCents, lang), money: true },
    { key: 'totalConversions', value: formatCount(stats.totalConversions, lang) },
    { key: 'totalClicks', value: formatCount(stats.totalClicks, lang) },
    { key: 'conversionRate', value: formatPercent(stats.conversionRate, lang) },
    { key: 'last30Days', value: formatCount(stats.last30DaysCount, lang) },
  ];
  return (
    <dl className="dashboard-stats">
      {cards.map((card) => (
        <div
          key={card.key}
          className={card.money ? 'card dashboard-stat dashboard-stat--money' : 'card dashboard-stat'}
        >
          <dt>{t(`overview.stats.${card.key}`, { days: RECENT_CONVERSIONS_DAYS })}</dt>
          <dd className="amount">{card.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The stats carry a first count; the card then asks again on its own every
 * ACTIVE_VISITORS_REFRESH_SECONDS while the page is visible (never while it is hidden), and the
 * refresh button asks at once. The newer answer is shown.
 */
function ActiveVisitors({ stats, statsUpdatedAt }: { stats: AffiliateStats; statsUpdatedAt: number }) {
  const { t, i18n } = useTranslation('dashboard');
  const visitors = useActiveVisitors();
  // Only the visitor's own refresh makes the button busy: the automatic one happens quietly.
  const [asked, setAsked] = useState(false);
  useRefreshWhileVisible(
    () => visitors.refetch({ cancelRefetch: false }),
    ACTIVE_VISITORS_REFRESH_SECONDS * 1000,
    () => Math.max(statsUpdatedAt, visitors.dataUpdatedAt),
  );
  const fresh = visitors.data && visitors.dataUpdatedAt > statsUpdatedAt ? visitors.data : null;
  const count = fresh?.activeVisitors ?? stats.activeVisitors;
  const minutes = fresh?.windowMinutes ?? ACTIVE_VISITORS_WINDOW_MINUTES;
  return (
    <section className="card dashboard-live" aria-labelledby="dashboard-live-title">
      <h3 id="dashboard-live-title">
        <span className="dashboard-live__dot" aria-hidden="true" />
        {t('overview.live.title')}
      </h3>
      <p className="dashboard-live__count" aria-live="polite" aria-atomic="true">
        <strong>{formatCount(count, i18n.language)}</strong> <span>{t('overview.live.window', { minutes })}</span>
      </p>
      <p className="form-hint">{t('overview.live.auto', { seconds: ACTIVE_VISITORS_REFRESH_SECONDS })}</p>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => {
          setAsked(true);
          void visitors.refetch().finally(() => setAsked(false));
        }}
        disabled={asked}
      >
        {asked ? t('overview.live.refreshing') : t('overview.live.refresh')}
      </button>
      {visitors.isError && !visitors.isFetching ? (
        <p className="field-error" role="alert">
          {t('overview.live.error')}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The specification's rule keeps the specification's panel (premium-rate progress); another rule is
 * written out, with how far the next step is under a flat rule with steps.
 */
function RuleCard({ stats }: { stats: AffiliateStats }) {
  const { t } = useTranslation('dashboard');
  const rule = useAffiliateRule();
  if (rule.data?.specificationRule) return <PremiumProgress stats={stats} />;
  if (rule.data) return <OwnRule rule={rule.data} qualified={stats.totalConversions} />;
  return (
    <section className="card dashboard-premium" aria-label={t('overview.premium.progressTitle')}>
      {rule.isError ? (
        <p className="form-error" role="alert">
          {t('overview.rule.error')}
        </p>
      ) : (
        <SectionLoading />
      )}
    </section>
  );
}

function OwnRule({ rule, qualified }: { rule: AffiliateRule; qualified: number }) {
  const { t, i18n } = useTranslation('affiliate');
  const lang = i18n.language;
  const next = nextStep(rule.rule, qualified);
  return (
    <section className="card dashboard-premium dashboard-rule" aria-labelledby="dashboard-rule-title">
      <h3 id="dashboard-rule-title">{t('rule.title')}</h3>
      <ul className="dashboard-rule__sentences">
        {ruleInWords(rule.rule, t, lang).map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      {next ? (
        <p className="dashboard-premium__rate">
          {t('rule.nextStep', { count: next.count, amount: ruleAmount(next.amount, lang) })}
        </p>
      ) : null}
      <p className="form-hint">{t('rule.since', { date: formatDay(rule.rule.effectiveFrom, lang) })}</p>
    </section>
  );
}

function PremiumProgress({ stats }: { stats: AffiliateStats }) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  const standard = formatMoney(STANDARD_COMMISSION_CENTS, lang);
  const premium = formatMoney(PREMIUM_COMMISSION_CENTS, lang);
  const progress = Math.max(0, Math.min(PREMIUM_THRESHOLD, stats.progressToTier));
  return (
    <section className="card dashboard-premium" aria-labelledby="dashboard-premium-title">
      <h3 id="dashboard-premium-title">
        {stats.hasPremiumRate ? t('overview.premium.achievedTitle') : t('overview.premium.progressTitle')}
      </h3>
      <p>
        {stats.hasPremiumRate
          ? t('overview.premium.congratulations', { premium })
          : t('overview.premium.explanation', { standard, premium, target: PREMIUM_THRESHOLD })}
      </p>
      <div
        className="dashboard-progress"
        role="progressbar"
        aria-labelledby="dashboard-premium-title"
        aria-valuemin={0}
        aria-valuemax={PREMIUM_THRESHOLD}
        aria-valuenow={progress}
        aria-valuetext={t('overview.premium.valueText', { current: progress, target: PREMIUM_THRESHOLD })}
      >
        <div className="dashboard-progress__fill" style={{ width: `${(progress / PREMIUM_THRESHOLD) * 100}%` }} />
      </div>
      <div className="dashboard-progress__scale" aria-hidden="true">
        <span className="amount">{standard}</span>
        <span className="dashboard-progress__count">
          {t('overview.premium.valueText', { current: progress, target: PREMIUM_THRESHOLD })}
        </span>
        <span className="amount">{premium}</span>
      </div>
      <p className="dashboard-premium__rate">
        {t('overview.premium.currentRate')}{' '}
        <strong className="amount">{formatDollars(stats.currentCommissionRate, lang)}</strong>
      </p>
    </section>
  );
}
