import { Link } from 'react-router';
import { useTranslation } from '../../../lib/react-i18n';
import type { ScanSummary } from '../storage';
import { ChangeFigure, WhyNoRealChange } from '../reading-words';
import {
  compareLink,
  formatCalendarDate,
  formatScore,
  formatShortDay,
  metricTitle,
  placeTitle,
  reasonsText,
  visitorTimeZone,
} from './journal-format';
import { nextScanDue } from './journal-model';
import { type LatestChanges, latestChanges, scansThisMonth, weeksInARow } from './journal-summary';

// The journal's first screen (docs/product/web-app.md#journal): scans this month, weeks in a row, the
// next scan's day, and what really changed between the newest scan and the last one taken alike — or
// "no real change", or "not comparable, because …" when that is the truth. The noise floor is
// explained once, in "Why 'no real change'?", not here.

/** How many real changes the summary lists; the comparison has them all. */
const SHOWN_CHANGES = 4;

export function JournalSummary({ scans }: { scans: readonly ScanSummary[] }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const now = new Date();
  const timeZone = visitorTimeZone();
  const month = scansThisMonth(scans, now, timeZone);
  const weeks = weeksInARow(scans, now, timeZone);
  const latest = scans[0]!;
  const next = nextScanDue(latest.takenAt, now, timeZone);
  const due = formatCalendarDate(next.due, lang, next.due.year !== next.today.year);
  const changes = latestChanges(scans);

  return (
    <section className="studio-card journal-summary" aria-labelledby="journal-summary-title">
      <h2 id="journal-summary-title">{t('journal.summary.title')}</h2>
      <dl className="journal-stats">
        <div className="journal-stat">
          <dt>{t('journal.summary.thisMonth')}</dt>
          <dd>{t('journal.summary.scans', { count: month })}</dd>
        </div>
        <div className="journal-stat">
          <dt>{t('journal.summary.weeks')}</dt>
          <dd title={t('journal.summary.weeksHint')}>
            {weeks === 0 ? t('journal.summary.weeksNone') : t('journal.summary.weeksCount', { count: weeks })}
          </dd>
        </div>
        <div className={`journal-stat journal-stat--${next.status}`}>
          <dt>{t('journal.summary.next')}</dt>
          <dd>
            {next.status === 'today'
              ? t('journal.summary.nextToday')
              : next.status === 'overdue'
                ? t('journal.summary.nextOverdue', { date: due })
                : due}
          </dd>
        </div>
      </dl>
      <h3 className="journal-summary__changes">{t('journal.summary.changes')}</h3>
      {changes ? <Changes changes={changes} /> : null}
    </section>
  );
}

function Changes({ changes }: { changes: LatestChanges }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  if (changes.status === 'first') return <p>{t('journal.summary.first')}</p>;
  const previous = formatShortDay(changes.previous.takenAt, lang);
  const link = (
    <Link to={compareLink(changes.previous.id, changes.latest.id)} className="button button--secondary button--small">
      {t('journal.summary.compare')}
    </Link>
  );
  if (changes.status === 'notComparable')
    return (
      <>
        <p className="journal-summary__verdict">
          {t('journal.summary.notComparable', { previous, reasons: reasonsText(t, lang, changes) })}
        </p>
        {link}
      </>
    );
  const lead = t('journal.summary.lead', { previous, latest: formatShortDay(changes.latest.takenAt, lang) });
  return (
    <>
      <p>{lead}</p>
      {changes.real.length === 0 ? (
        <p className="journal-summary__verdict">{t('journal.summary.noRealChange')}</p>
      ) : (
        <>
          <ul className="journal-since__list">
            {changes.real.slice(0, SHOWN_CHANGES).map(({ change }) => (
              <li key={`${change.place}-${change.metric}`}>
                <span className="journal-since__what">
                  {metricTitle(t, change.metric)} · {placeTitle(t, change.place)}
                </span>{' '}
                <span className="journal-since__scores">
                  {formatScore(change.before, lang)} → {formatScore(change.after, lang)}
                </span>{' '}
                <ChangeFigure change={change} afterScores />
              </li>
            ))}
          </ul>
          <p className="studio-muted">
            {changes.real.length > SHOWN_CHANGES
              ? `${t('journal.since.more', { count: changes.real.length - SHOWN_CHANGES })} `
              : ''}
            {t('journal.since.rest', { count: changes.total - changes.real.length })}
          </p>
        </>
      )}
      <WhyNoRealChange />
      {link}
    </>
  );
}
