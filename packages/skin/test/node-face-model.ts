// The face model under Node for tests and benchmarks: human's Node WASM build (the package's exports
// map does not name it, so it is required by path) with the same configuration as the browser,
// reading the models and the WASM runtime from node_modules through `file://` URLs.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Human, Tensor } from '@vladmandic/human';
import type { DetectedFace, RgbaImage } from '../src/contract.ts';
import { toDetectedFaces } from '../src/faces.ts';
import { humanConfig } from '../src/human-config.ts';

const require = createRequire(import.meta.url);
const humanDist = path.dirname(require.resolve('@vladmandic/human'));
const humanRoot = path.dirname(humanDist);
const wasmDist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));

let installedFileFetch = false;

/** tfjs under Node fetches `file://` URLs with the global fetch, which cannot read files. */
function installFileFetch(): void {
  if (installedFileFetch) return;
  installedFileFetch = true;
  const networkFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith('file://')) return new Response(readFileSync(new URL(url)));
    return networkFetch(input, init);
  };
}

export interface NodeFaceModel {
  detect(image: RgbaImage): Promise<DetectedFace[]>;
}

let loading: Promise<NodeFaceModel> | null = null;

/** One loaded model per process (loading takes about a second). */
export function nodeFaceModel(): Promise<NodeFaceModel> {
  loading ??= load();
  return loading;
}

async function load(): Promise<NodeFaceModel> {
  installFileFetch();
  const module = require(path.join(humanDist, 'human.node-wasm.js')) as { Human: new (config: object) => Human };
  const human = new module.Human(
    humanConfig({
      modelBasePath: pathToFileURL(path.join(humanRoot, 'models') + path.sep).href,
      wasmPath: pathToFileURL(wasmDist + path.sep).href,
    }),
  );
  await human.load();
  return {
    async detect(image: RgbaImage): Promise<DetectedFace[]> {
      const rgb = new Uint8Array(image.width * image.height * 3);
      for (let i = 0, j = 0; i < image.data.length; i += 4, j += 3) {
        rgb[j] = image.data[i]!;
        rgb[j + 1] = image.data[i + 1]!;
        rgb[j + 2] = image.data[i + 2]!;
      }
      const tensor = human.tf.tensor3d(rgb, [image.height, image.width, 3], 'int32') as Tensor;
      try {
        const result = await human.detect(tensor);
        return toDetectedFaces(result.face);
      } finally {
        human.tf.dispose(tensor);
      }
    },
  };
}
