import { STATS_CHART_DAYS } from '@skanova/shared/affiliate/constants';
import type { DailyActivity } from '@skanova/shared/affiliate/stats';
import { BarChart } from '../../components/bar-chart';
import { useTranslation } from '../../lib/react-i18n';
import { activityTotals, continuousDays } from './chart-data';
import { formatCount, formatDay } from '../../lib/format';
import { useAffiliateTimeline } from './queries';
import { SectionLoading } from './section-loading';

// Clicks and conversions per UTC day over the last 30 days (issue: "beyond the spec"), in the
// shared bar chart: the axis labels a week apart, or more weeks on a narrow screen.

const SERIES = ['clicks', 'conversions'] as const;

export function ActivityChart() {
  const { t } = useTranslation('dashboard');
  const timeline = useAffiliateTimeline();
  return (
    <section className="card dashboard-chart" aria-labelledby="dashboard-chart-title">
      <h3 id="dashboard-chart-title">{t('overview.chart.title', { days: STATS_CHART_DAYS })}</h3>
      {timeline.data ? <ChartBody days={continuousDays(timeline.data.days)} /> : null}
      {timeline.isPending ? <SectionLoading /> : null}
      {timeline.isError ? (
        <div className="form-error" role="alert">
          <p>{t('overview.chart.error')}</p>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void timeline.refetch()}
            disabled={timeline.isFetching}
          >
            {t('errors.retry')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function ChartBody({ days }: { days: DailyActivity[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  const totals = activityTotals(days);
  const summary = [
    t('overview.chart.summary', {
      days: STATS_CHART_DAYS,
      clicks: formatCount(totals.clicks, lang),
      conversions: formatCount(totals.conversions, lang),
    }),
    totals.busiestDay
      ? t('overview.chart.busiest', {
          date: formatDay(totals.busiestDay.date, lang),
          clicks: formatCount(totals.busiestDay.clicks, lang),
        })
      : t('overview.chart.empty'),
  ].join(' ');

  return (
    <BarChart
      title={t('overview.chart.title', { days: STATS_CHART_DAYS })}
      summary={summary}
      series={SERIES.map((key) => ({
        key,
        name: t(`overview.chart.${key}`),
        values: days.map((day) => day[key]),
      }))}
      points={days.map((day) => ({
        key: day.date,
        tick: formatDay(day.date, lang, 'short'),
        name: formatDay(day.date, lang),
      }))}
      pointHeader={t('overview.chart.date')}
      showTable={t('overview.chart.showTable')}
      lang={lang}
      panelHeight={80}
      labelUnit={7}
    />
  );
}
