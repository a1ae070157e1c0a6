import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_RESULT_PAGE } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../../lib/react-i18n';
import { BlobImage } from '../blob-image';
import type { ScanSummary } from '../storage';
import { compareLink, formatScanDate, formatShortDay, metricTitle, placeTitle, reasonsText } from './journal-format';
import { notableChanges } from './journal-summary';
import { changeWords } from './small-multiples';

// Every saved scan as a card, newest first (docs/product/web-app.md#journal): its preview, its day,
// its notable changes against the last scan taken alike (beyond the floor, in the words of
// reading.ts; "no real change" otherwise), a link to its result and a comparison. Deleting is a
// quiet secondary action, confirmed in a dialog that names the scan's day and says it cannot be
// undone (Escape or Cancel keeps it; the focus goes back where it was). A long journal shows its
// latest scans and more on demand.

/** Scans shown at first, and added by each "show more". */
const PAGE_SIZE = 10;

export { compareLink };

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
  const [asking, setAsking] = useState<ScanSummary>();
  const heading = useRef<HTMLHeadingElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  function ask(scan: ScanSummary, button: HTMLElement) {
    opener.current = button;
    setAsking(scan);
    // The dialog moves the focus in (to Cancel, the safe choice); closing it gives it back.
    dialog.current?.showModal();
  }

  function closed() {
    setAsking(undefined);
    if (opener.current?.isConnected) opener.current.focus();
    else heading.current?.focus();
  }

  async function confirm() {
    const scan = asking;
    if (!scan) return;
    const date = formatScanDate(scan.takenAt, lang);
    try {
      await onDelete(scan);
      setFailed(false);
      setDeleted(date);
      // The card is gone with its button: the focus goes to the list's heading.
      opener.current = null;
    } catch {
      setFailed(true);
    }
    dialog.current?.close();
  }

  const askedDate = asking ? formatScanDate(asking.takenAt, lang) : '';

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
        {scans.slice(0, shown).map((scan) => {
          const date = formatScanDate(scan.takenAt, lang);
          const changes = notableChanges(scans, scan);
          const previous = changes && changes.status !== 'first' ? changes.previous : undefined;
          return (
            <li key={scan.id} className="studio-card journal-entry">
              {/* The preview's place is kept while its image is read: the card does not move. */}
              <span className="journal-entry__thumb-box">
                <BlobImage blob={scan.thumbnail} alt="" className="journal-entry__thumb" loading="lazy" />
              </span>
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
                {changes ? (
                  <div className="journal-entry__changes">
                    {changes.status === 'first' ? (
                      <p>{t('journal.timeline.first')}</p>
                    ) : changes.status === 'notComparable' ? (
                      <p>
                        {t('journal.timeline.notComparable', {
                          date: formatShortDay(changes.previous.takenAt, lang),
                          reasons: reasonsText(t, lang, changes),
                        })}
                      </p>
                    ) : changes.real.length === 0 ? (
                      <p>
                        {t('journal.timeline.noRealChange', { date: formatShortDay(changes.previous.takenAt, lang) })}
                      </p>
                    ) : (
                      <>
                        <p>{t('journal.timeline.since', { date: formatShortDay(changes.previous.takenAt, lang) })}</p>
                        <ul>
                          {changes.real.map((reading) => (
                            <li
                              key={`${reading.change.place}-${reading.change.metric}`}
                              className={`journal-entry__change journal-entry__change--${reading.tone ?? reading.kind}`}
                            >
                              {t('journal.timeline.change', {
                                what: `${metricTitle(t, reading.change.metric)} · ${placeTitle(t, reading.change.place)}`,
                                words: changeWords(t, reading),
                              })}
                            </li>
                          ))}
                        </ul>
                      </>
                    )}
                  </div>
                ) : null}
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
                    className="journal-entry__delete"
                    onClick={(event) => ask(scan, event.currentTarget)}
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
      <dialog
        ref={dialog}
        className="journal-dialog"
        aria-labelledby="journal-delete-title"
        aria-describedby="journal-delete-text"
        onClose={closed}
      >
        <h2 id="journal-delete-title">{t('journal.timeline.deleteTitle')}</h2>
        <p id="journal-delete-text">{t('journal.timeline.deleteConfirm', { date: askedDate })}</p>
        <div className="journal-dialog__actions">
          {/* The safe choice comes first: opening the dialog moves the focus to it. */}
          <button type="button" className="button button--secondary" onClick={() => dialog.current?.close()}>
            {t('journal.timeline.deleteCancel')}
          </button>
          <button type="button" className="button button--danger" onClick={() => void confirm()}>
            {t('journal.timeline.deleteConfirmButton')}
          </button>
        </div>
      </dialog>
    </section>
  );
}
