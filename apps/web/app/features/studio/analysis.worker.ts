import { Human } from '@vladmandic/human';
import type { DetectedFace, Point, RgbaImage } from '@skanova/skin/contract';
import { type WorkerRequest, type WorkerResponse, failureOf } from './analysis-protocol';
import { analysePhoto, checkGates, humanConfig, toDetectedFaces } from './skin-engine';

// The analysis worker (ADR 010): the face model and the analysis run here, off the page's thread, so
// the page stays responsive. It fetches only the models and the WebAssembly runtime, from our own
// origin (the address the page gives it); images arrive as ImageBitmaps and never leave the device.

/** The worker's global scope (the project's types are the DOM's, not the worker's). */
const scope = self as unknown as {
  postMessage(message: WorkerResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerRequest>) => void): void;
  fetch: typeof fetch;
};

/** The models the analysis uses (face detector, mesh, iris). */
const MODELS = ['blazeface', 'facemesh', 'iris'];
/** The files the runtime fetches on a first load: each model's json and bin, and one WebAssembly binary. */
const EXPECTED_FILES = MODELS.length * 2 + 1;

let human: Human | undefined;

function post(message: WorkerResponse) {
  scope.postMessage(message);
}

/**
 * Whether WebGL 2 runs on a GPU here. A browser without one (or with the GPU blocked) may still offer
 * WebGL through a software renderer, where the face model is ~20 times slower than on WebAssembly
 * (measured: 1.3 s against 70 ms a photo, docs/benchmarks.md): `failIfMajorPerformanceCaveat` and
 * the renderer's name tell them apart.
 */
function gpuWebglAvailable(): boolean {
  try {
    if (typeof OffscreenCanvas === 'undefined') return false;
    const gl = new OffscreenCanvas(1, 1).getContext('webgl2', { failIfMajorPerformanceCaveat: true });
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    return !/swiftshader|llvmpipe|softpipe|software/i.test(renderer);
  } catch {
    return false;
  }
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
  const webgl = gpuWebglAvailable();
  if (!webgl && typeof WebAssembly !== 'object')
    throw Object.assign(new Error('no backend'), { reason: 'unsupported' });
  countDownloads();
  post({ type: 'progress', loaded: 0, total: EXPECTED_FILES });
  // Only face detection, the mesh and the iris (the skin package's one configuration); two faces
  // are enough to refuse a photo of several people.
  const instance = new Human({
    ...humanConfig({ modelBasePath: modelsBase, wasmPath: modelsBase, backend: webgl ? 'webgl' : 'wasm', maxFaces: 2 }),
    wasmPlatformFetch: false,
  });
  try {
    await instance.load();
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { reason: 'loadFailed' });
  }
  // The model logs a file it could not fetch and goes on without it: a missing model is a failed load.
  if (instance.models.loaded().length < MODELS.length)
    throw Object.assign(new Error(`models loaded: ${instance.models.loaded().join(', ')}`), { reason: 'loadFailed' });
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

async function detect(image: RgbaImage): Promise<DetectedFace[]> {
  if (!human) throw new Error('not initialised');
  const result = await human.detect(image as ImageData);
  if ('error' in result && result.error) throw new Error(String(result.error));
  return toDetectedFaces(result.face);
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
      const settled = new Set(request.settled);
      post({
        type: 'checked',
        id: request.id,
        gates: checkGates(image, await detect(image), { source: 'camera', settled }),
      });
      return;
    }
    case 'analyse': {
      const started = performance.now();
      const image = toImage(request.image);
      const read = performance.now();
      const faces = await detect(image);
      const detected = performance.now();
      // From the camera, the gates the live verdict had settled are judged with their hysteresis margin:
      // the photo is not refused for the flicker the preview had already voted away.
      const settled = new Set(request.source === 'camera' ? request.settled : []);
      const outcome = analysePhoto(image, faces, { source: request.source, settled });
      const timings = { pixels: read - started, landmarks: detected - read, analysis: performance.now() - detected };
      const landmarks: Point[] = faces.length === 1 ? faces[0]!.mesh.map(([x, y]) => [x, y] as Point) : [];
      post({ type: 'analysed', id: request.id, outcome, landmarks, timings });
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
