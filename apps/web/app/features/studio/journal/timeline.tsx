import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_COMPARE_PAGE, STUDIO_RESULT_PAGE } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../../lib/react-i18n';
import { BlobImage } from '../blob-image';
import type { ScanSummary } from '../storage';
import { formatScanDate } from './journal-format';

// Every saved scan, newest first: its preview, day and source, a link to the saved result, a
// comparison with the scan before it, and its deletion (confirmed first). A long journal shows its
// latest scans and more on demand.

/** Scans shown at first, and added by each "show more". */
const PAGE_SIZE = 10;

export function compareLink(a: string, b: string): string {
  return `${STUDIO_COMPARE_PAGE}?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

export function Timeline({
  scans,
  onDelete,
}: {
  /** Newest first. */
  scans: readonly ScanSummary[];
  onDelete: (scan: ScanSummary) => Promise<void>;
}) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const [shown, setShown] = useState(PAGE_SIZE);
  const [deleted, setDeleted] = useState<string>();
  const [failed, setFailed] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  async function remove(scan: ScanSummary) {
    const date = formatScanDate(scan.takenAt, lang);
    if (!window.confirm(t('journal.timeline.deleteConfirm', { date }))) return;
    try {
      await onDelete(scan);
      setFailed(false);
      setDeleted(date);
    } catch {
      setFailed(true);
    }
    // The button is gone with its scan: the focus goes back to the list's heading.
    heading.current?.focus();
  }

  return (
    <section className="studio-section journal-timeline" aria-labelledby="journal-timeline-title">
      <h2 id="journal-timeline-title" ref={heading} tabIndex={-1}>
        {t('journal.timeline.title')}
      </h2>
      <div role="status">
        {deleted ? <p className="form-success">{t('journal.timeline.deleted', { date: deleted })}</p> : null}
      </div>
      {failed ? (
        <p className="form-error" role="alert">
          {t('journal.timeline.deleteFailed')}
        </p>
      ) : null}
      <p className="studio-muted">{t('journal.timeline.count', { count: scans.length })}</p>
      <ol className="journal-timeline__list">
        {scans.slice(0, shown).map((scan, index) => {
          const date = formatScanDate(scan.takenAt, lang);
          const previous = scans[index + 1];
          return (
            <li key={scan.id} className="journal-entry">
              <BlobImage blob={scan.thumbnail} alt="" className="journal-entry__thumb" loading="lazy" />
              <div className="journal-entry__body">
                <h3 className="journal-entry__title">
                  <Link to={`${STUDIO_RESULT_PAGE}?id=${encodeURIComponent(scan.id)}`}>
                    {t('home.scanOf', { date })}
                  </Link>
                </h3>
                <p className="studio-muted journal-entry__meta">
                  {t(`home.source.${scan.source}`)} ·{' '}
                  {scan.photo ? t('journal.timeline.photoKept') : t('journal.timeline.previewOnly')}
                </p>
                <div className="journal-entry__actions">
                  {previous ? (
                    <Link to={compareLink(previous.id, scan.id)} className="button button--ghost button--small">
                      {t('journal.timeline.compare')}
                      <span className="visually-hidden">
                        {' '}
                        {t('journal.timeline.compareWhich', { date, previous: formatScanDate(previous.takenAt, lang) })}
                      </span>
                    </Link>
                  ) : null}
                  <button
                    type="button"
                    className="button button--ghost button--small journal-entry__delete"
                    onClick={() => void remove(scan)}
                  >
                    {t('journal.timeline.delete')}
                    <span className="visually-hidden"> {t('journal.timeline.deleteWhich', { date })}</span>
                  </button>
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      {shown < scans.length ? (
        <button
          type="button"
          className="button button--secondary journal-timeline__more"
          onClick={() => setShown((count) => count + PAGE_SIZE)}
        >
          {t('journal.timeline.more', { count: Math.min(PAGE_SIZE, scans.length - shown) })}
        </button>
      ) : null}
    </section>
  );
}
