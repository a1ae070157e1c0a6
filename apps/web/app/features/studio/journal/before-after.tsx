import { type CSSProperties, type PointerEvent, useEffect, useId, useRef, useState } from 'react';
import type { ZoneResult } from '@skanova/skin/contract';
import { lastComparableScan, readScans } from '@skanova/shared/studio/reading';
import { useTranslation } from '../../../lib/react-i18n';
import { useObjectUrl } from '../blob-image';
import { type ScanSummary, studioStore } from '../storage';
import { zonePath } from '../zone-outline';
// The zones' outlines and colours: the result's page brought them when every page was one chunk.
import '../zone-outline.css';
import { formatScanDate, formatScanMoment, reasonsText } from './journal-format';

// Before and after (docs/product/web-app.md#journal): two scans' faces one over the other, a divider
// the visitor drags or moves with the keyboard (a native range input: arrow keys, Home, End) — the
// before scan left of it, the after scan right of it. The kept photos when both scans kept theirs,
// else the saved previews; the zones drawn on both with the result's outlines (zone-outline.ts). When
// the two were not taken alike, it says so plainly, with why.

/** The zones' outlines of a scan: only the full record has them (the lists read scans without shapes). */
function useZones(id: string): readonly ZoneResult[] | undefined {
  const [zones, setZones] = useState<{ id: string; zones: readonly ZoneResult[] }>();
  useEffect(() => {
    let live = true;
    studioStore()
      .getScan(id)
      .then(
        (scan) => live && scan && setZones({ id, zones: scan.analysis.zones }),
        () => {},
      );
    return () => {
      live = false;
    };
  }, [id]);
  return zones?.id === id ? zones.zones : undefined;
}

/** The default pair: the newest scan and the last one taken alike (else the one before it). */
export function defaultPair(scans: readonly ScanSummary[]): { before: ScanSummary; after: ScanSummary } | undefined {
  const [after, previous] = scans;
  if (!after || !previous) return undefined;
  return { before: lastComparableScan(scans, after) ?? previous, after };
}

/** The journal's slider, with the visitor's choice of either scan. */
export function JournalBeforeAfter({ scans }: { scans: readonly ScanSummary[] }) {
  const { t, i18n } = useTranslation('studio');
  const id = useId();
  const pair = defaultPair(scans);
  const [chosen, setChosen] = useState<{ before?: string; after?: string }>({});
  if (!pair) return null;
  const find = (scanId: string | undefined) => scans.find((scan) => scan.id === scanId);
  const before = find(chosen.before) ?? pair.before;
  const after = find(chosen.after) ?? pair.after;
  const option = (scan: ScanSummary) => (
    <option key={scan.id} value={scan.id}>
      {formatScanMoment(scan.takenAt, i18n.language)}
    </option>
  );
  return (
    <section className="studio-section before-after" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('journal.slider.title')}</h2>
      <div className="journal-trends__controls compare-choice">
        <div className="form-field">
          <label htmlFor={`${id}-before`}>{t('journal.slider.before')}</label>
          <select
            id={`${id}-before`}
            value={before.id}
            onChange={(event) => setChosen((current) => ({ ...current, before: event.target.value }))}
          >
            {scans.map(option)}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-after`}>{t('journal.slider.after')}</label>
          <select
            id={`${id}-after`}
            value={after.id}
            onChange={(event) => setChosen((current) => ({ ...current, after: event.target.value }))}
          >
            {scans.map(option)}
          </select>
        </div>
      </div>
      {before.id === after.id ? (
        <p className="form-info">{t('journal.slider.same')}</p>
      ) : (
        <BeforeAfter a={before} b={after} />
      )}
    </section>
  );
}

/** The slider between two scans (the older one is "before", whatever the order given). */
export function BeforeAfter({ a, b }: { a: ScanSummary; b: ScanSummary }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const id = useId();
  const [before, after] = a.takenAt <= b.takenAt ? [a, b] : [b, a];
  const [position, setPosition] = useState(50);
  const stage = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const bothPhotos = Boolean(before.photo && after.photo);
  const reading = readScans(before.analysis, after.analysis);
  const alike = reading.sameAnalysis && reading.differences.length === 0;

  function moveTo(event: PointerEvent<HTMLDivElement>) {
    const box = stage.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    setPosition(Math.round(Math.min(100, Math.max(0, ((event.clientX - box.left) / box.width) * 100))));
  }

  return (
    <div className="before-after__body">
      <p className={alike ? 'studio-muted' : 'before-after__warning'}>
        {alike
          ? t('journal.slider.alike')
          : t('journal.slider.notComparable', {
              reasons: reasonsText(t, lang, { otherAnalysis: !reading.sameAnalysis, differences: reading.differences }),
            })}
      </p>
      <div
        ref={stage}
        className="before-after__stage"
        style={{ '--reveal': `${position}%` } as CSSProperties}
        onPointerDown={(event) => {
          dragging.current = true;
          event.currentTarget.setPointerCapture(event.pointerId);
          moveTo(event);
        }}
        onPointerMove={(event) => dragging.current && moveTo(event)}
        onPointerUp={() => (dragging.current = false)}
        onPointerCancel={() => (dragging.current = false)}
      >
        <Face scan={before} bothPhotos={bothPhotos} className="before-after__face" />
        <Face scan={after} bothPhotos={bothPhotos} className="before-after__face before-after__face--after" />
        <div className="before-after__divider" aria-hidden="true" />
        <span className="before-after__tag before-after__tag--before" aria-hidden="true">
          {t('journal.slider.before')}
        </span>
        <span className="before-after__tag before-after__tag--after" aria-hidden="true">
          {t('journal.slider.after')}
        </span>
      </div>
      <div className="form-field before-after__control">
        <label htmlFor={`${id}-range`}>{t('journal.slider.label')}</label>
        <input
          id={`${id}-range`}
          type="range"
          min={0}
          max={100}
          step={1}
          value={position}
          aria-valuetext={t('journal.slider.valueText', { before: position, after: 100 - position })}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setPosition(Number(event.target.value))}
        />
        <p id={`${id}-hint`} className="studio-muted">
          {t('journal.slider.hint')}
        </p>
      </div>
      <p className="studio-muted before-after__source">
        {t(bothPhotos ? 'journal.slider.photos' : 'journal.slider.previews')}
      </p>
    </div>
  );
}

/** One scan's face, framed on its preview's frame, with its zones once its full record is read. */
function Face({ scan, bothPhotos, className }: { scan: ScanSummary; bothPhotos: boolean; className: string }) {
  const { t, i18n } = useTranslation('studio');
  const image = bothPhotos && scan.photo ? scan.photo : scan.thumbnail;
  const url = useObjectUrl(image);
  const zones = useZones(scan.id);
  const frame = scan.thumbnailFrame;
  const place =
    bothPhotos && scan.photo ? { x: 0, y: 0, width: scan.analysis.width, height: scan.analysis.height } : frame;
  const date = formatScanDate(scan.takenAt, i18n.language);
  return (
    <svg
      className={className}
      viewBox={`${frame.x} ${frame.y} ${frame.width} ${frame.height}`}
      preserveAspectRatio="xMidYMid slice"
      role="img"
      aria-label={t(bothPhotos ? 'compare.photoAlt' : 'compare.previewAlt', { date })}
    >
      {url ? (
        <image
          href={url}
          x={place.x}
          y={place.y}
          width={place.width}
          height={place.height}
          preserveAspectRatio="none"
        />
      ) : null}
      {zones
        ?.filter((zone) => zone.outline.some((loop) => loop.length > 2))
        .map((zone) => (
          <path
            key={zone.zone}
            d={zonePath(zone)}
            fillRule="evenodd"
            className={`studio-zone studio-zone--${zone.zone}`}
            vectorEffect="non-scaling-stroke"
          />
        ))}
    </svg>
  );
}
