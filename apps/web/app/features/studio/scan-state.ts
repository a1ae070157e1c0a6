import {
  type Analysis,
  type CaptureSource,
  GATE_IDS,
  type GateId,
  type GateProblem,
  type GateReading,
  type Point,
} from '@skanova/skin/contract';
import type { EngineFailure } from './analysis-protocol';
import type { CameraVerdict } from './camera-session';

// The capture page's state, as a reducer: what the visitor sees follows from it alone (tested without
// a browser). The engine (models) loads in the background from the moment the page opens; the camera
// and the upload are two ways to the same analysis.

/** Why the camera is not available: each has its own message, and the upload is offered instead. */
export type CameraProblem = 'denied' | 'busy' | 'absent' | 'unsupported';

export interface ScanResult {
  source: CaptureSource;
  analysis: Analysis;
  gates: readonly GateReading[];
  landmarks: readonly Point[];
  /** The analysed photo (JPEG), shown under the zones. */
  photo: Blob;
}

export type EngineState =
  | { status: 'loading'; loaded: number; total: number }
  | { status: 'ready'; modelVersion: string }
  | { status: 'failed'; reason: EngineFailure };

export type ScanPhase =
  /** Choose: camera or a photo. */
  | { name: 'choose'; cameraProblem: CameraProblem | null; unreadableFile: boolean }
  | { name: 'startingCamera' }
  /**
   * Live preview with guidance; `verdict` is the gates voted over the last frames (camera-session.ts),
   * null before the first frame was checked.
   */
  | { name: 'camera'; verdict: CameraVerdict | null }
  | { name: 'analysing'; source: CaptureSource }
  /** The photo refused (shown on the device beside what to change in it) and why, in the order to fix it. */
  | { name: 'refused'; source: CaptureSource; problems: readonly GateProblem[]; photo: Blob }
  | { name: 'result'; result: ScanResult; saved: 'no' | 'saving' | 'saved' | 'failed' };

export interface ScanState {
  engine: EngineState;
  phase: ScanPhase;
}

export type ScanAction =
  | { type: 'engineProgress'; loaded: number; total: number }
  | { type: 'engineReady'; modelVersion: string }
  | { type: 'engineFailed'; reason: EngineFailure }
  | { type: 'openCamera' }
  | { type: 'cameraStarted' }
  | { type: 'cameraFailed'; problem: CameraProblem }
  | { type: 'frameChecked'; verdict: CameraVerdict }
  | { type: 'analysing'; source: CaptureSource }
  | { type: 'unreadableFile' }
  | { type: 'refused'; source: CaptureSource; gates: readonly GateReading[]; photo: Blob }
  | { type: 'analysed'; result: ScanResult }
  | { type: 'saving' }
  | { type: 'saved' }
  | { type: 'saveFailed' }
  /** Back to the choice (a new photo, or leaving the camera). */
  | { type: 'restart' };

export const initialScanState: ScanState = {
  engine: { status: 'loading', loaded: 0, total: 0 },
  phase: { name: 'choose', cameraProblem: null, unreadableFile: false },
};

/** The failing gates' problems, in the order a visitor should fix them (GATE_IDS), without repeats. */
export function problemsOf(gates: readonly GateReading[]): GateProblem[] {
  const order = (gate: GateReading) => GATE_IDS.indexOf(gate.gate);
  const problems = [...gates]
    .filter((gate) => !gate.passed)
    .sort((a, b) => order(a) - order(b))
    .map((gate) => gate.problem)
    .filter((problem): problem is GateProblem => problem !== null);
  return [...new Set(problems)];
}

/**
 * What a visitor is told to change for a failing gate, in words that fit where the photo came from
 * (docs/product/web-app.md#capture-and-gates): the camera's advice is about the moment ("hold still",
 * "come closer"); a chosen file cannot be retaken, so its advice is which photo to choose instead.
 */
export function adviceKey(problem: GateProblem, source: CaptureSource): string {
  return source === 'camera' ? `gates.problems.${problem}` : `gates.fileProblems.${problem}`;
}

/**
 * The shutter works only with the models ready and every gate passed by the vote over the last frames
 * (a single frame's flicker neither opens nor closes it).
 */
export function canTakePhoto(state: ScanState): boolean {
  return (
    state.engine.status === 'ready' &&
    state.phase.name === 'camera' &&
    state.phase.verdict !== null &&
    state.phase.verdict.gates.length > 0 &&
    state.phase.verdict.ready
  );
}

/** The gates the photo taken now is analysed with as settled: those of the verdict that allowed the shutter. */
export function settledForPhoto(state: ScanState): readonly GateId[] {
  return state.phase.name === 'camera' && state.phase.verdict ? state.phase.verdict.settled : [];
}

export function scanReducer(state: ScanState, action: ScanAction): ScanState {
  const { phase } = state;
  switch (action.type) {
    case 'engineProgress':
      return state.engine.status === 'loading'
        ? { ...state, engine: { status: 'loading', loaded: action.loaded, total: action.total } }
        : state;
    case 'engineReady':
      return { ...state, engine: { status: 'ready', modelVersion: action.modelVersion } };
    case 'engineFailed':
      // Nothing can be analysed any more: whatever was under way stops (a result already shown stays).
      return {
        engine: { status: 'failed', reason: action.reason },
        phase: phase.name === 'result' ? phase : { name: 'choose', cameraProblem: null, unreadableFile: false },
      };
    case 'openCamera':
      return { ...state, phase: { name: 'startingCamera' } };
    case 'cameraStarted':
      return phase.name === 'startingCamera' ? { ...state, phase: { name: 'camera', verdict: null } } : state;
    case 'cameraFailed':
      return { ...state, phase: { name: 'choose', cameraProblem: action.problem, unreadableFile: false } };
    case 'frameChecked':
      return phase.name === 'camera' ? { ...state, phase: { name: 'camera', verdict: action.verdict } } : state;
    case 'analysing':
      return { ...state, phase: { name: 'analysing', source: action.source } };
    case 'unreadableFile':
      return { ...state, phase: { name: 'choose', cameraProblem: null, unreadableFile: true } };
    case 'refused':
      return {
        ...state,
        phase: { name: 'refused', source: action.source, problems: problemsOf(action.gates), photo: action.photo },
      };
    case 'analysed':
      return { ...state, phase: { name: 'result', result: action.result, saved: 'no' } };
    case 'saving':
    case 'saved':
    case 'saveFailed':
      if (phase.name !== 'result') return state;
      return {
        ...state,
        phase: { ...phase, saved: action.type === 'saving' ? 'saving' : action.type === 'saved' ? 'saved' : 'failed' },
      };
    case 'restart':
      return { ...state, phase: { name: 'choose', cameraProblem: null, unreadableFile: false } };
  }
}

/** Maps a getUserMedia error to what the visitor is told. */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name = (error as { name?: string } | null)?.name ?? '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'busy';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'absent';
  return 'unsupported';
}
