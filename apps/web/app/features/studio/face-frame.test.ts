import { describe, expect, it } from 'vitest';
import { faceFrame } from './face-frame';

describe('the face frame', () => {
  it('frames the face with a margin, square, centred on it', () => {
    // A 100 × 100 face at (400, 300) in a 1280 × 960 photo: 160 px with 30 % margins on each side.
    const frame = faceFrame(
      [
        [400, 300],
        [500, 400],
      ],
      1280,
      960,
    );
    expect(frame).toEqual({ x: 370, y: 270, width: 160, height: 160 });
  });

  it('stays inside the photo', () => {
    const frame = faceFrame(
      [
        [0, 0],
        [300, 200],
      ],
      400,
      300,
    );
    expect(frame).toEqual({ x: 0, y: 0, width: 400, height: 300 });
    expect(
      faceFrame(
        [
          [350, 100],
          [390, 140],
        ],
        400,
        300,
      ),
    ).toEqual({ x: 336, y: 88, width: 64, height: 64 }); // pushed back inside the right edge
  });

  it('is the whole photo without landmarks', () => {
    expect(faceFrame([], 640, 480)).toEqual({ x: 0, y: 0, width: 640, height: 480 });
  });
});
