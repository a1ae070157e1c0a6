import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { METRIC_IDS } from '@skanova/skin/contract';
import type { MetricChange } from '@skanova/skin/trend';
import { readChange } from '@skanova/shared/studio/reading';
import { STUDIO_JOURNAL_PAGE } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../../lib/react-i18n';
import { BeforeAfter } from './before-after';
import type { ScanSummary } from '../storage';
import { formatDayMonth, formatScanMoment, formatScore, metricTitle, placeTitle } from './journal-format';
import { PLACES, changesBetween, countVerdicts, daysBetween, differencesOf, localMoment } from './journal-model';
import { type JournalScans, useJournalScans } from './use-journal-scans';
import { ChangeFigure, WhyNoRealChange } from '../reading-words';
import { DifferencesNote } from './verdict-badge';
import './journal.css';

/** Two saved scans (`?a=…&b=…`): a before/after slider over their photos or previews, every score and its change. */
export default function ComparePage() {
  return <Compare state={useJournalScans().state} />;
}

function Compare({ state }: { state: JournalScans }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const id = useId();

  const header = (
    <header className="journal-header">
      <h1>{t('compare.title')}</h1>
      <p className="studio-lead">{t('compare.lead')}</p>
    </header>
  );
  if (state.status === 'loading')
    return (
      <>
        {header}
        <p className="studio-loading" role="status">
          {t('home.loading')}
        </p>
      </>
    );
  if (state.status === 'failed')
    return (
      <>
        {header}
        <p className="form-error" role="alert">
          {t('home.storageError')}
        </p>
      </>
    );

  const scans = state.scans;
  if (scans.length < 2)
    return (
      <>
        {header}
        <div className="studio-card">
          <p>{t('compare.notEnough')}</p>
          <Link to={STUDIO_JOURNAL_PAGE} className="button button--secondary">
            {t('compare.backToJournal')}
          </Link>
        </div>
      </>
    );

  const find = (key: 'a' | 'b') => scans.find((scan) => scan.id === params.get(key));
  const missing = (['a', 'b'] as const).some((key) => params.has(key) && !find(key));
  // By default the two latest scans, the older one first.
  const a = find('a') ?? scans[1]!;
  const b = find('b') ?? scans[0]!;

  function choose(key: 'a' | 'b', value: string) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('a', key === 'a' ? value : a.id);
        next.set('b', key === 'b' ? value : b.id);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  const option = (scan: ScanSummary) => (
    <option key={scan.id} value={scan.id}>
      {formatScanMoment(scan.takenAt, lang)} · {t(`home.source.${scan.source}`)}
    </option>
  );

  return (
    <>
      {header}
      {missing ? (
        <p className="form-error" role="alert">
          {t('compare.missing')}
        </p>
      ) : null}
      <div className="journal-trends__controls compare-choice">
        <div className="form-field">
          <label htmlFor={`${id}-a`}>{t('compare.first')}</label>
          <select id={`${id}-a`} value={a.id} onChange={(event) => choose('a', event.target.value)}>
            {scans.map(option)}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-b`}>{t('compare.second')}</label>
          <select id={`${id}-b`} value={b.id} onChange={(event) => choose('b', event.target.value)}>
            {scans.map(option)}
          </select>
        </div>
      </div>
      {a.id === b.id ? <p className="form-info">{t('compare.same')}</p> : <Comparison a={a} b={b} />}
      <p className="journal-back">
        <Link to={STUDIO_JOURNAL_PAGE}>{t('compare.backToJournal')}</Link>
      </p>
      <p className="studio-disclaimer journal-disclaimer">{t('journal.disclaimer')}</p>
    </>
  );
}

/** Two scans' photos and every score side by side, each change judged against its floor. */
export function Comparison({ a, b }: { a: ScanSummary; b: ScanSummary }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const { before, after, changes } = changesBetween(a, b);
  const bothPhotos = Boolean(before.photo && after.photo);
  const counts = countVerdicts(changes);
  // Beyond the floor between photos not taken alike: not comparable, with what differed.
  const differences = differencesOf(changes.filter((change) => change.verdict === 'unsure'));
  const withYear = new Date(before.takenAt).getFullYear() !== new Date(after.takenAt).getFullYear();
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const days = daysBetween(
    localMoment(new Date(before.takenAt), timeZone).date,
    localMoment(new Date(after.takenAt), timeZone).date,
  );

  return (
    <>
      <section className="studio-section" aria-labelledby="compare-photos-title">
        <h2 id="compare-photos-title">{bothPhotos ? t('compare.photos') : t('compare.previews')}</h2>
        <BeforeAfter a={before} b={after} />
      </section>

      <section className="studio-section" aria-labelledby="compare-scores-title">
        <h2 id="compare-scores-title">{t('compare.scoresTitle')}</h2>
        {changes.length === 0 ? (
          <p className="form-info">{t('compare.otherVersion')}</p>
        ) : (
          <>
            <p className="compare-summary">
              {t('compare.interval', { count: days })}{' '}
              {t(counts.unsure > 0 ? 'compare.countsUnsure' : 'compare.counts', { total: changes.length, ...counts })}
            </p>
            <WhyNoRealChange />
            <DifferencesNote differences={differences} headingLevel={3} />
            <div className="compare-places">
              {PLACES.map((place) => {
                const rows = METRIC_IDS.map((metric) =>
                  changes.find((change) => change.place === place && change.metric === metric),
                ).filter((change): change is MetricChange => change !== undefined);
                if (rows.length === 0) return null;
                return (
                  <section key={place} className="studio-card compare-place" aria-labelledby={`compare-${place}`}>
                    <h3 id={`compare-${place}`}>{placeTitle(t, place)}</h3>
                    <div className="table-scroll">
                      <table className="compare-table" aria-labelledby={`compare-${place}`}>
                        <thead>
                          <tr>
                            <th scope="col">{t('compare.columns.metric')}</th>
                            <th scope="col" className="journal-number">
                              {formatDayMonth(before.takenAt, lang, withYear)}
                            </th>
                            <th scope="col" className="journal-number">
                              {formatDayMonth(after.takenAt, lang, withYear)}
                            </th>
                            <th scope="col">{t('compare.columns.change')}</th>
                          </tr>
                        </thead>
                        <tbody>
                          {rows.map((change) => (
                            <tr key={change.metric} className={`compare-row compare-row--${readChange(change).kind}`}>
                              <th scope="row">{metricTitle(t, change.metric)}</th>
                              <td className="journal-number">{formatScore(change.before, lang)}</td>
                              <td className="journal-number">{formatScore(change.after, lang)}</td>
                              <td className="compare-change">
                                <ChangeFigure change={change} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </section>
                );
              })}
            </div>
          </>
        )}
      </section>
    </>
  );
}
