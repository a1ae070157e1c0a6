import { type ChangeEvent, useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_HOME } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../../lib/react-i18n';
import { siteConfig } from '../../../lib/site-config';
import { formatScanDate } from '../format-date';
import { GetMobileApp } from '../get-app/get-mobile-app';
import { type ImportMode, type ImportOutcome, type StudioSnapshot, studioStore } from '../storage';
import { rememberConsentHint } from '../returning-hint';
import {
  EXPORT_LIMITS,
  type ImportProblem,
  type ImportedData,
  buildExportFile,
  exportFileName,
  readExportFile,
} from './export-file';
import './data.css';

// "Your data" (docs/product/web-app.md#your-data): what the device holds, export to a file, import from one, delete
// everything. The file is made and read in the browser; nothing on this page talks to the server.
// The timings are left as performance entries (`studio-export`, `studio-import-read`,
// `studio-import-write`) for the benchmark and the browser's own tools.

/**
 * Saves the file as a link with `download` does (no data: URL, nothing the CSP objects to). The site's
 * `lib/download` does the same but is bundled with the signed-in pages' tools, which the app does not need.
 */
function saveFile(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; the browser may still be reading it for a moment.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Leaves a timing for the benchmark and the browser's tools; a browser without User Timing level 3 just skips it. */
function recordTiming(name: string, start: number, detail: Record<string, number>) {
  try {
    performance.measure(name, { start, detail });
  } catch {
    // not measured
  }
}

/** The visitor's data: export, import, delete everything. */
export default function DataPage() {
  const [deleted, setDeleted] = useState(false);
  // Past the consent check (studio-pages.tsx), whose answer stays "given" on this page once read: after
  // "delete everything" the notice stays, instead of the consent.
  return deleted ? <DeletedNotice /> : <DataSections onDeleted={() => setDeleted(true)} />;
}

function DeletedNotice() {
  const { t } = useTranslation('studio');
  return (
    <>
      <h1>{t('data.title')}</h1>
      <div className="form-success" role="status">
        <p>{t('data.delete.done')}</p>
        <p>{t('data.delete.doneNext')}</p>
      </div>
      <Link to={STUDIO_HOME} className="button button--primary">
        {t('data.delete.toHome')}
      </Link>
    </>
  );
}

function DataSections({ onDeleted }: { onDeleted: () => void }) {
  const { t } = useTranslation('studio');
  const [snapshot, setSnapshot] = useState<StudioSnapshot | null>(null);
  const [storageFailed, setStorageFailed] = useState(false);

  const refresh = useCallback(() => {
    studioStore()
      .readEverything()
      .then(setSnapshot, () => setStorageFailed(true));
  }, []);
  useEffect(refresh, [refresh]);

  return (
    <>
      <h1>{t('data.title')}</h1>
      <p className="studio-lead">{t('data.lead')}</p>
      {storageFailed ? (
        <p className="form-error" role="alert">
          {t('home.storageError')}
        </p>
      ) : snapshot === null ? (
        <p className="studio-loading" role="status">
          {t('home.loading')}
        </p>
      ) : (
        <>
          <Inventory snapshot={snapshot} />
          <div className="studio-data__grid">
            <ExportSection />
            <ImportSection snapshot={snapshot} onImported={refresh} />
          </div>
          <DeleteSection onDeleted={onDeleted} />
        </>
      )}
      {/* After what is read from the device: shown earlier, it would jump down when that arrives. */}
      {storageFailed || snapshot !== null ? <GetMobileApp /> : null}
    </>
  );
}

function Inventory({ snapshot }: { snapshot: StudioSnapshot }) {
  const { t, i18n } = useTranslation('studio');
  const photos = snapshot.scans.filter((scan) => scan.photo).length;
  const consent = snapshot.consents[0];
  return (
    <section className="studio-section studio-data__inventory" aria-labelledby="data-inventory-title">
      <h2 id="data-inventory-title">{t('data.summaryTitle')}</h2>
      <ul>
        <li>
          {t('data.summaryScans', { count: snapshot.scans.length })}
          {snapshot.scans.length > 0 ? ` — ${t('data.summaryPhotos', { count: photos })}` : null}
        </li>
        <li>
          {snapshot.profile
            ? t('data.summaryProfile', { date: formatScanDate(snapshot.profile.updatedAt, i18n.language) })
            : t('data.summaryNoProfile')}
        </li>
        {consent ? <li>{t('data.summaryConsent', { date: formatScanDate(consent.givenAt, i18n.language) })}</li> : null}
      </ul>
    </section>
  );
}

/** A size for people: "840 kB", "12.4 MB". */
function formatBytes(bytes: number, lang: string): string {
  const [value, unit] = bytes < 1_000_000 ? [bytes / 1000, 'kilobyte'] : [bytes / 1_000_000, 'megabyte'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

type ExportState =
  | { step: 'idle' | 'working' | 'failed' }
  | { step: 'done'; name: string; size: number };

function ExportSection() {
  const { t, i18n } = useTranslation('studio');
  const [state, setState] = useState<ExportState>({ step: 'idle' });

  const exportNow = async () => {
    setState({ step: 'working' });
    try {
      const start = performance.now();
      // Read again at the moment of the export: the page's copy may be older than another tab's save.
      const now = new Date();
      const file = await buildExportFile(await studioStore().readEverything(), now);
      const name = exportFileName(siteConfig.brandName, now);
      saveFile(file, name);
      recordTiming('studio-export', start, { bytes: file.size });
      setState({ step: 'done', name, size: file.size });
    } catch {
      setState({ step: 'failed' });
    }
  };

  return (
    <section className="studio-card studio-data__card" aria-labelledby="data-export-title">
      <h2 id="data-export-title">{t('data.export.title')}</h2>
      <p>{t('data.export.text')}</p>
      <p className="studio-muted">{t('data.export.warning')}</p>
      <button
        type="button"
        className="button button--primary"
        disabled={state.step === 'working'}
        onClick={() => void exportNow()}
      >
        {t('data.export.action')}
      </button>
      <div role="status" className="studio-data__status">
        {state.step === 'working' ? <p className="studio-muted">{t('data.export.working')}</p> : null}
        {state.step === 'done' ? (
          <p className="form-success">
            {t('data.export.done', { name: state.name, size: formatBytes(state.size, i18n.language) })}
          </p>
        ) : null}
      </div>
      {state.step === 'failed' ? (
        <p className="form-error" role="alert">
          {t('data.export.failed')}
        </p>
      ) : null}
    </section>
  );
}

type ImportState =
  | { step: 'choose' }
  | { step: 'reading' }
  | { step: 'refused'; problem: ImportProblem }
  | { step: 'ready'; data: ImportedData }
  | { step: 'importing' }
  | { step: 'done'; outcome: ImportOutcome }
  | { step: 'failed' };

function ImportSection({ snapshot, onImported }: { snapshot: StudioSnapshot; onImported: () => void }) {
  const { t } = useTranslation('studio');
  const inputId = useId();
  const [state, setState] = useState<ImportState>({ step: 'choose' });
  const [mode, setMode] = useState<ImportMode>('merge');

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file can be chosen again (after a refusal, or to import it twice).
    event.target.value = '';
    if (!file) return;
    setState({ step: 'reading' });
    setMode('merge');
    const start = performance.now();
    const result = await readExportFile(file);
    recordTiming('studio-import-read', start, { bytes: file.size });
    setState(result.ok ? { step: 'ready', data: result.data } : { step: 'refused', problem: result.problem });
  };

  const importNow = async (data: ImportedData) => {
    setState({ step: 'importing' });
    try {
      const start = performance.now();
      const outcome = await studioStore().importEverything(data, mode);
      recordTiming('studio-import-write', start, { scans: data.scans.length });
      setState({ step: 'done', outcome });
      onImported();
    } catch {
      setState({ step: 'failed' });
    }
  };

  const busy = state.step === 'reading' || state.step === 'importing';
  return (
    <section className="studio-card studio-data__card" aria-labelledby="data-import-title">
      <h2 id="data-import-title">{t('data.import.title')}</h2>
      <p>{t('data.import.text')}</p>
      {state.step === 'ready' ? (
        <ImportChoice
          data={state.data}
          snapshot={snapshot}
          mode={mode}
          onMode={setMode}
          onImport={() => void importNow(state.data)}
          onCancel={() => setState({ step: 'choose' })}
        />
      ) : (
        <div className="studio-data__file">
          <input
            id={inputId}
            className="visually-hidden studio-data__input"
            type="file"
            accept=".json,application/json"
            disabled={busy}
            onChange={(event) => void choose(event)}
          />
          <label htmlFor={inputId} className={`button button--secondary${busy ? ' studio-data__label--busy' : ''}`}>
            {t('data.import.choose')}
          </label>
        </div>
      )}
      <div role="status" className="studio-data__status">
        {state.step === 'reading' ? <p className="studio-muted">{t('data.import.reading')}</p> : null}
        {state.step === 'importing' ? <p className="studio-muted">{t('data.import.working')}</p> : null}
        {state.step === 'done' ? <ImportDone outcome={state.outcome} /> : null}
      </div>
      {state.step === 'refused' ? <ImportRefusal problem={state.problem} /> : null}
      {state.step === 'failed' ? (
        <p className="form-error" role="alert">
          {t('data.import.storageFailed')}
        </p>
      ) : null}
    </section>
  );
}

function ImportChoice(props: {
  data: ImportedData;
  snapshot: StudioSnapshot;
  mode: ImportMode;
  onMode: (mode: ImportMode) => void;
  onImport: () => void;
  onCancel: () => void;
}) {
  const { data, snapshot, mode, onMode } = props;
  const { t, i18n } = useTranslation('studio');
  const date = (iso: string) => formatScanDate(iso, i18n.language);
  const photos = data.scans.filter((scan) => scan.photo).length;
  const first = data.scans[0];
  const last = data.scans.at(-1);
  const deviceHasData = snapshot.scans.length > 0 || snapshot.profile !== undefined;
  return (
    <div className="studio-data__choice">
      <div className="form-info">
        <p>
          {t('data.import.fileSummary', {
            count: data.scans.length,
            date: date(data.exportedAt),
            photos: t('data.import.filePhotos', { count: photos }),
          })}
          {first && last && data.scans.length > 1
            ? ` ${t('data.import.fileRange', { from: date(first.takenAt), to: date(last.takenAt) })}`
            : null}
        </p>
        {data.profile ? <p>{t('data.import.fileProfile', { date: date(data.profile.updatedAt) })}</p> : null}
      </div>
      {deviceHasData ? (
        <fieldset className="studio-data__modes">
          <legend>
            {snapshot.scans.length > 0
              ? t('data.import.modeLegend', { count: snapshot.scans.length })
              : t('data.import.modeLegendProfileOnly')}
          </legend>
          {(['merge', 'replace'] as const).map((option) => (
            <div key={option} className="studio-data__mode">
              <label className="choice">
                <input
                  type="radio"
                  name="import-mode"
                  value={option}
                  checked={mode === option}
                  aria-describedby={`import-mode-${option}-hint`}
                  onChange={() => onMode(option)}
                />
                {t(`data.import.${option}`)}
              </label>
              <p id={`import-mode-${option}-hint`} className="studio-muted">
                {t(`data.import.${option}Hint`)}
              </p>
            </div>
          ))}
        </fieldset>
      ) : (
        <p>{t('data.import.emptyDevice')}</p>
      )}
      <p className="studio-muted">{t('data.import.consentNote')}</p>
      <div className="form-actions">
        <button type="button" className="button button--primary" onClick={props.onImport}>
          {t('data.import.action')}
        </button>
        <button type="button" className="button button--ghost" onClick={props.onCancel}>
          {t('data.import.cancel')}
        </button>
      </div>
    </div>
  );
}

function ImportDone({ outcome }: { outcome: ImportOutcome }) {
  const { t } = useTranslation('studio');
  return (
    <div className="form-success">
      <p>{t('data.import.done', { added: t('data.import.added', { count: outcome.added }) })}</p>
      {outcome.alreadyHere > 0 ? <p>{t('data.import.alreadyHere', { count: outcome.alreadyHere })}</p> : null}
      {outcome.removed > 0 ? <p>{t('data.import.removed', { count: outcome.removed })}</p> : null}
      {outcome.profileImported ? <p>{t('data.import.profileImported')}</p> : null}
      <p>
        <Link to={STUDIO_HOME}>{t('data.import.seeScans')}</Link>
      </p>
    </div>
  );
}

function ImportRefusal({ problem }: { problem: ImportProblem }) {
  const { t, i18n } = useTranslation('studio');
  const limit =
    problem.kind === 'tooLarge'
      ? formatBytes(EXPORT_LIMITS.fileBytes, i18n.language)
      : new Intl.NumberFormat(i18n.language).format(EXPORT_LIMITS.scans);
  return (
    <p className="form-error" role="alert">
      {t(`data.import.errors.${problem.kind}`, { scan: 'scan' in problem ? problem.scan : undefined, limit })}
    </p>
  );
}

function DeleteSection({ onDeleted }: { onDeleted: () => void }) {
  const { t } = useTranslation('studio');
  const [state, setState] = useState<'idle' | 'working' | 'failed'>('idle');
  const deleteEverything = async () => {
    if (!window.confirm(t('data.delete.confirm'))) return;
    setState('working');
    try {
      // What withdrawing consent does: the whole database goes (other tabs let go of it).
      await studioStore().withdrawConsent();
      rememberConsentHint(false);
      onDeleted();
    } catch {
      setState('failed');
    }
  };
  return (
    <section className="studio-section studio-card studio-data__danger" aria-labelledby="data-delete-title">
      <h2 id="data-delete-title">{t('data.delete.title')}</h2>
      <p>{t('data.delete.text')}</p>
      <button
        type="button"
        className="button button--danger"
        disabled={state === 'working'}
        onClick={() => void deleteEverything()}
      >
        {state === 'working' ? t('data.delete.working') : t('data.delete.action')}
      </button>
      {state === 'failed' ? (
        <p className="form-error" role="alert">
          {t('data.delete.failed')}
        </p>
      ) : null}
    </section>
  );
}
