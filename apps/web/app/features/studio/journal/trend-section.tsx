import { useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { METRIC_IDS, type MetricId } from '@skanova/skin/contract';
import type { MetricChange, Place } from '@skanova/skin/trend';
import { useTranslation } from '../../../lib/react-i18n';
import {
  dateFormat,
  formatDelta,
  formatFloor,
  formatScanDate,
  formatScore,
  formatShortDay,
  metricTitle,
  placeTitle,
} from './journal-format';
import { type JournalScan, PLACES, type Series, buildSeries, metricsAt } from './journal-model';
import { TrendChart } from './trend-chart';
import { ChangeFigure, verdictWords } from '../reading-words';

// The trends: the visitor picks a place (the whole face or a zone) and a metric; the chart shows its
// scores over the weeks against the noise floor, the two changes that matter (since the previous
// scan, since the first) come with their verdict, and every figure is in a table too. The choice is
// kept in the address (?zone=…&metric=…), so going back and forth keeps it.

/** The time axis's labels: "9 nov." on Mondays, "avr. 2026" on months, "2026" on years. */
const TICK_FORMATS = {
  week: { day: 'numeric', month: 'short' },
  month: { month: 'short', year: 'numeric' },
  year: { year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

function readPlace(value: string | null): Place {
  return (PLACES as readonly string[]).includes(value ?? '') ? (value as Place) : 'overall';
}

function readMetric(value: string | null, place: Place): MetricId {
  const available = metricsAt(place);
  return available.includes(value as MetricId) ? (value as MetricId) : available[0]!;
}

export function TrendSection({ scans }: { scans: readonly JournalScan[] }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const id = useId();
  const [params, setParams] = useSearchParams();
  const place = readPlace(params.get('zone'));
  const metric = readMetric(params.get('metric'), place);
  const series = useMemo(() => buildSeries(scans, place, metric), [scans, place, metric]);

  function choose(nextPlace: Place, nextMetric: MetricId) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('zone', nextPlace);
        next.set('metric', readMetric(nextMetric, nextPlace));
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  const name = `${metricTitle(t, metric)} — ${placeTitle(t, place)}`;
  const first = series.points[0];
  const latest = series.points[series.points.length - 1];

  return (
    <section className="studio-section journal-trends" aria-labelledby="journal-trends-title">
      <h2 id="journal-trends-title">{t('journal.trends.title')}</h2>
      {scans.length < 2 ? (
        <p className="empty-state">{t('journal.trends.oneScan')}</p>
      ) : (
        <>
          <div className="journal-trends__controls">
            <div className="form-field">
              <label htmlFor={`${id}-zone`}>{t('journal.trends.zone')}</label>
              <select id={`${id}-zone`} value={place} onChange={(event) => choose(event.target.value as Place, metric)}>
                {PLACES.map((option) => (
                  <option key={option} value={option}>
                    {placeTitle(t, option)}
                  </option>
                ))}
              </select>
            </div>
            <div className="form-field">
              <label htmlFor={`${id}-metric`}>{t('journal.trends.metric')}</label>
              <select
                id={`${id}-metric`}
                value={metric}
                onChange={(event) => choose(place, event.target.value as MetricId)}
              >
                {METRIC_IDS.filter((option) => metricsAt(place).includes(option)).map((option) => (
                  <option key={option} value={option}>
                    {metricTitle(t, option)}
                  </option>
                ))}
              </select>
            </div>
          </div>

          <div className="studio-card journal-trend">
            {/* Said again when the visitor picks another zone or metric. */}
            <h3 aria-live="polite">{name}</h3>
            {series.points.length < 2 ? (
              <p className="studio-muted">{t('journal.trends.notEnough')}</p>
            ) : (
              <>
                <dl className="journal-headline">
                  {series.sincePrevious ? (
                    <Headline
                      label={t('journal.trends.sincePrevious', {
                        date: formatShortDay(series.points[series.points.length - 2]!.takenAt, lang),
                      })}
                      change={series.sincePrevious}
                    />
                  ) : null}
                  {series.sinceFirst && series.points.length > 2 ? (
                    <Headline
                      label={t('journal.trends.sinceFirst', { date: formatShortDay(first!.takenAt, lang) })}
                      change={series.sinceFirst}
                    />
                  ) : null}
                </dl>
                <p className="journal-floor">
                  {t('journal.trends.floor', {
                    floor: formatFloor(series.floor, lang),
                    count: series.floor,
                  })}
                </p>
                <TrendChart
                  series={series}
                  title={t('journal.trends.chartTitle', { name })}
                  summary={t('journal.trends.summary', {
                    count: series.points.length,
                    first: formatShortDay(first!.takenAt, lang),
                    last: formatShortDay(latest!.takenAt, lang),
                    value: formatScore(latest!.value, lang),
                    delta: formatDelta(series.sinceFirst!.delta, lang),
                    verdict: verdictWords(t, series.sinceFirst!),
                    floor: formatFloor(series.floor, lang),
                  })}
                  formatTick={(time, unit) => dateFormat(lang, TICK_FORMATS[unit]).format(time)}
                  lang={lang}
                />
                <ChartLegend />
                <TrendTable series={series} name={name} />
              </>
            )}
            {series.leftOut > 0 ? (
              <p className="studio-muted">{t('journal.trends.leftOut', { count: series.leftOut })}</p>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

function Headline({ label, change }: { label: string; change: MetricChange }) {
  const { t, i18n } = useTranslation('studio');
  return (
    <div className="journal-headline__item">
      <dt>{label}</dt>
      <dd>
        <span className="journal-headline__scores">
          {formatScore(change.before, i18n.language)} → {formatScore(change.after, i18n.language)}
        </span>{' '}
        <ChangeFigure change={change} afterScores />
        {/* Beyond the floor between photos not taken alike: what differed, in words. */}
        {change.verdict === 'unsure'
          ? change.differences.map((difference) => (
              <span key={difference} className="journal-headline__why">
                {t(`journal.differences.${difference}`)}
              </span>
            ))
          : null}
      </dd>
    </div>
  );
}

/** What the marks and the band mean (the marks' shapes repeat their colours). */
function ChartLegend() {
  const { t } = useTranslation('studio');
  return (
    <ul className="trend-legend">
      <li>
        <svg className="trend-legend__key" viewBox="0 0 20 12" aria-hidden="true">
          <rect className="trend-chart__band" x="0" y="0" width="20" height="12" />
        </svg>
        {t('journal.legend.band')}
      </li>
      <li>
        <svg className="trend-legend__key" viewBox="0 0 20 12" aria-hidden="true">
          <circle className="trend-chart__mark trend-chart__mark--stable" cx="10" cy="6" r="4" />
        </svg>
        {t('journal.legend.stable')}
      </li>
      <li>
        <svg className="trend-legend__key" viewBox="0 0 20 12" aria-hidden="true">
          <path className="trend-chart__mark trend-chart__mark--better" d="M10 1L15 11L5 11Z" />
        </svg>
        {t('journal.legend.better')}
      </li>
      <li>
        <svg className="trend-legend__key" viewBox="0 0 20 12" aria-hidden="true">
          <path className="trend-chart__mark trend-chart__mark--worse" d="M10 1L15 11L5 11Z" />
        </svg>
        {t('journal.legend.worse')}
      </li>
      <li>
        <svg className="trend-legend__key" viewBox="0 0 20 12" aria-hidden="true">
          <path className="trend-chart__mark trend-chart__mark--unsure" d="M10 1L15 11L5 11Z" />
        </svg>
        {t('journal.legend.unsure')}
      </li>
    </ul>
  );
}

/** Every scan's figure, newest first, behind a disclosure (its rows are written when it opens). */
function TrendTable({ series, name }: { series: Series; name: string }) {
  const { t, i18n } = useTranslation('studio');
  const [open, setOpen] = useState(false);
  const rows = open ? [...series.points].reverse() : [];
  return (
    <details className="trend-data" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('journal.trends.showTable')}</summary>
      {open ? (
        <div className="table-scroll">
          <table className="trend-data__table">
            <caption className="visually-hidden">{t('journal.trends.tableCaption', { name })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('journal.trends.columns.date')}</th>
                <th scope="col" className="journal-number">
                  {t('journal.trends.columns.score')}
                </th>
                <th scope="col">{t('journal.trends.columns.change')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((point) => (
                <tr key={point.id}>
                  <th scope="row">{formatScanDate(point.takenAt, i18n.language)}</th>
                  <td className="journal-number">{formatScore(point.value, i18n.language)}</td>
                  <td>{point.change ? <ChangeFigure change={point.change} /> : t('journal.trends.firstScan')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}
