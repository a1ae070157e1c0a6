// Capture conditions (docs/skin-analysis.md §Like with like): what a photo says about how it was
// taken — the light on the face, its slope and colour, the distance, the head's pose — and whether two
// scans were taken alike enough to compare. The noise floors hold for re-captures within the jitter
// the validation measured (docs/skin-validation.md §Invariance); beyond it, a change of score may be
// the lamp rather than the skin, and the app says so instead of "better" or "worse".

import type { CaptureConditions } from './contract.ts';
import { linearRgbToXyz } from './colour.ts';

/** Beyond these differences two scans are not compared (see docs/skin-validation.md §Invariance). */
export const CONDITION_LIMITS = {
  /** Light on the face, stops (L* of the same skin under exposure ±20 % moves ≈ 0.26 stops). */
  lightStops: 0.5,
  /** Change of the light's slope across the face, stops (a ±10 % gradient is ≈ 0.1 across the cheeks). */
  gradientStops: 0.35,
  /** Colour temperature, mireds (1,000,000 / K): 40 mireds ≈ 5,000 K against 6,000 K. */
  mireds: 40,
  /** Distance: the face's size may differ by this factor. */
  faceSizeRatio: 1.35,
  /** Pose, degrees of yaw or pitch. */
  poseDegrees: 8,
} as const;

/** What differs between two scans' capture, in the order a visitor should fix it. */
export const CONDITION_DIFFERENCES = ['light', 'lightDirection', 'lightColour', 'distance', 'pose'] as const;
export type ConditionDifference = (typeof CONDITION_DIFFERENCES)[number];

const stops = (L1: number, L2: number) => 3 * Math.log2((L1 + 16) / (L2 + 16));

/** The differences between two scans' conditions beyond the limits (empty: comparable). */
export function conditionDifferences(before: CaptureConditions, after: CaptureConditions): ConditionDifference[] {
  const t = CONDITION_LIMITS;
  const out: ConditionDifference[] = [];
  if (Math.abs(stops(after.light, before.light)) > t.lightStops) out.push('light');
  if (
    Math.abs(after.gradient.horizontal - before.gradient.horizontal) > t.gradientStops ||
    Math.abs(after.gradient.vertical - before.gradient.vertical) > t.gradientStops
  )
    out.push('lightDirection');
  if (Math.abs(1e6 / after.colourTemperature - 1e6 / before.colourTemperature) > t.mireds) out.push('lightColour');
  const size = after.faceSize / before.faceSize;
  if (size > t.faceSizeRatio || size < 1 / t.faceSizeRatio) out.push('distance');
  if (
    Math.abs(after.pose.yaw - before.pose.yaw) > t.poseDegrees ||
    Math.abs(after.pose.pitch - before.pose.pitch) > t.poseDegrees
  )
    out.push('pose');
  return out;
}

/**
 * Correlated colour temperature of a linear-RGB colour (McCamy's cubic over its CIE 1931 xy), clamped
 * to 1,500–25,000 K. Of the photo's mean colour it estimates the light's, as grey-world does.
 */
export function colourTemperature([r, g, b]: readonly [number, number, number]): number {
  const [X, Y, Z] = linearRgbToXyz(r, g, b);
  const sum = X + Y + Z;
  if (sum <= 0) return 6500;
  const x = X / sum;
  const y = Y / sum;
  const n = (x - 0.332) / (0.1858 - y);
  const cct = 449 * n ** 3 + 3525 * n ** 2 + 6823.3 * n + 5520.33;
  return Math.min(25_000, Math.max(1_500, cct));
}
