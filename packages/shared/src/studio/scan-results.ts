import { type AnalysisScores, METRIC_IDS, type MetricId, ZONE_IDS } from '@skanova/skin/contract';
import {
  HIGHER_IS_BETTER,
  LIGHT_DEPENDENT,
  type MetricChange,
  type Place,
  comparable,
  compareAnalyses,
} from '@skanova/skin/trend';

// What the consultation and the routine read of the visitor's saved scans: which zone scores stand
// out, what changed between two scans (judged against the measured noise floor, @skanova/skin/trend),
// and whether a change was fast and large enough to suggest seeing a dermatologist. Pure functions of
// the scans, so the same history always gives the same answers.

/** What these rules need of a saved scan (the web app's ScanRecord carries more). */
export interface ScanResult {
  readonly id: string;
  /** ISO 8601 UTC. */
  readonly takenAt: string;
  readonly analysis: AnalysisScores;
}

/**
 * From which score a metric is "marked" in a zone — what every screen calls "stands out" (reading.ts
 * readLevel, the one reading of a level): the routine adds a step for it and the consultation names the zone. About the upper quarter of what the analysis reads on the tuning photos
 * (docs/skin-analysis.md; packages/skin/test/faces and the first fixtures: 21 faces, 126 zone readings
 * each for redness and evenness): redness p75 28.5, evenness p25 98.4 (skin-9, which no longer counts
 * the dips on the edge of hair, brows and shadow as spots; 95.4 in skin-7 and skin-8, whose round step
 * below was 95, and 92.4 in skin-6, whose step was 90), texture p75 77.3 (skin-7; 74.0 in skin-6 and
 * 72.7 in skin-4, whose step was 70), shine
 * p75 12.9 (skin-5, 105 readings; 47.6 in skin-4, whose test of whiteness and steeper scale read more of a
 * lit nose as shine),
 * dark circles p75 51.8 (60: about 4 L* darker than the cheeks, a round step above it).
 * Evenness is the one metric where more is the aim: it is marked at this score or below.
 */
export const MARKED_FROM: Readonly<Record<MetricId, number>> = {
  redness: 30,
  evenness: 98,
  shine: 15,
  texture: 75,
  darkCircles: 60,
};

/**
 * A change that suggests seeing a dermatologist (docs/product/web-app.md#the-promise: "when something changes fast"):
 * a score moving the wrong way by at least `floorMultiple` times its noise floor — and by at least
 * `minPoints`, since some floors are a single point — between scans at most `withinDays` apart.
 */
export const FAST_CHANGE = { floorMultiple: 3, minPoints: 10, withinDays: 14 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** One metric's score in one place of one scan. */
export interface Score {
  readonly metric: MetricId;
  readonly place: Place;
  readonly value: number;
}

/** The scan's score of `metric` in `place` (a zone, or the whole face), if it reports it. */
export function scoreAt(analysis: AnalysisScores, metric: MetricId, place: Place): number | undefined {
  if (place === 'overall') return analysis.overall[metric];
  return analysis.zones.find((zone) => zone.zone === place)?.metrics[metric];
}

export function isMarked(metric: MetricId, value: number): boolean {
  return HIGHER_IS_BETTER[metric] ? value <= MARKED_FROM[metric] : value >= MARKED_FROM[metric];
}

/**
 * How far past its threshold a score is, comparable across metrics: 1 at the threshold, 2 when twice
 * as far from the metric's goal (0, or 100 for evenness).
 */
export function markedness(metric: MetricId, value: number): number {
  return HIGHER_IS_BETTER[metric]
    ? (100 - value) / Math.max(100 - MARKED_FROM[metric], 1)
    : value / Math.max(MARKED_FROM[metric], 1);
}

/** Every zone score of a scan, in the contract's order. */
export function zoneScores(analysis: AnalysisScores): Score[] {
  const scores: Score[] = [];
  for (const zone of ZONE_IDS) {
    const metrics = analysis.zones.find((result) => result.zone === zone)?.metrics;
    if (!metrics) continue;
    for (const metric of METRIC_IDS) {
      const value = metrics[metric];
      if (value !== undefined) scores.push({ metric, place: zone, value });
    }
  }
  return scores;
}

const byMarkedness = (a: Score, b: Score) => markedness(b.metric, b.value) - markedness(a.metric, a.value);

/** The zone scores past their threshold, most marked first. */
export function standouts(analysis: AnalysisScores, limit = 3): Score[] {
  return zoneScores(analysis)
    .filter((score) => isMarked(score.metric, score.value))
    .sort(byMarkedness)
    .slice(0, limit);
}

/** The most marked zone score, past its threshold or not. */
export function mostMarked(analysis: AnalysisScores): Score | undefined {
  return zoneScores(analysis).sort(byMarkedness)[0];
}

/** The zone where `metric` is most marked. */
export function mostMarkedZone(analysis: AnalysisScores, metric: MetricId): Score | undefined {
  return zoneScores(analysis)
    .filter((score) => score.metric === metric)
    .sort(byMarkedness)[0];
}

/** Newest first, whatever order the scans came in. */
export function newestFirst(scans: readonly ScanResult[]): ScanResult[] {
  return [...scans].sort((a, b) => b.takenAt.localeCompare(a.takenAt));
}

export function latestScan(scans: readonly ScanResult[]): ScanResult | undefined {
  return newestFirst(scans)[0];
}

/** Whole days between two moments (rounded). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}

/** The newest scan against the one before it. */
export interface ScanComparison {
  readonly before: ScanResult;
  readonly after: ScanResult;
  readonly days: number;
  /** False when the two scans were measured by different versions of the analysis. */
  readonly comparable: boolean;
  /** Every metric both report, face-wide then by zone (empty when not comparable). */
  readonly changes: readonly MetricChange[];
}

export function compareLatest(scans: readonly ScanResult[]): ScanComparison | undefined {
  const [after, before] = newestFirst(scans);
  if (!after || !before) return undefined;
  return {
    before,
    after,
    days: daysBetween(before.takenAt, after.takenAt),
    comparable: comparable(before.analysis, after.analysis),
    changes: compareAnalyses(before.analysis, after.analysis),
  };
}

/** How significant a change is: its size in noise floors. */
export function floorsMoved(change: MetricChange): number {
  return Math.abs(change.delta) / change.floor;
}

/** A change that suggests seeing a dermatologist, with the two scans it happened between. */
export interface FastChange {
  readonly change: MetricChange;
  readonly before: ScanResult;
  readonly after: ScanResult;
  readonly days: number;
}

/**
 * The fast large changes (FAST_CHANGE) between the newest scan and each earlier scan taken within
 * `withinDays` before it: the largest per metric and place, largest first. Only changes the wrong way
 * between comparable scans count (verdict 'worse': same analysis version and photos taken alike — a
 * change between photos of another light, distance or pose is 'unsure'; an improvement is no reason to
 * worry). A light-dependent metric (shine, dark circles: LIGHT_DEPENDENT) moves with the lamp: it is
 * listed beside another metric's fast change, after it, but never raises the prompt on its own.
 */
export function fastChanges(scans: readonly ScanResult[]): FastChange[] {
  const [after, ...earlier] = newestFirst(scans);
  if (!after) return [];
  const found = new Map<string, FastChange>();
  for (const before of earlier) {
    const days = daysBetween(before.takenAt, after.takenAt);
    if (Date.parse(after.takenAt) - Date.parse(before.takenAt) > FAST_CHANGE.withinDays * DAY_MS) break;
    for (const change of compareAnalyses(before.analysis, after.analysis)) {
      const large = Math.abs(change.delta) >= Math.max(FAST_CHANGE.floorMultiple * change.floor, FAST_CHANGE.minPoints);
      if (change.verdict !== 'worse' || !large) continue;
      const id = `${change.metric}/${change.place}`;
      const known = found.get(id);
      if (!known || Math.abs(change.delta) > Math.abs(known.change.delta))
        found.set(id, { change, before, after, days });
    }
  }
  const lightDependent = (fast: FastChange) => LIGHT_DEPENDENT.has(fast.change.metric);
  const all = [...found.values()];
  if (all.every(lightDependent)) return [];
  return all.sort(
    (a, b) =>
      Number(lightDependent(a)) - Number(lightDependent(b)) || Math.abs(b.change.delta) - Math.abs(a.change.delta),
  );
}
