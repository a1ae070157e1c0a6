import { conditionDifferences, type ConditionDifference } from './conditions.ts';
import { type AnalysisScores, METRIC_IDS, type MetricId, ZONE_IDS, type ZoneId } from './contract.ts';
import floors from './data/noise-floors.json' with { type: 'json' };

/** What differed between two captures: the type `captureDifferences` and `MetricChange` carry (ADR 021). */
export type { ConditionDifference };

// How a metric changed between two scans, judged against its measured noise floor (docs/product/web-app.md#the-promise,
// §7; docs/skin-analysis.md "Noise floor"). A change smaller than the floor is "stable" — never better
// or worse: re-taking the same photo moves a score that much.

/** Where a value was measured: one zone, or the face as a whole (`Analysis.overall`). */
export type Place = ZoneId | 'overall';

/**
 * Whether a higher score is the cosmetic goal. Every metric reads "more of what the name says"; only
 * for evenness is more the aim (a more uniform skin); for the others less is.
 */
export const HIGHER_IS_BETTER: Readonly<Record<MetricId, boolean>> = {
  redness: false,
  evenness: true,
  shine: false,
  texture: false,
  darkCircles: false,
};

/**
 * The smallest floor used. Scores are shown as whole numbers, so a change under one point is never
 * shown as a change, even where the benchmark measured less (chin shine measured 0.0: almost no
 * highlight in any re-capture).
 */
export const MIN_NOISE_FLOOR = 1;

type FloorTable = Partial<Record<MetricId, number>>;
const OVERALL: FloorTable = floors.overall;
const ZONES: Partial<Record<ZoneId, FloorTable>> = floors.zones;

/** The analysis version the floors were measured for; scans of another version are not compared. */
export const FLOORS_ANALYSIS_VERSION: string = floors.analysisVersion;

/** The noise floor of `metric` in `place`, or undefined when that zone does not report the metric. */
export function noiseFloor(metric: MetricId, place: Place): number | undefined {
  const measured = place === 'overall' ? OVERALL[metric] : ZONES[place]?.[metric];
  return measured === undefined ? undefined : Math.max(measured, MIN_NOISE_FLOOR);
}

/**
 * Metrics that depend on the light's direction and strength (docs/skin-analysis.md §Metrics): a change
 * of one of them alone never raises the "see a dermatologist" prompt.
 */
export const LIGHT_DEPENDENT: ReadonlySet<MetricId> = new Set<MetricId>(['shine', 'darkCircles']);

export type Direction = 'stable' | 'up' | 'down';
/**
 * 'unsure': the score moved beyond its floor, but the two photos were not taken alike (another light,
 * distance or pose: `differences`), so the change may be the capture rather than the skin.
 */
export type Verdict = 'stable' | 'better' | 'worse' | 'unsure';

export interface MetricChange {
  readonly metric: MetricId;
  readonly place: Place;
  readonly before: number;
  readonly after: number;
  /** after − before, in points of the 0–100 scale. */
  readonly delta: number;
  readonly floor: number;
  /** The score's movement: 'stable' when |delta| is below the floor. */
  readonly direction: Direction;
  /** What the movement means cosmetically ('stable' exactly when direction is). */
  readonly verdict: Verdict;
  /** What differed between the two captures (empty: taken alike). */
  readonly differences: readonly ConditionDifference[];
}

/**
 * The change of one metric in one place. A change is real only when it reaches the floor
 * (|delta| ≥ floor); below it, the metric is stable.
 */
export function compareMetric(
  metric: MetricId,
  place: Place,
  before: number,
  after: number,
  differences: readonly ConditionDifference[] = [],
): MetricChange {
  const floor = noiseFloor(metric, place) ?? MIN_NOISE_FLOOR;
  const delta = after - before;
  // The tolerance keeps a change of exactly the floor a change despite binary rounding (30 + 4.8 − 30).
  const direction: Direction = Math.abs(delta) < floor - 1e-9 ? 'stable' : delta > 0 ? 'up' : 'down';
  const verdict: Verdict =
    direction === 'stable'
      ? 'stable'
      : differences.length > 0
        ? 'unsure'
        : (direction === 'up') === HIGHER_IS_BETTER[metric]
          ? 'better'
          : 'worse';
  return { metric, place, before, after, delta, floor, direction, verdict, differences };
}

/** Two analyses can be compared only when both used the same definitions. */
export function comparable(before: AnalysisScores, after: AnalysisScores): boolean {
  return before.version === after.version;
}

/** What differed between two analyses' captures (empty when alike, or when either has no record of it). */
export function captureDifferences(before: AnalysisScores, after: AnalysisScores): ConditionDifference[] {
  return before.conditions && after.conditions ? conditionDifferences(before.conditions, after.conditions) : [];
}

/**
 * Every metric both analyses report, face-wide first and then zone by zone, in the contract's order.
 * Returns an empty list when the analyses are of different versions (their scores mean different
 * things). When the captures differ (`captureDifferences`), a change beyond the floor is 'unsure'.
 */
export function compareAnalyses(before: AnalysisScores, after: AnalysisScores): MetricChange[] {
  if (!comparable(before, after)) return [];
  const differences = captureDifferences(before, after);
  const changes: MetricChange[] = [];
  const add = (metric: MetricId, place: Place, old: number | undefined, value: number | undefined) => {
    if (old !== undefined && value !== undefined) changes.push(compareMetric(metric, place, old, value, differences));
  };
  for (const metric of METRIC_IDS) add(metric, 'overall', before.overall[metric], after.overall[metric]);
  for (const zone of ZONE_IDS) {
    const old = before.zones.find((result) => result.zone === zone)?.metrics;
    const now = after.zones.find((result) => result.zone === zone)?.metrics;
    if (old && now) for (const metric of METRIC_IDS) add(metric, zone, old[metric], now[metric]);
  }
  return changes;
}
