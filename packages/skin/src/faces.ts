// The face model's result (@vladmandic/human) as the contract's DetectedFace: 478 landmarks in the
// image's pixels, the head pose in degrees.

import type { FaceResult } from '@vladmandic/human';
import { LANDMARK_COUNT, type DetectedFace, type Point3 } from './contract.ts';

const DEGREES = 180 / Math.PI;

/** Faces with a full mesh (face + both irises); a face the mesh model could not follow is left out. */
export function toDetectedFaces(faces: readonly FaceResult[]): DetectedFace[] {
  const detected: DetectedFace[] = [];
  for (const face of faces) {
    if (face.mesh.length < LANDMARK_COUNT) continue;
    const mesh: Point3[] = face.mesh.slice(0, LANDMARK_COUNT).map((p) => [p[0], p[1], p[2] ?? 0] as const);
    const angle = face.rotation?.angle;
    detected.push({
      score: face.score,
      box: [face.box[0], face.box[1], face.box[2], face.box[3]],
      mesh,
      rotation: {
        yaw: (angle?.yaw ?? 0) * DEGREES,
        pitch: (angle?.pitch ?? 0) * DEGREES,
        roll: (angle?.roll ?? 0) * DEGREES,
      },
    });
  }
  return detected;
}
