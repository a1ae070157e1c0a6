// The one configuration of the face model (@vladmandic/human) for the browser's Web Worker and for
// Node (tests, benchmarks): face detection, the 468-point mesh and the iris model, nothing else.
// Models and the WASM runtime come from the URLs the caller gives (our own origin in the browser,
// `file://` under Node): no CDN. Never call `human.reset()`: it re-enables every default model.

import type { Config } from '@vladmandic/human';

export interface HumanConfigOptions {
  /** Folder URL holding blazeface.json/.bin, facemesh.json/.bin, iris.json/.bin (ends with `/`). */
  readonly modelBasePath: string;
  /** Folder URL holding tfjs-backend-wasm's `.wasm` files (ends with `/`). */
  readonly wasmPath: string;
  /** `wasm` everywhere by default; the browser may pass `webgl` when it is available. */
  readonly backend?: 'wasm' | 'webgl' | 'cpu';
  /** At most this many faces are looked for: two are enough to refuse a photo of several people. */
  readonly maxFaces?: number;
}

/** Faces below this detector score are not reported at all; the gate counts faces at ≥ 0.8. */
export const DETECTOR_MIN_CONFIDENCE = 0.5;

export function humanConfig(options: HumanConfigOptions): Partial<Config> {
  const off = { enabled: false };
  return {
    backend: options.backend ?? 'wasm',
    modelBasePath: options.modelBasePath,
    wasmPath: options.wasmPath,
    debug: false,
    async: true,
    warmup: 'none',
    cacheModels: false,
    // Every photo is analysed on its own: no reuse of a previous frame's result.
    cacheSensitivity: 0,
    filter: off,
    gesture: off,
    body: off,
    hand: off,
    object: off,
    segmentation: off,
    face: {
      enabled: true,
      detector: {
        enabled: true,
        modelPath: 'blazeface.json',
        rotation: true,
        maxDetected: options.maxFaces ?? 3,
        minConfidence: DETECTOR_MIN_CONFIDENCE,
        skipFrames: 0,
        skipTime: 0,
      },
      mesh: { enabled: true, modelPath: 'facemesh.json' },
      iris: { enabled: true, modelPath: 'iris.json', skipFrames: 0, skipTime: 0 },
      attention: off,
      description: off,
      emotion: off,
      antispoof: off,
      liveness: off,
      gear: off,
    },
  };
}
