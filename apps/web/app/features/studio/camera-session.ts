import type { GateId, GateReading } from '@skanova/skin/contract';
import { LiveGates } from '@skanova/skin/live-gates';

// One camera session's live verdict (docs/skin-analysis.md §Gates, "In the camera"): a single frame's
// readings flicker around a threshold — a borderline light, a blink, the video's compression — so the
// guidance and the shutter follow the gates voted over the last frames (@skanova/skin/live-gates),
// not the last frame alone. Each frame is checked with the gates already settled (judged with their
// hysteresis margin), and the photo taken is analysed with the settled gates of the verdict that
// allowed the shutter. A new session (a new LiveGates) each time the camera starts.

/** The light on the face over the last frames, as the gates read it. */
export interface LiveLight {
  /** Median skin L* (the `exposure` gate's value): the scan's `conditions.light`. */
  readonly light: number;
  /** Median left-over-right cheek stops (the `evenLight` gate's value): the scan's `conditions.gradient.horizontal`. */
  readonly horizontal: number;
}

export interface CameraVerdict {
  /** Each gate's latest reading, passed or failed by the vote over the last frames: what the guidance shows. */
  readonly gates: readonly GateReading[];
  /** Every gate passes by the vote: the shutter may be pressed. */
  readonly ready: boolean;
  /** The gates settled: judged with their hysteresis margin in the next frame and in the photo taken. */
  readonly settled: readonly GateId[];
  /** The light over the last frames where it was measured; null until it was. */
  readonly light: LiveLight | null;
}

/** Checks one frame's gates, those in `settled` judged with their hysteresis margin (the worker's `check`). */
export type CheckFrame<Frame> = (frame: Frame, settled: readonly GateId[]) => Promise<readonly GateReading[]>;

export interface CameraSession<Frame> {
  /** Checks a frame (one at a time) and returns the verdict over the last frames. */
  check(frame: Frame): Promise<CameraVerdict>;
}

/** Frames the light's medians are taken over (the live gates' own window). */
export const LIGHT_WINDOW = 5;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function startCameraSession<Frame>(checkFrame: CheckFrame<Frame>): CameraSession<Frame> {
  const live = new LiveGates();
  const lights: LiveLight[] = [];
  return {
    async check(frame) {
      const readings = await checkFrame(frame, [...live.settled]);
      const verdict = live.push(readings);
      const value = (gate: GateId) => readings.find((reading) => reading.gate === gate)?.value ?? null;
      const light = value('exposure');
      const horizontal = value('evenLight');
      if (light !== null && horizontal !== null) {
        lights.push({ light, horizontal });
        if (lights.length > LIGHT_WINDOW) lights.shift();
      }
      return {
        gates: verdict.gates,
        ready: verdict.ready,
        settled: [...verdict.settled],
        light:
          lights.length === 0
            ? null
            : {
                light: median(lights.map((reading) => reading.light)),
                horizontal: median(lights.map((reading) => reading.horizontal)),
              },
      };
    },
  };
}
