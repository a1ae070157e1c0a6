import type { Point } from '@skanova/skin/contract';
import type { Frame } from './storage';

/** Space around the face in the framed picture, as a share of the face's size on each side. */
const FRAME_MARGIN = 0.3;

/** The part of the photo shown: the face and some margin (a selfie's face may be small), clamped to the photo. */
export function faceFrame(landmarks: readonly Point[], width: number, height: number): Frame {
  if (landmarks.length === 0) return { x: 0, y: 0, width, height };
  const xs = landmarks.map(([x]) => x);
  const ys = landmarks.map(([, y]) => y);
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const side = Math.max(right - left, bottom - top) * (1 + 2 * FRAME_MARGIN);
  const frameWidth = Math.min(width, side);
  const frameHeight = Math.min(height, side);
  const clamp = (value: number, size: number, max: number) => Math.max(0, Math.min(max - size, value));
  return {
    x: clamp((left + right) / 2 - frameWidth / 2, frameWidth, width),
    y: clamp((top + bottom) / 2 - frameHeight / 2, frameHeight, height),
    width: frameWidth,
    height: frameHeight,
  };
}
