import { type RefObject, useEffect, useRef, useState } from 'react';
import type { AdminMonthActivity } from '@skanova/shared/admin/responses';
import { useTranslation } from '../../lib/react-i18n';
import { formatCount } from '../../lib/format';
import {
  type MonthSeries,
  busiestMonth,
  labelStep,
  labelledMonths,
  monthBars,
  monthStart,
  monthTotals,
  scaleTop,
} from './overview-chart-data';

// Clicks, installs and conversions per UTC month over the last 12 months, drawn as inline SVG like
// the affiliate dashboard's chart (no chart library): one panel per series with its own scale —
// conversions are far fewer than clicks and would vanish on a shared axis — and the months under
// the last panel, as many labels as the width allows. Screen readers get a title, a summary, and
// the figures as a table (offered to everyone behind a disclosure; its rows stack on a phone).

const SERIES: readonly MonthSeries[] = ['clicks', 'installs', 'conversions'];
/** Drawn at the width of its box, so its text keeps its CSS size on a phone as on a wide screen. */
const FALLBACK_WIDTH = 960;
const MIN_WIDTH = 280;
const PLOT_LEFT = 44;
const PLOT_RIGHT = 8;
const FIRST_TOP = 24;
const PANEL_HEIGHT = 56;
/** Room between panels for the next panel's name. */
const PANEL_GAP = 34;
const MONTH_LABEL_GAP = 16;
const YEAR_LABEL_GAP = 30;
const HEIGHT = FIRST_TOP + SERIES.length * PANEL_HEIGHT + (SERIES.length - 1) * PANEL_GAP + YEAR_LABEL_GAP + 8;
/** Width of one character of the 11 px axis text, generously. */
const TICK_CHAR_WIDTH = 7;

/** The width of the element, followed as it changes (the fallback until measured, e.g. in tests). */
function useMeasuredWidth(fallback: number): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const measured = entries[0]?.contentRect.width ?? 0;
      if (measured > 0) setWidth(Math.round(measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

function monthFormat(lang: string, options: Intl.DateTimeFormatOptions) {
  const format = new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' });
  return (month: string) => format.format(monthStart(month));
}

export function OverviewChart({ months }: { months: AdminMonthActivity[] }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const [frame, measured] = useMeasuredWidth(FALLBACK_WIDTH);
  const width = Math.max(MIN_WIDTH, measured);
  const plotWidth = width - PLOT_LEFT - PLOT_RIGHT;
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

  const panels = SERIES.map((series, index) => {
    const box = {
      left: PLOT_LEFT,
      top: FIRST_TOP + index * (PANEL_HEIGHT + PANEL_GAP),
      width: plotWidth,
      height: PANEL_HEIGHT,
    };
    const top = scaleTop(Math.max(0, ...months.map((entry) => entry[series])));
    return { series, box, top, bars: monthBars(months, series, top, box) };
  });
  const last = panels[panels.length - 1]!;
  const baseline = last.box.top + last.box.height;
  const labels = months.map((entry) => shortMonth(entry.month));
  const step = labelStep(
    months.length > 0 ? plotWidth / months.length : plotWidth,
    Math.max(0, ...labels.map((label) => label.length)) * TICK_CHAR_WIDTH,
  );
  const labelled = labelledMonths(months.length, step);

  return (
    <>
      <div className="admin-overview-chart__frame" ref={frame}>
        <svg
          className="admin-overview-chart"
          viewBox={`0 0 ${width} ${HEIGHT}`}
          width={width}
          height={HEIGHT}
          role="img"
          aria-labelledby="admin-overview-chart-svg-title"
          aria-describedby="admin-overview-chart-summary"
        >
          <title id="admin-overview-chart-svg-title">{t('overview.chart.title')}</title>
          {panels.map(({ series, box, top, bars }) => (
            <g key={series}>
              <text className="admin-overview-chart__name" x={box.left} y={box.top - 8}>
                {t(`overview.chart.${series}`)}
              </text>
              <line
                className="admin-overview-chart__grid"
                x1={box.left}
                x2={box.left + box.width}
                y1={box.top}
                y2={box.top}
              />
              <line
                className="admin-overview-chart__axis"
                x1={box.left}
                x2={box.left + box.width}
                y1={box.top + box.height}
                y2={box.top + box.height}
              />
              <text className="admin-overview-chart__tick" x={box.left - 6} y={box.top + 4} textAnchor="end">
                {formatCount(top, lang)}
              </text>
              <text
                className="admin-overview-chart__tick"
                x={box.left - 6}
                y={box.top + box.height + 4}
                textAnchor="end"
              >
                {formatCount(0, lang)}
              </text>
              {bars.map((bar) => (
                <rect
                  key={bar.month}
                  className={`admin-overview-chart__bar admin-overview-chart__bar--${series}`}
                  x={bar.x}
                  y={bar.y}
                  width={bar.width}
                  height={bar.height}
                  rx={1.5}
                />
              ))}
            </g>
          ))}
          {labelled.map((index, position) => {
            const bar = last.bars[index]!;
            const month = months[index]!.month;
            // The year under the first labelled month and wherever it changes.
            const previous = position > 0 ? months[labelled[position - 1]!]!.month : null;
            const showYear = previous === null || previous.slice(0, 4) !== month.slice(0, 4);
            return (
              <g key={month}>
                <text
                  className="admin-overview-chart__tick"
                  x={bar.centre}
                  y={baseline + MONTH_LABEL_GAP}
                  textAnchor="middle"
                >
                  {labels[index]}
                </text>
                {showYear ? (
                  <text
                    className="admin-overview-chart__tick"
                    x={bar.centre}
                    y={baseline + YEAR_LABEL_GAP}
                    textAnchor="middle"
                  >
                    {year(month)}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <p className="admin-overview-chart__summary" id="admin-overview-chart-summary">
        {summary}
      </p>
      <details className="admin-overview-chart__data">
        <summary>{t('overview.chart.showTable')}</summary>
        <div className="table-scroll">
          <table className="admin-table admin-table--stack">
            <caption className="visually-hidden">{t('overview.chart.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('overview.chart.month')}</th>
                {SERIES.map((series) => (
                  <th key={series} scope="col" className="admin-table__number">
                    {t(`overview.chart.${series}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {months.map((entry) => (
                <tr key={entry.month}>
                  <th scope="row">{longMonth(entry.month)}</th>
                  {SERIES.map((series) => (
                    <td key={series} className="admin-table__number" data-label={t(`overview.chart.${series}`)}>
                      {formatCount(entry[series], lang)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
