import type { AnalysisOutcome, CaptureSource, GateId, GateReading, Point } from '@skanova/skin/contract';

// Messages between the page and the analysis worker (analysis.worker.ts). Images travel as
// ImageBitmaps (transferred, never copied, never leaving the browser).

/** The steps of one analysis in the worker, timed. */
export interface AnalysisTimings {
  /** The image's pixels read from the bitmap. */
  pixels: number;
  /** Face detection, mesh and iris. */
  landmarks: number;
  /** Gates, zones and every metric. */
  analysis: number;
}

/**
 * The names under which the page records each analysis as User Timing measures (readable with
 * `performance.getEntriesByName`): the benchmarks read them; nothing is sent anywhere.
 */
export const ANALYSIS_TIMINGS = {
  pixels: 'studio:analysis:pixels',
  landmarks: 'studio:analysis:landmarks',
  analysis: 'studio:analysis:metrics',
  /**
   * The whole request as the page sees it: sending the image, the three steps, the answer. Its
   * detail is `{ backend }`, the inference backend the model ran on ('wasm' or 'webgl').
   */
  total: 'studio:analysis:total',
} as const;

/** Why the analysis cannot run on this device, or stopped. */
export type EngineFailure =
  /** Neither WebGL nor WebAssembly. */
  | 'unsupported'
  /** The device ran out of memory. */
  | 'memory'
  /** The models could not be loaded (network, storage). */
  | 'loadFailed'
  /** The worker itself crashed or the analysis threw. */
  | 'crashed';

export type WorkerRequest =
  | { type: 'init'; id: number; modelsBase: string }
  /**
   * One live camera frame. `settled`: the gates the camera's verdict over the last frames has passed
   * (camera-session.ts), judged with their hysteresis margin.
   */
  | { type: 'check'; id: number; frame: ImageBitmap; settled: readonly GateId[] }
  /** A photo; from the camera, `settled` is the verdict's that allowed the shutter (empty for an upload). */
  | { type: 'analyse'; id: number; image: ImageBitmap; source: CaptureSource; settled: readonly GateId[] };

export type WorkerResponse =
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'ready'; id: number; backend: string; modelVersion: string }
  | { type: 'checked'; id: number; gates: readonly GateReading[] }
  | {
      type: 'analysed';
      id: number;
      outcome: AnalysisOutcome;
      /** The analysed face's landmarks (x, y), for the overlay; empty when no single face was found. */
      landmarks: readonly Point[];
      /** How long each step took in the worker, in milliseconds (for the benchmarks; see ANALYSIS_TIMINGS). */
      timings: AnalysisTimings;
    }
  | { type: 'failed'; id: number | null; reason: EngineFailure; message: string };

/** What an error thrown in the worker means for the visitor. */
export function failureOf(error: unknown): EngineFailure {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  if (/out of memory|\bOOM\b|RangeError.*(allocat|memory)|Array buffer allocation/i.test(message)) return 'memory';
  return 'crashed';
}
