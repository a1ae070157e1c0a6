import { Human, type Config, type FaceResult } from '@vladmandic/human';
import type { DetectedFace, Point, Point3, RgbaImage } from '@skanova/skin/contract';
import { type WorkerRequest, type WorkerResponse, failureOf } from './analysis-protocol';
import { analysePhoto, checkGates } from './skin-engine';

// The analysis worker (ADR 010): the face model and the analysis run here, off the page's thread, so
// the page stays responsive. It fetches only the models and the WebAssembly runtime, from our own
// origin (the address the page gives it); images arrive as ImageBitmaps and never leave the device.

/** The worker's global scope (the project's types are the DOM's, not the worker's). */
const scope = self as unknown as {
  postMessage(message: WorkerResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerRequest>) => void): void;
  fetch: typeof fetch;
};

/** The files the runtime fetches on a first load: three models (json + bin) and one WebAssembly binary. */
const EXPECTED_FILES = 7;

let human: Human | undefined;

function post(message: WorkerResponse) {
  scope.postMessage(message);
}

function webglAvailable(): boolean {
  try {
    return typeof OffscreenCanvas !== 'undefined' && new OffscreenCanvas(1, 1).getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

/** Only face detection, the mesh and the iris: every other model stays off (and is never downloaded). */
function humanConfig(modelsBase: string, backend: 'webgl' | 'wasm'): Partial<Config> {
  return {
    backend,
    modelBasePath: modelsBase,
    wasmPath: modelsBase,
    wasmPlatformFetch: false,
    // The browser's HTTP cache keeps the models (immutable): no copy of them in IndexedDB.
    cacheModels: false,
    cacheSensitivity: 0,
    debug: false,
    warmup: 'none',
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      // Two faces are looked for so that a photo with two is refused, not analysed at random.
      detector: { enabled: true, rotation: true, maxDetected: 2, minConfidence: 0.5, skipFrames: 0, return: false },
      mesh: { enabled: true },
      iris: { enabled: true },
      attention: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
  } as Partial<Config>;
}

/** Counts the runtime's downloads so the page can show how far the first load is. */
function countDownloads() {
  let loaded = 0;
  const original = scope.fetch.bind(scope);
  scope.fetch = async (input, init) => {
    const response = await original(input, init);
    loaded = Math.min(loaded + 1, EXPECTED_FILES);
    post({ type: 'progress', loaded, total: EXPECTED_FILES });
    return response;
  };
}

async function init(modelsBase: string): Promise<{ backend: string; modelVersion: string }> {
  const webgl = webglAvailable();
  if (!webgl && typeof WebAssembly !== 'object')
    throw Object.assign(new Error('no backend'), { reason: 'unsupported' });
  countDownloads();
  post({ type: 'progress', loaded: 0, total: EXPECTED_FILES });
  const instance = new Human(humanConfig(modelsBase, webgl ? 'webgl' : 'wasm'));
  try {
    await instance.load();
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { reason: 'loadFailed' });
  }
  human = instance;
  return { backend: instance.tf.getBackend(), modelVersion: `human-${instance.version}` };
}

function toImage(bitmap: ImageBitmap): RgbaImage {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('2D canvas unavailable');
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  return context.getImageData(0, 0, canvas.width, canvas.height);
}

const DEGREES = 180 / Math.PI;

/** The face model's answer in the contract's terms (pixels, degrees). */
function toDetectedFace(face: FaceResult): DetectedFace {
  const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
  return {
    score: face.score,
    box: face.box,
    mesh: face.mesh.map((point) => [point[0], point[1], point[2] ?? 0] as Point3),
    rotation: { yaw: angle.yaw * DEGREES, pitch: angle.pitch * DEGREES, roll: angle.roll * DEGREES },
  };
}

async function detect(image: RgbaImage): Promise<DetectedFace[]> {
  if (!human) throw new Error('not initialised');
  const result = await human.detect(image as ImageData);
  if ('error' in result && result.error) throw new Error(String(result.error));
  return result.face.map(toDetectedFace);
}

async function handle(request: WorkerRequest) {
  switch (request.type) {
    case 'init': {
      const ready = await init(request.modelsBase);
      post({ type: 'ready', id: request.id, ...ready });
      return;
    }
    case 'check': {
      const image = toImage(request.frame);
      post({ type: 'checked', id: request.id, gates: checkGates(image, await detect(image), { source: 'camera' }) });
      return;
    }
    case 'analyse': {
      const image = toImage(request.image);
      const faces = await detect(image);
      const outcome = analysePhoto(image, faces, { source: request.source });
      const landmarks: Point[] = faces.length === 1 ? faces[0]!.mesh.map(([x, y]) => [x, y] as Point) : [];
      post({ type: 'analysed', id: request.id, outcome, landmarks });
      return;
    }
  }
}

scope.addEventListener('message', (event) => {
  const request = event.data;
  handle(request).catch((error: unknown) => {
    const reason = (error as { reason?: string } | null)?.reason;
    post({
      type: 'failed',
      id: request.id,
      reason: reason === 'unsupported' || reason === 'loadFailed' ? reason : failureOf(error),
      message: error instanceof Error ? error.message : String(error),
    });
  });
});
