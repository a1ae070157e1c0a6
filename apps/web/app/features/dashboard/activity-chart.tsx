import { STATS_CHART_DAYS } from '@skanova/shared/affiliate/constants';
import type { DailyActivity } from '@skanova/shared/affiliate/stats';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import {
  type BarArea,
  activityTotals,
  continuousDays,
  labelEvery,
  labelledDayIndexes,
  layoutBars,
  niceMax,
} from './chart-data';
import { formatCount, formatDay } from '../../lib/format';
import { useAffiliateTimeline } from './queries';
import { SectionLoading } from './section-loading';

// Clicks and conversions per UTC day over the last 30 days (issue: "beyond the spec"). Drawn as an
// inline SVG (no chart library), two panels with their own scale — conversions are far fewer than
// clicks and would vanish on a shared axis. Screen readers get a title, a summary and the data as
// a table (also offered to everyone behind a disclosure).

/** Drawn at the width of its box, so text stays at its CSS size on a phone as on a wide screen. */
const DEFAULT_WIDTH = 960;
const MIN_WIDTH = 300;
const HEIGHT = 250;
const PLOT_LEFT = 44;
const PLOT_RIGHT_PAD = 8;
const AXIS_LABEL_Y = 242;

function panels(width: number) {
  const plotWidth = width - PLOT_LEFT - PLOT_RIGHT_PAD;
  return {
    clicks: { left: PLOT_LEFT, top: 24, width: plotWidth, height: 80 },
    conversions: { left: PLOT_LEFT, top: 140, width: plotWidth, height: 80 },
  } satisfies Record<string, BarArea>;
}

/** The width of an element, followed as it changes (the default until measured, e.g. in tests). */
function useElementWidth(fallback: number): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

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
  const [frame, measured] = useElementWidth(DEFAULT_WIDTH);
  const width = Math.max(MIN_WIDTH, measured);
  const layout = panels(width);
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
  const series = [
    { key: 'clicks', label: t('overview.chart.clicks'), area: layout.clicks, values: days.map((day) => day.clicks) },
    {
      key: 'conversions',
      label: t('overview.chart.conversions'),
      area: layout.conversions,
      values: days.map((day) => day.conversions),
    },
  ] as const;
  // Where each day's bars stand, for the date labels under them.
  const slots = layoutBars(
    days.map(() => 0),
    1,
    layout.conversions,
  );

  return (
    <>
      <div className="dashboard-chart__frame" ref={frame}>
        <svg
          className="activity-chart"
          viewBox={`0 0 ${width} ${HEIGHT}`}
          width={width}
          height={HEIGHT}
          role="img"
          aria-labelledby="dashboard-chart-svg-title"
          aria-describedby="dashboard-chart-summary"
        >
          <title id="dashboard-chart-svg-title">{t('overview.chart.title', { days: STATS_CHART_DAYS })}</title>
          {series.map(({ key, label, area, values }) => {
            const max = niceMax(Math.max(0, ...values));
            const baseline = area.top + area.height;
            return (
              <g key={key}>
                <text className="activity-chart__label" x={area.left} y={area.top - 8}>
                  {label}
                </text>
                <line
                  className="activity-chart__grid"
                  x1={area.left}
                  x2={area.left + area.width}
                  y1={area.top}
                  y2={area.top}
                />
                <line
                  className="activity-chart__axis"
                  x1={area.left}
                  x2={area.left + area.width}
                  y1={baseline}
                  y2={baseline}
                />
                <text className="activity-chart__tick" x={area.left - 6} y={area.top + 4} textAnchor="end">
                  {formatCount(max, lang)}
                </text>
                <text className="activity-chart__tick" x={area.left - 6} y={baseline + 4} textAnchor="end">
                  {formatCount(0, lang)}
                </text>
                {layoutBars(values, max, area).map((bar, index) => (
                  <rect
                    key={days[index]!.date}
                    className={`activity-chart__bar activity-chart__bar--${key}`}
                    x={bar.x}
                    y={bar.y}
                    width={bar.width}
                    height={bar.height}
                    rx={1.5}
                  />
                ))}
              </g>
            );
          })}
          {labelledDayIndexes(days.length, labelEvery(layout.conversions.width / Math.max(1, days.length))).map(
            (index) => {
              const bar = slots[index]!;
              // The last label ends at its bar instead of running past the edge.
              const last = index === days.length - 1;
              return (
                <text
                  key={days[index]!.date}
                  className="activity-chart__tick activity-chart__date"
                  x={last ? bar.x + bar.width : bar.x + bar.width / 2}
                  y={AXIS_LABEL_Y}
                  textAnchor={last ? 'end' : 'middle'}
                >
                  {formatDay(days[index]!.date, lang, 'short')}
                </text>
              );
            },
          )}
        </svg>
      </div>
      <p className="dashboard-chart__summary" id="dashboard-chart-summary">
        {summary}
      </p>
      <details className="dashboard-chart__data">
        <summary>{t('overview.chart.showTable')}</summary>
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">{t('overview.chart.title', { days: STATS_CHART_DAYS })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('overview.chart.date')}</th>
                <th scope="col">{t('overview.chart.clicks')}</th>
                <th scope="col">{t('overview.chart.conversions')}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{formatDay(day.date, lang)}</th>
                  <td>{formatCount(day.clicks, lang)}</td>
                  <td>{formatCount(day.conversions, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
