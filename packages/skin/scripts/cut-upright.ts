// The square cut of a face the fixture scripts make: `size` pixels around (cx, cy), turned by the eye
// line's angle so the eyes are level, at the photo's own resolution.

import type { DetectedFace, RgbaImage } from '../src/contract.ts';
import { resampleAffine } from '../src/image.ts';
import { pupils } from '../src/zones.ts';

/** The eye line's angle, radians (0 when the eyes are level). */
export function eyeLineAngle(face: DetectedFace): number {
  const [p, q] = pupils(face);
  return Math.atan2(q[1] - p[1], q[0] - p[0]);
}

export function cutUpright(image: RgbaImage, cx: number, cy: number, size: number, angle: number): RgbaImage {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const h = size / 2;
  // Output (x, y) → source: rotate the offset from the cut's centre by the eye line's angle.
  return resampleAffine(image, size, size, {
    a: cos,
    b: -sin,
    c: cx - h * cos + h * sin,
    d: sin,
    e: cos,
    f: cy - h * sin - h * cos,
  });
}
