import { type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router';
import { METRIC_IDS, type MetricId } from '@skanova/skin/contract';
import type { Place, Verdict } from '@skanova/skin/trend';
import type { ChangeReading } from '@skanova/shared/studio/reading';
import { useTranslation } from '../../../lib/react-i18n';
import { verdictWords } from '../reading-words';
import { formatDayMonth, formatScore, formatShortDay, metricTitle, placeTitle } from './journal-format';
import { type JournalScan, PLACES, type Series, scoreAxis } from './journal-model';
import { type MultiplesBy, type SmallMultiple, smallMultiples } from './journal-summary';

// Small multiples (docs/product/web-app.md#journal): one small trend per zone for the chosen metric,
// or one per metric for the chosen zone. Each is an SVG drawn in a fixed viewBox that scales with its
// column (nothing is measured, so nothing moves while it draws): the band of ± the noise floor around
// the first scan of the series (inside it, no real change since then), the line through the scans,
// and each scan's mark by how it moved since the one before — a hollow circle for no real change, a
// triangle pointing the way it moved, filled green or red for better or worse, hollow and grey when
// not comparable. Each is a figure with a title and a text alternative in the words of reading.ts.
// The choice is kept in the address (?by=zone&metric=… or ?by=metric&zone=…).

type Translate = (key: string, options?: Record<string, unknown>) => string;

const VIEW = { width: 200, height: 110, left: 24, right: 8, top: 10, bottom: 10, mark: 4 };

function readBy(value: string | null): MultiplesBy {
  return value === 'metric' ? 'metric' : 'zone';
}

function readMetric(value: string | null): MetricId {
  return (METRIC_IDS as readonly string[]).includes(value ?? '') ? (value as MetricId) : METRIC_IDS[0]!;
}

function readPlace(value: string | null): Place {
  return (PLACES as readonly string[]).includes(value ?? '') ? (value as Place) : 'overall';
}

/** A change's words: "more redness, worse", "no real change", "not comparable (maybe the lamp)". */
export function changeWords(t: Translate, reading: ChangeReading): string {
  const verdict = verdictWords(t, reading.change);
  return reading.movementKey && reading.kind !== 'noRealChange' ? `${t(reading.movementKey)}, ${verdict}` : verdict;
}

/** The text alternative of one small trend. */
export function multipleSummary(t: Translate, lang: string, multiple: SmallMultiple): string {
  const { points } = multiple.series;
  const latest = points[points.length - 1]!;
  if (!multiple.sinceFirst) return t('journal.multiples.summaryOne', { value: formatScore(latest.value, lang) });
  return t('journal.multiples.summary', {
    count: points.length,
    first: formatShortDay(points[0]!.takenAt, lang),
    last: formatShortDay(latest.takenAt, lang),
    value: formatScore(latest.value, lang),
    words: changeWords(t, multiple.sinceFirst),
  });
}

export function SmallMultiples({ scans }: { scans: readonly JournalScan[] }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const id = useId();
  const [params, setParams] = useSearchParams();
  const by = readBy(params.get('by'));
  const metric = readMetric(params.get('metric'));
  const place = readPlace(params.get('zone'));
  const multiples = smallMultiples(scans, by === 'zone' ? { by, metric } : { by, place });

  function choose(change: Record<string, string>) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(change)) next.set(key, value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  return (
    <section className="studio-section journal-trends" aria-labelledby="journal-trends-title">
      <h2 id="journal-trends-title">{t('journal.trends.title')}</h2>
      <div className="journal-trends__controls">
        <fieldset className="journal-by">
          <legend>{t('journal.multiples.by')}</legend>
          {(['zone', 'metric'] as const).map((option) => (
            <label key={option} className="choice">
              <input
                type="radio"
                name={`${id}-by`}
                value={option}
                checked={by === option}
                onChange={() => choose({ by: option })}
              />
              <span>{t(option === 'zone' ? 'journal.multiples.byZone' : 'journal.multiples.byMetric')}</span>
            </label>
          ))}
        </fieldset>
        {by === 'zone' ? (
          <div className="form-field">
            <label htmlFor={`${id}-metric`}>{t('journal.trends.metric')}</label>
            <select id={`${id}-metric`} value={metric} onChange={(event) => choose({ metric: event.target.value })}>
              {METRIC_IDS.map((option) => (
                <option key={option} value={option}>
                  {metricTitle(t, option)}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div className="form-field">
            <label htmlFor={`${id}-zone`}>{t('journal.trends.zone')}</label>
            <select id={`${id}-zone`} value={place} onChange={(event) => choose({ zone: event.target.value })}>
              {PLACES.map((option) => (
                <option key={option} value={option}>
                  {placeTitle(t, option)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {scans.length < 2 ? <p className="empty-state">{t('journal.trends.oneScan')}</p> : null}
      <ul className="journal-multiples" aria-live="polite">
        {multiples.map((multiple) => {
          const name = by === 'zone' ? placeTitle(t, multiple.series.place) : metricTitle(t, multiple.series.metric);
          return (
            <li key={`${multiple.series.place}-${multiple.series.metric}`}>
              <SmallTrend multiple={multiple} name={name} summary={multipleSummary(t, lang, multiple)} />
            </li>
          );
        })}
      </ul>
      <ChartLegend />
    </section>
  );
}

/** A scan's mark: how it moved since the previous scan, by shape as well as colour. */
function Mark({
  x,
  y,
  verdict,
  up,
  size,
}: {
  x: number;
  y: number;
  verdict: Verdict | 'first';
  up: boolean;
  size: number;
}) {
  if (verdict === 'first' || verdict === 'stable')
    return <circle className={`trend-chart__mark trend-chart__mark--${verdict}`} cx={x} cy={y} r={size - 1} />;
  const tip = up ? y - size - 1 : y + size + 1;
  const base = up ? y + size - 1 : y - size + 1;
  return (
    <path
      className={`trend-chart__mark trend-chart__mark--${verdict}`}
      d={`M${x} ${tip}L${x + size} ${base}L${x - size} ${base}Z`}
    />
  );
}

function SmallTrend({ multiple, name, summary }: { multiple: SmallMultiple; name: string; summary: string }) {
  const { t, i18n } = useTranslation('studio');
  const id = useId();
  const { series, sinceFirst } = multiple;
  return (
    <figure className="journal-multiple" aria-labelledby={`${id}-name`}>
      <figcaption>
        <h3 id={`${id}-name`} className="journal-multiple__name">
          {name}
        </h3>
        <p className="journal-multiple__reading">
          <span className="journal-multiple__value">
            {formatScore(series.points[series.points.length - 1]!.value, i18n.language)}
          </span>{' '}
          {sinceFirst ? (
            <>
              {/* What the words measure from: the first scan of the series, not the last comparable one. */}
              <span className="journal-multiple__since">
                {t('journal.multiples.since', {
                  date: formatDayMonth(
                    series.points[0]!.takenAt,
                    i18n.language,
                    new Date(series.points[0]!.takenAt).getFullYear() !==
                      new Date(series.points[series.points.length - 1]!.takenAt).getFullYear(),
                  ),
                })}
              </span>{' '}
              <span
                className={`journal-multiple__words journal-multiple__words--${sinceFirst.tone ?? sinceFirst.kind}`}
              >
                {changeWords(t, sinceFirst)}
              </span>
            </>
          ) : null}
        </p>
      </figcaption>
      <TrendSvg series={series} label={`${name}. ${summary}`} />
    </figure>
  );
}

/** The small chart: a fixed viewBox, scaled to its column's width. */
function TrendSvg({ series, label }: { series: Series; label: string }) {
  const { width, height, left, right, top, bottom } = VIEW;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const points = series.points;
  const first = points[0]!;
  const times = points.map((point) => Date.parse(point.takenAt));
  const axis = scoreAxis([
    ...points.map((point) => point.value),
    first.value - series.floor,
    first.value + series.floor,
  ]);
  const start = times[0]!;
  const span = times[times.length - 1]! - start;
  const xOf = (time: number) =>
    span === 0 ? left + plotWidth / 2 : left + plotWidth * (0.05 + (0.9 * (time - start)) / span);
  const yOf = (value: number) => top + plotHeight * (1 - (value - axis.min) / (axis.max - axis.min));
  const bandTop = yOf(Math.min(axis.max, first.value + series.floor));
  const bandBottom = yOf(Math.max(axis.min, first.value - series.floor));
  const spacing = points.length > 1 ? (plotWidth * 0.9) / (points.length - 1) : plotWidth;
  const size = Math.max(2, Math.min(VIEW.mark, spacing * 0.6));
  return (
    <svg
      className="trend-chart trend-chart--small"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      preserveAspectRatio="xMidYMid meet"
    >
      {[axis.min, axis.max].map((value) => (
        <g key={value}>
          <line
            className={value === axis.min ? 'trend-chart__axis' : 'trend-chart__grid'}
            x1={left}
            x2={width - right}
            y1={yOf(value)}
            y2={yOf(value)}
          />
          <text className="trend-chart__tick" x={left - 4} y={yOf(value) + 4} textAnchor="end">
            {value}
          </text>
        </g>
      ))}
      <rect
        className="trend-chart__band"
        x={left}
        y={bandTop}
        width={plotWidth}
        height={Math.max(1, bandBottom - bandTop)}
      />
      {points.length > 1 ? (
        <polyline
          className="trend-chart__line"
          points={points
            .map((point, index) => `${xOf(times[index]!).toFixed(1)},${yOf(point.value).toFixed(1)}`)
            .join(' ')}
        />
      ) : null}
      {points.map((point, index) => (
        <Mark
          key={point.id}
          x={xOf(times[index]!)}
          y={yOf(point.value)}
          verdict={point.change?.verdict ?? 'first'}
          up={(point.change?.delta ?? 0) > 0}
          size={size}
        />
      ))}
    </svg>
  );
}

/** What the marks and the band mean (the marks' shapes repeat their colours). */
function ChartLegend() {
  const { t } = useTranslation('studio');
  const key = (shape: ReactNode) => (
    <svg className="trend-legend__key" viewBox="0 0 20 12" aria-hidden="true">
      {shape}
    </svg>
  );
  return (
    <ul className="trend-legend">
      <li>
        {key(<rect className="trend-chart__band" x="0" y="0" width="20" height="12" />)}
        {t('journal.legend.band')}
      </li>
      <li>
        {key(<circle className="trend-chart__mark trend-chart__mark--stable" cx="10" cy="6" r="4" />)}
        {t('journal.legend.stable')}
      </li>
      <li>
        {key(<path className="trend-chart__mark trend-chart__mark--better" d="M10 1L15 11L5 11Z" />)}
        {t('journal.legend.better')}
      </li>
      <li>
        {key(<path className="trend-chart__mark trend-chart__mark--worse" d="M10 1L15 11L5 11Z" />)}
        {t('journal.legend.worse')}
      </li>
      <li>
        {key(<path className="trend-chart__mark trend-chart__mark--unsure" d="M10 1L15 11L5 11Z" />)}
        {t('journal.legend.unsure')}
      </li>
    </ul>
  );
}
