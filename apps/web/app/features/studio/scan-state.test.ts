import { describe, expect, it } from 'vitest';
import { type Analysis, GATE_IDS, GATE_PROBLEMS, type GateId, type GateReading } from '@skanova/skin/contract';
import en from '@skanova/shared/i18n/en/studio.json';
import fr from '@skanova/shared/i18n/fr/studio.json';
import type { CameraVerdict } from './camera-session';
import {
  type ScanAction,
  type ScanState,
  adviceKey,
  cameraProblemOf,
  canTakePhoto,
  initialScanState,
  problemsOf,
  scanReducer,
  settledForPhoto,
} from './scan-state';

// The capture page's state: what the visitor can do follows from the models' state, the camera and the gates.

const pass = (gate: GateReading['gate']): GateReading => ({ gate, passed: true, value: 1, problem: null });
const fail = (gate: GateReading['gate'], problem: GateReading['problem']): GateReading => ({
  gate,
  passed: false,
  value: 0,
  problem,
});

const analysis: Analysis = {
  version: 'test',
  width: 10,
  height: 10,
  pxPerMm: 1,
  zones: [],
  overall: { redness: 1, evenness: 2, shine: 3, texture: 4, darkCircles: 5 },
};

/** A verdict over the last frames, as the camera session gives it. */
function verdict(gates: GateReading[], settled: GateId[] = []): CameraVerdict {
  return { gates, ready: gates.every((gate) => gate.passed), settled, light: null };
}
const checked = (gates: GateReading[], settled: GateId[] = []): ScanAction => ({
  type: 'frameChecked',
  verdict: verdict(gates, settled),
});

function run(...actions: ScanAction[]): ScanState {
  return actions.reduce(scanReducer, initialScanState);
}

describe('the capture state', () => {
  it('names the failing gates in the order a visitor should fix them, once each', () => {
    expect(
      problemsOf([
        fail('sharpness', 'blurred'),
        pass('oneFace'),
        fail('exposure', 'tooDark'),
        fail('headStraight', 'headTurned'),
        fail('evenLight', 'tooDark'),
      ]),
    ).toEqual(['headTurned', 'tooDark', 'blurred']);
  });

  it('enables the shutter only with the models ready and every gate passed by the verdict', () => {
    const camera = run({ type: 'openCamera' }, { type: 'cameraStarted' });
    const allPass = checked([pass('oneFace'), pass('sharpness')]);
    expect(canTakePhoto(scanReducer(camera, allPass))).toBe(false);
    const ready = scanReducer(camera, { type: 'engineReady', modelVersion: 'm' });
    expect(canTakePhoto(ready)).toBe(false);
    expect(canTakePhoto(scanReducer(ready, allPass))).toBe(true);
    expect(canTakePhoto(scanReducer(ready, checked([pass('oneFace'), fail('sharpness', 'blurred')])))).toBe(false);
    expect(canTakePhoto(scanReducer(ready, checked([])))).toBe(false);
  });

  it('follows the verdict over the last frames, not the last frame alone', () => {
    const ready = run({ type: 'engineReady', modelVersion: 'm' }, { type: 'openCamera' }, { type: 'cameraStarted' });
    // The latest frame read the sharpness just under its threshold, but the vote over the window passed it.
    const flicker: CameraVerdict = {
      gates: GATE_IDS.map(pass),
      ready: true,
      settled: [...GATE_IDS],
      light: { light: 60, horizontal: 0.1 },
    };
    const state = scanReducer(ready, { type: 'frameChecked', verdict: flicker });
    expect(canTakePhoto(state)).toBe(true);
    // The photo taken now is judged with the gates that verdict settled.
    expect(settledForPhoto(state)).toEqual(GATE_IDS);
    const refusing = scanReducer(state, { type: 'frameChecked', verdict: { ...flicker, ready: false } });
    expect(canTakePhoto(refusing)).toBe(false);
    expect(settledForPhoto(run({ type: 'openCamera' }))).toEqual([]);
  });

  it('offers the upload with the reason when the camera cannot start', () => {
    expect(run({ type: 'openCamera' }, { type: 'cameraFailed', problem: 'denied' }).phase).toEqual({
      name: 'choose',
      cameraProblem: 'denied',
      unreadableFile: false,
    });
  });

  it('maps the browser errors of getUserMedia to what the visitor is told', () => {
    const named = (name: string) => Object.assign(new Error('x'), { name });
    expect(cameraProblemOf(named('NotAllowedError'))).toBe('denied');
    expect(cameraProblemOf(named('NotReadableError'))).toBe('busy');
    expect(cameraProblemOf(named('NotFoundError'))).toBe('absent');
    expect(cameraProblemOf(named('TypeError'))).toBe('unsupported');
    expect(cameraProblemOf(undefined)).toBe('unsupported');
  });

  it('ignores frames that arrive after the camera closed', () => {
    const closed = run({ type: 'openCamera' }, { type: 'cameraStarted' }, { type: 'restart' });
    expect(scanReducer(closed, checked([pass('oneFace')]))).toBe(closed);
  });

  it('says why a photo was refused, and keeps the photo to show it', () => {
    const photo = new Blob([]);
    const state = run(
      { type: 'analysing', source: 'upload' },
      { type: 'refused', source: 'upload', gates: [fail('oneFace', 'noFace'), pass('sharpness')], photo },
    );
    expect(state.phase).toEqual({ name: 'refused', source: 'upload', problems: ['noFace'], photo });
    expect(scanReducer(state, { type: 'restart' }).phase.name).toBe('choose');
  });

  it('gives advice that fits the source: the camera is told what to do now, a file which photo to choose', () => {
    const lookUp = (strings: unknown, key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings);
    for (const problem of GATE_PROBLEMS) {
      expect(adviceKey(problem, 'camera')).toBe(`gates.problems.${problem}`);
      expect(adviceKey(problem, 'upload')).toBe(`gates.fileProblems.${problem}`);
      for (const strings of [en, fr]) {
        const camera = lookUp(strings, adviceKey(problem, 'camera'));
        const file = lookUp(strings, adviceKey(problem, 'upload'));
        expect(typeof file, `${problem}: file advice`).toBe('string');
        expect(file, problem).not.toBe(camera);
      }
    }
    // A file cannot be retaken: no "hold still", no lens to clean; it says which photo to choose.
    expect(lookUp(en, adviceKey('blurred', 'upload'))).not.toMatch(/hold still|lens/i);
    expect(lookUp(fr, adviceKey('blurred', 'upload'))).not.toMatch(/bougez|objectif/i);
    for (const problem of GATE_PROBLEMS) {
      expect(lookUp(en, adviceKey(problem, 'upload'))).toMatch(/choose|crop/i);
      expect(lookUp(fr, adviceKey(problem, 'upload'))).toMatch(/choisissez|recadrez/i);
    }
  });

  it('follows the result through saving', () => {
    const photo = new Blob([]);
    const result = { source: 'upload' as const, analysis, gates: [], landmarks: [], photo };
    let state = run({ type: 'analysing', source: 'upload' }, { type: 'analysed', result });
    expect(state.phase).toEqual({ name: 'result', result, saved: 'no' });
    state = scanReducer(state, { type: 'saving' });
    expect(state.phase).toMatchObject({ saved: 'saving' });
    expect(scanReducer(state, { type: 'saved' }).phase).toMatchObject({ saved: 'saved' });
    expect(scanReducer(state, { type: 'saveFailed' }).phase).toMatchObject({ saved: 'failed' });
  });

  it('stops what was under way when the engine fails, but keeps a result already shown', () => {
    const analysing = run({ type: 'analysing', source: 'camera' }, { type: 'engineFailed', reason: 'memory' });
    expect(analysing.engine).toEqual({ status: 'failed', reason: 'memory' });
    expect(analysing.phase.name).toBe('choose');
    const shown = run(
      { type: 'analysed', result: { source: 'upload', analysis, gates: [], landmarks: [], photo: new Blob([]) } },
      { type: 'engineFailed', reason: 'crashed' },
    );
    expect(shown.phase.name).toBe('result');
  });

  it('shows how far the first load is, until the models are ready', () => {
    const loading = run({ type: 'engineProgress', loaded: 3, total: 7 });
    expect(loading.engine).toEqual({ status: 'loading', loaded: 3, total: 7 });
    const ready = scanReducer(loading, { type: 'engineReady', modelVersion: 'human-3.3.6' });
    expect(scanReducer(ready, { type: 'engineProgress', loaded: 7, total: 7 }).engine).toEqual({
      status: 'ready',
      modelVersion: 'human-3.3.6',
    });
  });
});
