import { Link } from 'react-router';
import { STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../../lib/react-i18n';
import { JournalBeforeAfter } from './before-after';
import { JournalSummary } from './journal-summary-section';
import { NextScan } from './next-scan';
import { SmallMultiples } from './small-multiples';
import { Timeline } from './timeline';
import { useJournalScans } from './use-journal-scans';
import './journal.css';

/**
 * The journal: a summary first (this month, weeks in a row, the next scan, what really changed), small
 * trends per zone or per metric, a before/after slider, and every saved scan as a card.
 */
export default function JournalPage() {
  // The scans' read started with the app's chunk, beside the consent check (early-reads.ts).
  return <Journal {...useJournalScans()} />;
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
            <JournalSummary scans={state.scans} />
            <NextScan latestTakenAt={state.scans[0]!.takenAt} />
          </div>
          <SmallMultiples scans={state.scans} />
          <div className="journal-main">
            <JournalBeforeAfter scans={state.scans} />
            <Timeline scans={state.scans} onDelete={(scan) => remove(scan.id)} />
          </div>
        </>
      )}
      <p className="studio-disclaimer journal-disclaimer">{t('journal.disclaimer')}</p>
    </>
  );
}
