import { Link } from 'react-router';
import { STUDIO_JOURNAL_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../../lib/react-i18n';
import type { ScanSummary } from '../storage';
import { formatScore, formatShortDay, metricTitle, placeTitle } from './journal-format';
import { changesBetween, differencesOf, realChanges } from './journal-model';
import { NextScan } from './next-scan';
import { Timeline, compareLink } from './timeline';
import { TrendSection } from './trend-section';
import { useJournalScans } from './use-journal-scans';
import { ChangeFigure, WhyNoRealChange } from '../reading-words';
import { DifferencesNote } from './verdict-badge';
import { StudioAppPage } from '../studio-app-page';
import './journal.css';

/** The journal: every saved scan on a timeline, the trends against the noise floor, the next scan's day. */
export function JournalPage() {
  const { t } = useTranslation('studio');
  // Read at once, beside the consent check (not after it): the journal paints one storage round trip sooner.
  const scans = useJournalScans();
  return (
    <StudioAppPage path={STUDIO_JOURNAL_PAGE} title={t('meta.journalTitle')} className="journal">
      <Journal {...scans} />
    </StudioAppPage>
  );
}

function Journal({ state, remove }: ReturnType<typeof useJournalScans>) {
  const { t } = useTranslation('studio');

  return (
    <>
      <header className="journal-header">
        <h1>{t('journal.title')}</h1>
        <p className="studio-lead">{t('journal.lead')}</p>
      </header>
      {state.status === 'loading' ? (
        <p className="studio-loading" role="status">
          {t('home.loading')}
        </p>
      ) : state.status === 'failed' ? (
        <p className="form-error" role="alert">
          {t('home.storageError')}
        </p>
      ) : state.scans.length === 0 ? (
        <section className="studio-card journal-empty" aria-labelledby="journal-empty-title">
          <h2 id="journal-empty-title">{t('journal.empty.title')}</h2>
          <p>{t('journal.empty.text')}</p>
          <Link to={STUDIO_SCAN_PAGE} className="button button--primary">
            {t('journal.empty.firstScan')}
          </Link>
        </section>
      ) : (
        <>
          <div className="journal-top">
            <NextScan latestTakenAt={state.scans[0]!.takenAt} />
            <SincePrevious scans={state.scans} />
          </div>
          <div className="journal-main">
            <TrendSection scans={state.scans} />
            <Timeline scans={state.scans} onDelete={(scan) => remove(scan.id)} />
          </div>
        </>
      )}
      <p className="studio-disclaimer journal-disclaimer">{t('journal.disclaimer')}</p>
    </>
  );
}

/** How many changes are worth showing on the journal; the comparison page has them all. */
const SHOWN_CHANGES = 5;

/** What really changed between the two latest scans (beyond each score's noise floor), in the words of every screen. */
export function SincePrevious({ scans }: { scans: readonly ScanSummary[] }) {
  const { t } = useTranslation('studio');
  const [latest, previous] = scans;
  return (
    <section className="studio-card journal-since" aria-labelledby="journal-since-title">
      <h2 id="journal-since-title">{t('journal.since.title')}</h2>
      {latest && previous ? (
        <SinceList latest={latest} previous={previous} />
      ) : (
        <p className="studio-muted">{t('journal.since.oneScan')}</p>
      )}
    </section>
  );
}

function SinceList({ latest, previous }: { latest: ScanSummary; previous: ScanSummary }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const { changes } = changesBetween(previous, latest);
  const real = realChanges(changes);
  if (changes.length === 0) return <p className="studio-muted">{t('journal.since.otherVersion')}</p>;
  return (
    <>
      <p>
        {t('journal.since.lead', {
          previous: formatShortDay(previous.takenAt, lang),
          latest: formatShortDay(latest.takenAt, lang),
        })}
      </p>
      {real.length === 0 ? (
        <p className="journal-since__none">{t('journal.since.none', { count: changes.length })}</p>
      ) : (
        <>
          <ul className="journal-since__list">
            {real.slice(0, SHOWN_CHANGES).map((change) => (
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
            {real.length > SHOWN_CHANGES ? `${t('journal.since.more', { count: real.length - SHOWN_CHANGES })} ` : ''}
            {t('journal.since.rest', { count: changes.length - real.length })}
          </p>
          {/* Beyond the floor between photos not taken alike: neither better nor worse, and why. */}
          <DifferencesNote differences={differencesOf(real.filter((change) => change.verdict === 'unsure'))} />
        </>
      )}
      <WhyNoRealChange />
      <Link to={compareLink(previous.id, latest.id)} className="button button--secondary button--small">
        {t('journal.since.compare')}
      </Link>
    </>
  );
}
