import type { MetricId } from '@skanova/skin/contract';
import type { ConditionDifference, Place } from '@skanova/skin/trend';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';
import { type ChangeReading, lastComparableScan, readScans, realChanges } from '@skanova/shared/studio/reading';
import type { StepId } from '@skanova/shared/studio/routine-rules';
import { buildRoutine, stepsFor } from '@skanova/shared/studio/routines';
import { type ScanResult, type Score, newestFirst, standouts } from '@skanova/shared/studio/scan-results';

// The result's takeaways (docs/product/web-app.md#result): at most three lines a visitor can repeat —
// what stands out on this face today, what really changed since the last scan taken alike, and what
// to do next. Everything is read as every other screen reads it (shared reading.ts); the words are
// the page's (result.takeaways.*).

/** How many scores or changes a takeaway names; the others are counted and wait in the details. */
export const NAMED = 2;

export interface Today {
  /** The zone scores that stand out, most first (at most NAMED). */
  readonly standouts: readonly Score[];
  /** How many more stand out. */
  readonly more: number;
}

export type Since =
  /** No earlier scan on the device. */
  | { readonly kind: 'first' }
  /** The earlier scans were measured by another version of the analysis. */
  | { readonly kind: 'otherVersion' }
  /** The latest earlier scan was not taken alike, and no earlier one was: nothing is compared. */
  | { readonly kind: 'notAlike'; readonly takenAt: string; readonly differences: readonly ConditionDifference[] }
  /** Compared with the last scan taken alike: the real changes, most first (at most NAMED named). */
  | {
      readonly kind: 'compared';
      readonly takenAt: string;
      readonly named: readonly ChangeReading[];
      readonly more: number;
    };

export type Next =
  /** No questionnaire answered yet: the routine needs it (`metric`: what stands out most, if anything). */
  | { readonly kind: 'questionnaire'; readonly metric: MetricId | null }
  /** The routine, and the steps that answer what stands out most (none: the basics). */
  | { readonly kind: 'routine'; readonly metric: MetricId | null; readonly steps: readonly StepId[] };

export interface Takeaways {
  readonly today: Today;
  readonly since: Since;
  readonly next: Next;
  /** The scan compared with, and every change against it (empty when none). */
  readonly comparedWith: ScanResult | null;
  readonly changes: readonly ChangeReading[];
}

/**
 * The takeaways of `scan` among the device's `scans` (which may or may not hold it), with the
 * visitor's consultation profile when they answered the questionnaire.
 */
export function takeaways(
  scan: ScanResult,
  scans: readonly ScanResult[],
  profile: ConsultationProfile | undefined,
): Takeaways {
  const found = standouts(scan.analysis, Number.POSITIVE_INFINITY);
  const today: Today = { standouts: found.slice(0, NAMED), more: Math.max(0, found.length - NAMED) };

  const earlier = newestFirst(scans).filter((other) => other.id !== scan.id && other.takenAt < scan.takenAt);
  const comparedWith = lastComparableScan(earlier, scan) ?? null;
  const changes = comparedWith ? readScans(comparedWith.analysis, scan.analysis).changes : [];
  let since: Since;
  if (comparedWith) {
    const real = realChanges(changes);
    since = {
      kind: 'compared',
      takenAt: comparedWith.takenAt,
      named: real.slice(0, NAMED),
      more: Math.max(0, real.length - NAMED),
    };
  } else {
    const latest = earlier.find((other) => other.analysis.version === scan.analysis.version);
    since = !earlier[0]
      ? { kind: 'first' }
      : latest
        ? {
            kind: 'notAlike',
            takenAt: latest.takenAt,
            differences: readScans(latest.analysis, scan.analysis).differences,
          }
        : { kind: 'otherVersion' };
  }

  const metric = found[0]?.metric ?? null;
  let next: Next;
  if (!profile) next = { kind: 'questionnaire', metric };
  else {
    // The routine as it is with this scan the latest (a scan viewed later: the scans up to it).
    const routine = buildRoutine(profile, [...earlier, scan]);
    const steps = metric
      ? stepsFor(routine, (rule) =>
          rule.when.some((condition) => condition.kind === 'metric' && condition.metric === metric),
        )
      : [];
    next = { kind: 'routine', metric, steps: steps.map((entry) => entry.step.id as StepId) };
  }
  return { today, since, next, comparedWith, changes };
}

/** The change of `metric` in `place` against the scan compared with, if any. */
export function changeAt(found: Takeaways, metric: MetricId, place: Place): ChangeReading | undefined {
  return found.changes.find((reading) => reading.change.metric === metric && reading.change.place === place);
}
