import type { AdminMonthActivity } from '@skanova/shared/admin/responses';
import { BarChart } from '../../components/bar-chart';
import { useTranslation } from '../../lib/react-i18n';
import { formatCount } from '../../lib/format';
import { type MonthSeries, busiestMonth, monthStart, monthTotals } from './overview-chart-data';

// Clicks, installs and conversions per UTC month over the last 12 months (the shared bar chart):
// the months under the last panel with the year under the first and wherever it changes; the
// figures' table stacks its rows on a phone like the console's other tables.

const SERIES: readonly MonthSeries[] = ['clicks', 'installs', 'conversions'];

function monthFormat(lang: string, options: Intl.DateTimeFormatOptions) {
  const format = new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' });
  return (month: string) => format.format(monthStart(month));
}

export function OverviewChart({ months }: { months: AdminMonthActivity[] }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const shortMonth = monthFormat(lang, { month: 'short' });
  const longMonth = monthFormat(lang, { month: 'long', year: 'numeric' });
  const year = monthFormat(lang, { year: 'numeric' });

  const totals = monthTotals(months);
  const busiest = busiestMonth(months);
  const summary = [
    t('overview.chart.summary', {
      clicks: formatCount(totals.clicks, lang),
      installs: formatCount(totals.installs, lang),
      conversions: formatCount(totals.conversions, lang),
    }),
    busiest
      ? t('overview.chart.busiest', { month: longMonth(busiest.month), clicks: formatCount(busiest.clicks, lang) })
      : t('overview.chart.empty'),
  ].join(' ');

  return (
    <BarChart
      title={t('overview.chart.title')}
      summary={summary}
      series={SERIES.map((key) => ({
        key,
        name: t(`overview.chart.${key}`),
        values: months.map((entry) => entry[key]),
      }))}
      points={months.map((entry) => ({
        key: entry.month,
        tick: shortMonth(entry.month),
        group: year(entry.month),
        name: longMonth(entry.month),
      }))}
      pointHeader={t('overview.chart.month')}
      showTable={t('overview.chart.showTable')}
      lang={lang}
      panelHeight={56}
      barFill={0.62}
      tableClassName="admin-table admin-table--stack"
    />
  );
}
