import { type DragEvent, useCallback, useEffect, useId, useReducer, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { CaptureConditions, CaptureSource, GateId, GateProblem } from '@skanova/skin/contract';
import { FLOORS_ANALYSIS_VERSION } from '@skanova/skin/trend';
import { STUDIO_HOME } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../lib/react-i18n';
import { EngineError } from './analysis-client';
import { useCamera } from './use-camera';
import { ANALYSIS_MAX_SIDE, THUMBNAIL_MAX_SIDE, decodeImageFile, toJpeg } from './images';
import { faceFrame } from './face-frame';
import { ResultView } from './result-view';
import { BlobImage } from './blob-image';
import type { CameraVerdict } from './camera-session';
import { lightTarget } from './light-target';
import {
  type ScanResult,
  adviceKey,
  canTakePhoto,
  initialScanState,
  problemsOf,
  scanReducer,
  settledForPhoto,
} from './scan-state';
import { studioStore } from './storage';
import { useAnalysisEngine } from './use-analysis-engine';
import { useHoldAppUpdate } from './offline/update-hold';

/** The capture page, past the consent check (studio-pages.tsx): camera or photo, then the result and "save". */
export default function Scan() {
  const { t } = useTranslation('studio');
  const [state, dispatch] = useReducer(scanReducer, initialScanState);
  const engine = useAnalysisEngine(dispatch, true);
  const video = useRef<HTMLVideoElement>(null);
  const screen = useRef<HTMLDivElement>(null);
  const { phase, engine: engineState } = state;
  // A new version of the app waits while the visitor's photo is analysed and until its result is saved.
  useHoldAppUpdate(phase.name === 'analysing' || (phase.name === 'result' && phase.saved !== 'saved'));
  const camera = useCamera({
    video,
    active: phase.name === 'startingCamera' || phase.name === 'camera',
    checking: phase.name === 'camera' && engineState.status === 'ready',
    engine,
    dispatch,
  });

  const lastConditions = useLastConditions(phase.name === 'startingCamera' || phase.name === 'camera');

  const analyse = useCallback(
    async (image: ImageBitmap, source: CaptureSource, settled: readonly GateId[] = []) => {
      dispatch({ type: 'analysing', source });
      try {
        // The copy shown under the zones (and kept if the visitor asks), made before the image goes to the worker.
        const photo = await toJpeg(image, ANALYSIS_MAX_SIDE);
        const worker = engine.current;
        if (!worker) throw new EngineError('crashed', 'no engine');
        await worker.ready;
        const { outcome, landmarks } = await worker.analyse(image, source, settled);
        // The refused photo is shown beside what to change in it, from the page's own copy.
        if (!outcome.ok) return dispatch({ type: 'refused', source, gates: outcome.gates, photo });
        dispatch({
          type: 'analysed',
          result: { source, analysis: outcome.analysis, gates: outcome.gates, landmarks, photo },
        });
      } catch (error) {
        dispatch({ type: 'engineFailed', reason: error instanceof EngineError ? error.reason : 'crashed' });
      }
    },
    [engine],
  );

  const choosePhoto = useCallback(
    async (file: File | undefined) => {
      if (!file) return;
      let image: ImageBitmap;
      try {
        image = await decodeImageFile(file);
      } catch {
        return dispatch({ type: 'unreadableFile' });
      }
      await analyse(image, 'upload');
    },
    [analyse],
  );

  const cameraOpen = phase.name === 'startingCamera' || phase.name === 'camera';
  // The camera's screen is all in view as it opens: the page scrolls as little as that takes (on a
  // short phone, past the app's menu).
  useEffect(() => {
    if (cameraOpen) screen.current?.scrollIntoView({ block: 'nearest' });
  }, [cameraOpen]);
  // A refusal is read from the top: the title, then the photo and what to change.
  const refused = phase.name === 'refused';
  useEffect(() => {
    if (refused) window.scrollTo({ top: 0 });
  }, [refused]);

  const engineFailed = engineState.status === 'failed';
  const percent =
    engineState.status === 'loading' && engineState.total > 0
      ? Math.round((engineState.loaded / engineState.total) * 100)
      : 0;

  if (phase.name === 'result')
    return (
      <ScanResultView
        result={phase.result}
        saved={phase.saved}
        dispatch={dispatch}
        modelVersion={engineState.status === 'ready' ? engineState.modelVersion : ''}
      />
    );

  // One live region for everything the visitor waits for or must fix: on the camera's preview while it
  // is open, under the choice while the models load, under the title while a photo is analysed.
  const status = (
    <div className={`studio-status${cameraOpen ? ' studio-camera__overlay' : ''}`} role="status" aria-live="polite">
      {engineFailed ? null : engineState.status === 'loading' ? (
        <div className="studio-progress">
          <p>{t('scan.engine.loading', { percent })}</p>
          <progress max={100} value={percent} aria-label={t('scan.engine.loading', { percent })} />
          <p className="studio-progress__hint">{t('scan.engine.loadingHint')}</p>
        </div>
      ) : null}
      {phase.name === 'analysing' ? <p className="studio-analysing">{t('scan.analysing')}</p> : null}
      {phase.name === 'startingCamera' ? <p className="studio-guidance">{t('scan.camera.starting')}</p> : null}
      {phase.name === 'camera' && engineState.status === 'ready' ? (
        <>
          <Guidance verdict={phase.verdict} />
          {lastConditions && phase.verdict?.light ? (
            <LightTargetView last={lastConditions} verdict={phase.verdict} />
          ) : null}
        </>
      ) : null}
    </div>
  );

  if (cameraOpen)
    return (
      <section className="studio-capture studio-capture--camera" aria-labelledby="scan-title">
        {/* The title and the way out, the preview with its guidance, the shutter: one screen; tips below. */}
        <div className="studio-capture__screen" ref={screen}>
          <div className="studio-capture__title-row">
            <h1 id="scan-title">{t('scan.title')}</h1>
            {/* "Close" on phones, where the row is narrow; the full words from 640 px. */}
            <button
              type="button"
              className="button button--ghost button--small"
              aria-label={t('scan.camera.close')}
              onClick={() => dispatch({ type: 'restart' })}
            >
              <span className="studio-capture__close-short">{t('scan.camera.closeShort')}</span>
              <span className="studio-capture__close-long">{t('scan.camera.close')}</span>
            </button>
          </div>
          <div className="studio-camera__frame">
            {/* Mirrored like a mirror; the photo itself is taken as the camera sees it. */}
            <video
              ref={video}
              className="studio-camera__video"
              muted
              playsInline
              aria-label={t('scan.camera.preview')}
            />
            <div className="studio-camera__oval" aria-hidden="true" />
            {status}
          </div>
          <div className="studio-camera__actions">
            <button
              type="button"
              className="button button--primary button--large"
              disabled={!canTakePhoto(state)}
              aria-describedby="camera-hint"
              onClick={() => {
                // The photo is judged with the gates the verdict that allowed the shutter had settled.
                const settled = settledForPhoto(state);
                void camera.takePhoto().then(
                  (image) => analyse(image, 'camera', settled),
                  () => dispatch({ type: 'cameraFailed', problem: 'busy' }),
                );
              }}
            >
              {t('scan.camera.shutter')}
            </button>
          </div>
        </div>
        <p id="camera-hint" className="studio-muted">
          {engineState.status === 'ready' ? t('scan.privacyNote') : t('scan.camera.waitModels')}
        </p>
        <p className="studio-lead studio-camera__tips">{t('scan.lead')}</p>
      </section>
    );

  return (
    <section className="studio-capture" aria-labelledby="scan-title">
      <h1 id="scan-title">{t('scan.title')}</h1>
      <p className="studio-lead">{t('scan.lead')}</p>

      {phase.name === 'choose' && !engineFailed ? null : status}

      {engineFailed ? (
        <div className="form-error" role="alert">
          <p>{t(`scan.engine.failed.${engineState.reason}`)}</p>
          <button type="button" className="button button--secondary" onClick={() => window.location.reload()}>
            {t('scan.engine.reload')}
          </button>
        </div>
      ) : null}

      {phase.name === 'refused' ? (
        <Refused
          source={phase.source}
          problems={phase.problems}
          photo={phase.photo}
          onRetake={() => dispatch({ type: 'openCamera' })}
          onRestart={() => dispatch({ type: 'restart' })}
        />
      ) : null}

      {phase.name === 'choose' && !engineFailed ? (
        <>
          <Choose
            cameraProblem={phase.cameraProblem}
            unreadableFile={phase.unreadableFile}
            onCamera={() => dispatch({ type: 'openCamera' })}
            onFile={(file) => void choosePhoto(file)}
          />
          {/* Last: when the models are ready it empties, and nothing under it moves. */}
          {status}
        </>
      ) : null}
    </section>
  );
}

interface RefusedProps {
  source: CaptureSource;
  problems: readonly GateProblem[];
  photo: Blob;
  onRetake: () => void;
  onRestart: () => void;
}

/**
 * A refused photo (docs/product/web-app.md#capture-and-gates): the photo itself, from the page's memory
 * (never uploaded), with what to change in it — in the camera's words for a photo just taken, in a
 * file's words for a chosen one — and the way to the next photo.
 */
function Refused({ source, problems, photo, onRetake, onRestart }: RefusedProps) {
  const { t } = useTranslation('studio');
  return (
    <div className="studio-card studio-refused" role="alert">
      <h2>{t('scan.refused.title')}</h2>
      <div className="studio-refused__body">
        <figure className="studio-refused__photo">
          <div className="studio-refused__frame">
            <BlobImage blob={photo} alt={t('scan.refused.photoAlt')} className="studio-refused__image" />
          </div>
          <figcaption className="studio-muted">{t('scan.refused.photoNote')}</figcaption>
        </figure>
        <div className="studio-refused__advice">
          {problems.length > 0 ? (
            <>
              <p>{t('scan.refused.lead')}</p>
              <ul className="studio-problems">
                {problems.map((problem) => (
                  <li key={problem}>{t(adviceKey(problem, source))}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>{t('scan.refused.unknown')}</p>
          )}
          <div className="form-actions">
            {source === 'camera' ? (
              <>
                <button type="button" className="button button--primary" onClick={onRetake}>
                  {t('scan.refused.retake')}
                </button>
                <button type="button" className="button button--ghost" onClick={onRestart}>
                  {t('scan.refused.chooseInstead')}
                </button>
              </>
            ) : (
              <button type="button" className="button button--primary" onClick={onRestart}>
                {t('scan.refused.tryAgain')}
              </button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * How the newest scan of this analysis that recorded it was taken, read when the camera opens (so a
 * scan saved meanwhile is the next target); undefined when there is none.
 */
function useLastConditions(cameraWanted: boolean): CaptureConditions | undefined {
  const [conditions, setConditions] = useState<CaptureConditions>();
  useEffect(() => {
    if (!cameraWanted) return;
    let live = true;
    studioStore()
      .lastConditions(FLOORS_ANALYSIS_VERSION)
      .then(
        (last) => live && setConditions(last?.conditions),
        // Without the last scan's conditions the camera simply shows no target.
        () => {},
      );
    return () => {
      live = false;
    };
  }, [cameraWanted]);
  return conditions;
}

/** The gates voted over the last frames: what to fix, in the order to fix it, or that all is well. */
function Guidance({ verdict }: { verdict: CameraVerdict | null }) {
  const { t } = useTranslation('studio');
  if (verdict === null) return <p className="studio-guidance">{t('scan.camera.checking')}</p>;
  const problems = problemsOf(verdict.gates);
  // "All good" only with the shutter working: the first frames pass before the vote has enough of them.
  if (problems.length === 0 && !verdict.ready) return <p className="studio-guidance">{t('scan.camera.settling')}</p>;
  if (problems.length === 0) return <p className="studio-guidance studio-guidance--ok">{t('scan.camera.ready')}</p>;
  return (
    <ul className="studio-guidance" aria-label={t('gates.guidanceLabel')}>
      {problems.map((problem) => (
        <li key={problem}>{t(`gates.problems.${problem}`)}</li>
      ))}
    </ul>
  );
}

/** "Same place, same light as last time": the live light against the last scan's (light-target.ts). */
function LightTargetView({ last, verdict }: { last: CaptureConditions; verdict: CameraVerdict }) {
  const { t } = useTranslation('studio');
  if (!verdict.light) return null;
  const target = lightTarget(last, verdict.light);
  const hints = [
    target.strength === 'same' ? null : t(`scan.target.${target.strength}`),
    target.side === 'same' ? null : t(`scan.target.${target.side === 'left' ? 'fromLeft' : 'fromRight'}`),
  ].filter((hint): hint is string => hint !== null);
  return (
    <div className="studio-target">
      <p className="studio-target__title">{t('scan.target.title')}</p>
      {hints.length === 0 ? (
        <p className="studio-target__same">{t('scan.target.same')}</p>
      ) : (
        <ul className="studio-target__hints">
          {hints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface ChooseProps {
  cameraProblem: 'denied' | 'busy' | 'absent' | 'unsupported' | null;
  unreadableFile: boolean;
  onCamera: () => void;
  onFile: (file: File | undefined) => void;
}

function Choose({ cameraProblem, unreadableFile, onCamera, onFile }: ChooseProps) {
  const { t } = useTranslation('studio');
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    onFile(event.dataTransfer.files[0]);
  };
  return (
    <div className="studio-choose">
      {cameraProblem ? (
        <p className="form-error" role="alert">
          {t(`scan.cameraProblem.${cameraProblem}`)}
        </p>
      ) : null}
      {unreadableFile ? (
        <p className="form-error" role="alert">
          {t('scan.unreadableFile')}
        </p>
      ) : null}
      <div className="studio-choose__options">
        {cameraProblem === 'denied' || cameraProblem === 'absent' || cameraProblem === 'unsupported' ? null : (
          <button
            type="button"
            className="button button--primary button--large studio-choose__camera"
            onClick={onCamera}
          >
            {t('scan.useCamera')}
          </button>
        )}
        <div
          className={`studio-drop${dragging ? ' studio-drop--active' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <input
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="visually-hidden studio-drop__input"
            aria-describedby={hintId}
            onChange={(event) => {
              onFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <label htmlFor={inputId} className="button button--secondary button--large">
            {t('scan.uploadPhoto')}
          </label>
          <p id={hintId} className="studio-muted">
            {t('scan.uploadHint')}
          </p>
        </div>
      </div>
      <p className="studio-privacy-note">{t('scan.privacyNote')}</p>
    </div>
  );
}

interface ScanResultViewProps {
  result: ScanResult;
  saved: 'no' | 'saving' | 'saved' | 'failed';
  modelVersion: string;
  dispatch: (action: { type: 'saving' | 'saved' | 'saveFailed' | 'restart' }) => void;
}

function ScanResultView({ result, saved, modelVersion, dispatch }: ScanResultViewProps) {
  const { t } = useTranslation('studio');
  const [keepPhoto, setKeepPhoto] = useState(false);

  const save = async () => {
    dispatch({ type: 'saving' });
    try {
      const bitmap = await createImageBitmap(result.photo);
      const thumbnailFrame = faceFrame(result.landmarks, bitmap.width, bitmap.height);
      const thumbnail = await toJpeg(bitmap, THUMBNAIL_MAX_SIDE, 0.85, thumbnailFrame);
      bitmap.close();
      await studioStore().saveScan({
        id: crypto.randomUUID(),
        takenAt: new Date().toISOString(),
        source: result.source,
        analysisVersion: result.analysis.version,
        modelVersion,
        gates: result.gates,
        analysis: result.analysis,
        landmarks: result.landmarks,
        thumbnail,
        thumbnailFrame,
        ...(keepPhoto ? { photo: result.photo } : {}),
      });
      dispatch({ type: 'saved' });
    } catch {
      dispatch({ type: 'saveFailed' });
    }
  };

  return (
    <ResultView
      analysis={result.analysis}
      image={result.photo}
      landmarks={result.landmarks}
      heading={t('result.title')}
      actions={
        <div className="studio-card studio-save">
          {saved === 'saved' ? (
            <p className="form-success" role="status">
              {t('result.saved')}
            </p>
          ) : (
            <>
              <label className="choice">
                <input
                  type="checkbox"
                  checked={keepPhoto}
                  onChange={(event) => setKeepPhoto(event.target.checked)}
                  aria-describedby="keep-photo-hint"
                  disabled={saved === 'saving'}
                />
                <span>{t('result.keepPhoto')}</span>
              </label>
              <p id="keep-photo-hint" className="studio-muted">
                {t('result.keepPhotoHint')}
              </p>
              {saved === 'failed' ? (
                <p className="form-error" role="alert">
                  {t('result.saveFailed')}
                </p>
              ) : null}
              <button
                type="button"
                className="button button--primary"
                disabled={saved === 'saving'}
                onClick={() => void save()}
              >
                {saved === 'saving' ? t('result.saving') : t('result.save')}
              </button>
            </>
          )}
          <div className="form-actions">
            <button type="button" className="button button--secondary" onClick={() => dispatch({ type: 'restart' })}>
              {t('result.newScan')}
            </button>
            <Link to={STUDIO_HOME} className="button button--ghost">
              {t('result.allScans')}
            </Link>
          </div>
        </div>
      }
    />
  );
}
