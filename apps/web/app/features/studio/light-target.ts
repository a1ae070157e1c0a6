import type { CaptureConditions } from '@skanova/skin/contract';
import { CONDITION_LIMITS } from '@skanova/skin/conditions';
import type { LiveLight } from './camera-session';

// "Same place, same light as last time" (docs/skin-analysis.md § Like with like): two scans are
// compared only when they were taken alike (@skanova/skin/conditions), so the camera shows, from the
// live readings, whether the light on the face is close to the last scan's — by the same limits the
// comparison applies. The light's strength is the skin's L* (the `exposure` gate's value, the scan's
// `conditions.light`); its side, the left cheek over the right in stops (the `evenLight` gate's value,
// the scan's `conditions.gradient.horizontal`).

export interface LightTarget {
  /** The light on the face against last time's, in stops beyond CONDITION_LIMITS.lightStops. */
  readonly strength: 'brighter' | 'darker' | 'same';
  /**
   * Where the light comes from against last time (the visitor's own left and right), beyond
   * CONDITION_LIMITS.gradientStops: 'left' when the left cheek is now lit more than it was.
   */
  readonly side: 'left' | 'right' | 'same';
}

/** The ratio of the light on two skins of L* `now` and `then`, in stops (as conditions.ts reads it). */
export function stopsBetween(now: number, then: number): number {
  return 3 * Math.log2((now + 16) / (then + 16));
}

/** The live light against the last scan's. */
export function lightTarget(last: CaptureConditions, live: LiveLight): LightTarget {
  const stops = stopsBetween(live.light, last.light);
  const slope = live.horizontal - last.gradient.horizontal;
  return {
    strength:
      stops > CONDITION_LIMITS.lightStops ? 'brighter' : stops < -CONDITION_LIMITS.lightStops ? 'darker' : 'same',
    side: slope > CONDITION_LIMITS.gradientStops ? 'left' : slope < -CONDITION_LIMITS.gradientStops ? 'right' : 'same',
  };
}
