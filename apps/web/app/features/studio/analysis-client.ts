import type { AnalysisOutcome, CaptureSource, GateId, GateReading, Point } from '@skanova/skin/contract';
import { MODELS_BASE } from 'virtual:studio-models';
import {
  ANALYSIS_TIMINGS,
  type AnalysisTimings,
  type EngineFailure,
  type WorkerRequest,
  type WorkerResponse,
} from './analysis-protocol';

// The page's side of the analysis worker: one worker per capture page, started when the visitor
// reaches it (the model runtime is never part of any page's first load), or just before for a visitor
// who has consented on this device (startAnalysisEngineAhead). Requests are answered in order; a
// crashed worker fails every pending request and the page says so.

export class EngineError extends Error {
  constructor(
    readonly reason: EngineFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface AnalysedPhoto {
  outcome: AnalysisOutcome;
  landmarks: readonly Point[];
}

export interface AnalysisEngine {
  /** Resolves once the models are loaded; `onProgress` follows the first download. */
  ready: Promise<{ backend: string; modelVersion: string }>;
  /** One live frame's gates, those in `settled` judged with their hysteresis margin (camera-session.ts). */
  check(frame: ImageBitmap, settled: readonly GateId[]): Promise<readonly GateReading[]>;
  /** A photo's analysis; from the camera, `settled` is the live verdict's that allowed the shutter. */
  analyse(image: ImageBitmap, source: CaptureSource, settled?: readonly GateId[]): Promise<AnalysedPhoto>;
  dispose(): void;
}

type Pending = { resolve: (value: WorkerResponse) => void; reject: (error: EngineError) => void };

type Progress = (loaded: number, total: number) => void;
/** Passes an engine's progress on to whoever takes it, the last step kept for when they do. */
type ProgressRelay = { target?: Progress; last?: [number, number] };

/** Whether this document has started an engine yet (one started ahead is then too late to help). */
let anyStarted = false;

/** The engine started ahead of the capture page, until the page takes it; its progress so far is kept. */
let ahead: { engine: AnalysisEngine; relay: ProgressRelay } | undefined;

/**
 * Starts the engine while the capture page's chunk and the device's reads are still on their way, so
 * that the models load beside them rather than after the page has mounted: for a visitor who consented
 * on this device before, opening the capture page (studio-pages.tsx). The page takes it on mounting
 * (takeEngineStartedAhead). Measured in docs/benchmarks.md § The web app in the browser.
 */
export function startAnalysisEngineAhead(): void {
  if (anyStarted) return;
  const relay: ProgressRelay = {};
  try {
    const engine = startAnalysisEngine((loaded, total) => {
      relay.last = [loaded, total];
      relay.target?.(loaded, total);
    });
    ahead = { engine, relay };
  } catch {
    // No Worker support: the page finds out and says so when it starts its own.
  }
}

/** The engine started ahead, once, its progress now told to `onProgress` (the last step at once). */
export function takeEngineStartedAhead(onProgress: Progress): AnalysisEngine | undefined {
  const taken = ahead;
  ahead = undefined;
  if (!taken) return undefined;
  taken.relay.target = onProgress;
  if (taken.relay.last) onProgress(...taken.relay.last);
  return taken.engine;
}

/** Stops the engine started ahead if no page took it (the visitor went elsewhere first). */
export function stopEngineStartedAhead(): void {
  ahead?.engine.dispose();
  ahead = undefined;
}

export function startAnalysisEngine(onProgress: Progress): AnalysisEngine {
  anyStarted = true;
  const worker = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let dead: EngineError | undefined;
  let backend = '';

  const failAll = (error: EngineError) => {
    dead = error;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };

  worker.addEventListener('message', (event: MessageEvent<WorkerResponse>) => {
    const message = event.data;
    if (message.type === 'progress') return onProgress(message.loaded, message.total);
    const request = message.id === null ? undefined : pending.get(message.id);
    if (message.type === 'failed') {
      const error = new EngineError(message.reason, message.message);
      // A failure outside any request, or while loading, ends the engine.
      if (!request || message.reason !== 'crashed') return failAll(error);
      pending.delete(message.id!);
      return request.reject(error);
    }
    if (!request) return;
    pending.delete(message.id);
    request.resolve(message);
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    failAll(new EngineError('crashed', event.message || 'The analysis worker stopped.'));
  });

  const send = (request: WorkerRequest, transfer: Transferable[] = []) =>
    new Promise<WorkerResponse>((resolve, reject) => {
      if (dead) return reject(dead);
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request, transfer);
    });

  const ready = send({ type: 'init', id: nextId++, modelsBase: MODELS_BASE }).then((message) => {
    if (message.type !== 'ready') throw new EngineError('crashed', `Unexpected answer ${message.type}`);
    backend = message.backend;
    return { backend: message.backend, modelVersion: message.modelVersion };
  });
  // The page reads `ready`; this only keeps an unobserved failure from being reported as unhandled.
  ready.catch(() => {});

  return {
    ready,
    async check(frame, settled) {
      const message = await send({ type: 'check', id: nextId++, frame, settled: [...settled] }, [frame]);
      if (message.type !== 'checked') throw new EngineError('crashed', `Unexpected answer ${message.type}`);
      return message.gates;
    },
    async analyse(image, source, settled = []) {
      const started = performance.now();
      const message = await send({ type: 'analyse', id: nextId++, image, source, settled: [...settled] }, [image]);
      if (message.type !== 'analysed') throw new EngineError('crashed', `Unexpected answer ${message.type}`);
      recordTimings(started, message.timings, backend);
      return { outcome: message.outcome, landmarks: message.landmarks };
    },
    dispose() {
      worker.terminate();
      failAll(new EngineError('crashed', 'disposed'));
    },
  };
}

/** One analysis as User Timing measures on the page's timeline (the worker's steps end where the answer arrived). */
function recordTimings(started: number, timings: AnalysisTimings, backend: string) {
  const end = performance.now();
  try {
    performance.measure(ANALYSIS_TIMINGS.total, { start: started, end, detail: { backend } });
    let stepEnd = end;
    for (const step of ['analysis', 'landmarks', 'pixels'] as const) {
      performance.measure(ANALYSIS_TIMINGS[step], { start: stepEnd - timings[step], duration: timings[step] });
      stepEnd -= timings[step];
    }
  } catch {
    // A browser without User Timing level 3: the measures are for the benchmarks only.
  }
}
