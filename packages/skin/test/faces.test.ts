import type { FaceResult } from '@vladmandic/human';
import { describe, expect, it } from 'vitest';
import { LANDMARK_COUNT } from '../src/contract.ts';
import { toDetectedFaces } from '../src/faces.ts';
import { humanConfig } from '../src/human-config.ts';

describe('the face model', () => {
  it('is configured for face, mesh and iris only, from the given URLs', () => {
    const config = humanConfig({ modelBasePath: '/models/', wasmPath: '/wasm/' });
    expect(config.modelBasePath).toBe('/models/');
    expect(config.wasmPath).toBe('/wasm/');
    expect(config.face?.detector?.enabled).toBe(true);
    expect(config.face?.mesh?.enabled).toBe(true);
    expect(config.face?.iris?.enabled).toBe(true);
    for (const part of ['attention', 'description', 'emotion', 'antispoof', 'liveness', 'gear'] as const)
      expect(config.face?.[part]?.enabled).toBe(false);
    for (const part of ['body', 'hand', 'object', 'segmentation', 'gesture', 'filter'] as const)
      expect(config[part]?.enabled).toBe(false);
    expect(JSON.stringify(config)).not.toMatch(/https?:/);
  });

  it('converts a result to DetectedFace: degrees, full meshes only', () => {
    const mesh = Array.from({ length: LANDMARK_COUNT }, (_, i) => [i, i + 1, 0] as [number, number, number]);
    const face = {
      score: 0.93,
      box: [1, 2, 3, 4],
      mesh,
      rotation: { angle: { yaw: Math.PI / 18, pitch: -Math.PI / 36, roll: 0 } },
    } as unknown as FaceResult;
    const partial = { ...face, mesh: mesh.slice(0, 468) } as FaceResult;
    const [detected, ...rest] = toDetectedFaces([face, partial]);
    expect(rest).toHaveLength(0);
    expect(detected!.mesh).toHaveLength(LANDMARK_COUNT);
    expect(detected!.rotation.yaw).toBeCloseTo(10, 6);
    expect(detected!.rotation.pitch).toBeCloseTo(-5, 6);
    expect(detected!.box).toEqual([1, 2, 3, 4]);
  });
});
