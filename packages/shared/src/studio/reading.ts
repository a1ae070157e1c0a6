import type { MetricId } from '@skanova/skin/contract';
import {
  type ConditionDifference,
  HIGHER_IS_BETTER,
  type MetricChange,
  type Place,
  captureDifferences,
  comparable,
  compareAnalyses,
} from '@skanova/skin/trend';
import { MARKED_FROM, type ScanResult, isMarked, newestFirst } from './scan-results.ts';

// One reading of a score everywhere (docs/product/web-app.md#one-reading-of-a-score): what a score
// says and how it changed, in the same words on the result, the journal, the comparison, the
// consultation and the routine. A level either stands out on this face (one threshold rule,
// scan-results MARKED_FROM) or says nothing more than its number; a change is "no real change" within
// the metric's measured noise floor, "better" or "worse" beyond it between scans taken alike, and
// "not comparable" when the two photos were not taken alike (@skanova/skin/trend decides all three).
// The words are i18n keys of the `studio` namespace, group `reading`.

/** Which way a metric's cosmetic aim lies: lower for every metric but evenness. */
export type Aim = 'lower' | 'higher';

export function aimOf(metric: MetricId): Aim {
  return HIGHER_IS_BETTER[metric] ? 'higher' : 'lower';
}

/** What a higher score shows, as a sentence: "Higher means more redness." (`reading.higher.<metric>`). */
export function higherMeansKey(metric: MetricId): string {
  return `reading.higher.${metric}`;
}

/** A score's movement in words: "more redness", "less even" (`reading.moved.<metric>.<up|down>`). */
export function movementKey(metric: MetricId, direction: 'up' | 'down'): string {
  return `reading.moved.${metric}.${direction}`;
}

/** The level of one score in one place of a scan. */
export interface LevelReading {
  readonly metric: MetricId;
  readonly place: Place;
  readonly value: number;
  /** The score stands out on this face (past `threshold`, in the metric's direction). */
  readonly standsOut: boolean;
  /** From which score it stands out (at it or above; at it or below for evenness). */
  readonly threshold: number;
  readonly aim: Aim;
  /** The level in words: `reading.level.standsOut`, or `reading.level.usual` (the screens say nothing). */
  readonly key: string;
  /** From where it stands out, in words: `reading.threshold.<aim>` with `{{threshold}}`. */
  readonly thresholdKey: string;
}

export function readLevel(metric: MetricId, place: Place, value: number): LevelReading {
  const standsOut = isMarked(metric, value);
  const aim = aimOf(metric);
  return {
    metric,
    place,
    value,
    standsOut,
    threshold: MARKED_FROM[metric],
    aim,
    key: standsOut ? 'reading.level.standsOut' : 'reading.level.usual',
    thresholdKey: `reading.threshold.${aim}`,
  };
}

/**
 * What a change says: no real change (within the floor), better or worse (beyond it, between scans
 * taken alike), or not comparable (beyond it, between photos taken in another light, at another
 * distance or angle: the change may be the photo).
 */
export type ChangeKind = 'noRealChange' | 'better' | 'worse' | 'notComparable';

export interface ChangeReading {
  readonly change: MetricChange;
  readonly kind: ChangeKind;
  /** The kind in words: `reading.change.<kind>`. */
  readonly key: string;
  /** The movement in words ("less redness") when the score moved beyond its floor; null within it. */
  readonly movementKey: string | null;
  /** What differed between the two photos, when the change is not comparable. */
  readonly differences: readonly ConditionDifference[];
  /**
   * The one change a screen may colour: beyond the floor between scans taken alike. A level is never
   * coloured, nor a change that is not real or not comparable.
   */
  readonly tone: 'better' | 'worse' | null;
}

const KIND_OF_VERDICT = {
  stable: 'noRealChange',
  better: 'better',
  worse: 'worse',
  unsure: 'notComparable',
} as const satisfies Record<MetricChange['verdict'], ChangeKind>;

export function readChange(change: MetricChange): ChangeReading {
  const kind = KIND_OF_VERDICT[change.verdict];
  return {
    change,
    kind,
    key: `reading.change.${kind}`,
    movementKey: change.direction === 'stable' ? null : movementKey(change.metric, change.direction),
    differences: kind === 'notComparable' ? change.differences : [],
    tone: kind === 'better' || kind === 'worse' ? kind : null,
  };
}

/** Two scans read against each other. */
export interface ScansReading {
  /** False when their analyses used different definitions: nothing is compared (`changes` is empty). */
  readonly sameAnalysis: boolean;
  /** What differed between the two photos (empty: taken alike, every change can be judged). */
  readonly differences: readonly ConditionDifference[];
  /** Every score both report, face-wide first then zone by zone. */
  readonly changes: readonly ChangeReading[];
}

export function readScans(before: ScanResult['analysis'], after: ScanResult['analysis']): ScansReading {
  const sameAnalysis = comparable(before, after);
  return {
    sameAnalysis,
    differences: sameAnalysis ? captureDifferences(before, after) : [],
    changes: compareAnalyses(before, after).map(readChange),
  };
}

/** The changes beyond their floor (better, worse or not comparable), largest first relative to their floor. */
export function realChanges(changes: readonly ChangeReading[]): ChangeReading[] {
  return changes
    .filter((reading) => reading.kind !== 'noRealChange')
    .sort((a, b) => Math.abs(b.change.delta) / b.change.floor - Math.abs(a.change.delta) / a.change.floor);
}

/**
 * The newest scan taken before `scan` that it can be compared with like with like: the same analysis
 * and photos taken alike (the same light, distance and angle: @skanova/skin/trend captureDifferences).
 */
export function lastComparableScan<Scan extends ScanResult>(
  scans: readonly Scan[],
  scan: Pick<ScanResult, 'id' | 'takenAt' | 'analysis'>,
): Scan | undefined {
  return newestFirst(scans).find(
    (earlier) =>
      earlier.id !== scan.id &&
      earlier.takenAt < scan.takenAt &&
      comparable(earlier.analysis, scan.analysis) &&
      captureDifferences(earlier.analysis, scan.analysis).length === 0,
  ) as Scan | undefined;
}
