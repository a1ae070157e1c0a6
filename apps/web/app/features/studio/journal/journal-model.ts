import { type AnalysisScores, METRIC_IDS, type MetricId, ZONE_IDS } from '@skanova/skin/contract';
import { CONDITION_DIFFERENCES, type ConditionDifference } from '@skanova/skin/conditions';
import {
  type MetricChange,
  type Place,
  type Verdict,
  captureDifferences,
  compareAnalyses,
  compareMetric,
  noiseFloor,
} from '@skanova/skin/trend';

// The journal's arithmetic, pure and tested on fixed scan histories (journal-model.test.ts): one
// metric's series over the saved scans, each step judged against the metric's measured noise floor
// (@skanova/skin/trend: a change below the floor is "stable", never better or worse; beyond it between
// two photos not taken alike — another light, distance or pose — it is "unsure", neither better nor
// worse), the changes between two scans, and when the next weekly scan is due.

/** What the journal reads of a saved scan. */
export interface JournalScan {
  readonly id: string;
  /** ISO 8601 UTC. */
  readonly takenAt: string;
  readonly analysis: AnalysisScores;
}

/** The places a trend can follow: the face as a whole, then each zone in the contract's order. */
export const PLACES: readonly Place[] = ['overall', ...ZONE_IDS];

/** The spec recommends one scan a week. */
export const SCAN_INTERVAL_DAYS = 7;

/** The metrics measured in `place` (those with a measured noise floor there): the eye area has no shine, etc. */
export function metricsAt(place: Place): MetricId[] {
  return METRIC_IDS.filter((metric) => noiseFloor(metric, place) !== undefined);
}

/** One score of an analysis, or undefined when the zone was not measured. */
export function scoreOf(analysis: AnalysisScores, place: Place, metric: MetricId): number | undefined {
  if (place === 'overall') return analysis.overall[metric];
  return analysis.zones.find((zone) => zone.zone === place)?.metrics[metric];
}

export interface SeriesPoint {
  readonly id: string;
  readonly takenAt: string;
  readonly value: number;
  /** The change since the previous point (none on the first). */
  readonly change?: MetricChange;
}

export interface Series {
  readonly place: Place;
  readonly metric: MetricId;
  readonly floor: number;
  /** Oldest first. */
  readonly points: readonly SeriesPoint[];
  /** Latest against the one before (when there are two points or more). */
  readonly sincePrevious?: MetricChange;
  /** Latest against the first. */
  readonly sinceFirst?: MetricChange;
  /** Scans left out: analysed with other definitions than the latest, or with this zone not measured. */
  readonly leftOut: number;
}

/**
 * The series of `metric` in `place` over `scans` (any order), oldest first. Only the scans analysed
 * with the latest scan's definitions count (scores of another analysis version mean other things).
 */
export function buildSeries(scans: readonly JournalScan[], place: Place, metric: MetricId): Series {
  // ISO 8601 UTC strings sort as text (no collation needed).
  const ordered = [...scans].sort((a, b) => (a.takenAt < b.takenAt ? -1 : a.takenAt > b.takenAt ? 1 : 0));
  const version = ordered[ordered.length - 1]?.analysis.version;
  const points: SeriesPoint[] = [];
  const counted: JournalScan[] = [];
  for (const scan of ordered) {
    const value = scan.analysis.version === version ? scoreOf(scan.analysis, place, metric) : undefined;
    if (value === undefined) continue;
    const previous = points[points.length - 1];
    const differences = previous ? captureDifferences(counted[counted.length - 1]!.analysis, scan.analysis) : [];
    points.push({
      id: scan.id,
      takenAt: scan.takenAt,
      value,
      ...(previous ? { change: compareMetric(metric, place, previous.value, value, differences) } : {}),
    });
    counted.push(scan);
  }
  const first = points[0];
  const latest = points[points.length - 1];
  const sinceFirst =
    first && latest && points.length > 1
      ? compareMetric(
          metric,
          place,
          first.value,
          latest.value,
          captureDifferences(counted[0]!.analysis, counted[counted.length - 1]!.analysis),
        )
      : undefined;
  return {
    place,
    metric,
    floor: compareMetric(metric, place, 0, 0).floor,
    points,
    ...(latest?.change ? { sincePrevious: latest.change } : {}),
    ...(sinceFirst ? { sinceFirst } : {}),
    leftOut: ordered.length - points.length,
  };
}

export type ChangeCounts = Readonly<Record<Verdict, number>>;

/** How many changes are better, worse, stable, or unsure (beyond the floor between photos not taken alike: neither). */
export function countVerdicts(changes: readonly MetricChange[]): ChangeCounts {
  const counts: Record<Verdict, number> = { better: 0, worse: 0, stable: 0, unsure: 0 };
  for (const change of changes) counts[change.verdict]++;
  return counts;
}

/** What differed between the captures behind `changes`, each kind once, in the order to fix it. */
export function differencesOf(changes: readonly MetricChange[]): ConditionDifference[] {
  const found = new Set(changes.flatMap((change) => change.differences));
  return CONDITION_DIFFERENCES.filter((difference) => found.has(difference));
}

/**
 * Every change between two scans, the older one first whatever the order given; empty when their
 * analyses used different definitions.
 */
export function changesBetween<Scan extends JournalScan>(
  a: Scan,
  b: Scan,
): { before: Scan; after: Scan; changes: MetricChange[] } {
  const [before, after] = a.takenAt <= b.takenAt ? [a, b] : [b, a];
  return { before, after, changes: compareAnalyses(before.analysis, after.analysis) };
}

/** The changes beyond the floor (better, worse or unsure), largest first relative to their floor. */
export function realChanges(changes: readonly MetricChange[]): MetricChange[] {
  return changes
    .filter((change) => change.verdict !== 'stable')
    .sort((a, b) => Math.abs(b.delta) / b.floor - Math.abs(a.delta) / a.floor);
}

/** A day of the calendar (month 1–12), without a time or a zone. */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const DAY_MS = 86_400_000;

/** The calendar day and the minutes since midnight of `instant` on a clock in `timeZone`. */
const zoneClocks = new Map<string, Intl.DateTimeFormat>();

export function localMoment(instant: Date, timeZone: string): { date: CalendarDate; minutes: number } {
  const parts: Record<string, number> = {};
  let format = zoneClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    zoneClocks.set(timeZone, format);
  }
  for (const part of format.formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    date: { year: parts.year!, month: parts.month!, day: parts.day! },
    minutes: parts.hour! * 60 + parts.minute!,
  };
}

/** Days since 1970-01-01 of a calendar day (to count and add days whatever the zone's offsets). */
function dayNumber(date: CalendarDate): number {
  return Math.round(Date.UTC(date.year, date.month - 1, date.day) / DAY_MS);
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const moved = new Date((dayNumber(date) + days) * DAY_MS);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** b − a in days. */
export function daysBetween(a: CalendarDate, b: CalendarDate): number {
  return dayNumber(b) - dayNumber(a);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: CalendarDate): number {
  return new Date(dayNumber(date) * DAY_MS).getUTCDay();
}

export type DueStatus = 'upcoming' | 'today' | 'overdue';

export interface NextScan {
  /** A week after the latest scan's day, on the visitor's calendar. */
  readonly due: CalendarDate;
  readonly today: CalendarDate;
  readonly status: DueStatus;
  /** Days until the due day (upcoming) or since it (overdue); 0 today. */
  readonly days: number;
}

/** When the next weekly scan is due, in calendar days of the visitor's time zone. */
export function nextScanDue(latestTakenAt: string, now: Date, timeZone: string): NextScan {
  const due = addDays(localMoment(new Date(latestTakenAt), timeZone).date, SCAN_INTERVAL_DAYS);
  const today = localMoment(now, timeZone).date;
  const until = daysBetween(today, due);
  return {
    due,
    today,
    status: until > 0 ? 'upcoming' : until === 0 ? 'today' : 'overdue',
    days: Math.abs(until),
  };
}

export interface ReminderTime {
  readonly hour: number;
  readonly minute: number;
}

/** The reminder's default time of day: a morning hour, before most people leave home. */
export const DEFAULT_REMINDER_TIME: ReminderTime = { hour: 9, minute: 0 };

/**
 * The first weekly reminder: on the due day at `time`, or — when the scan is already overdue — from
 * today; a moment already past today moves a week on, so the first reminder is always ahead.
 */
export function firstReminder(next: NextScan, nowMinutes: number, time: ReminderTime): CalendarDate {
  const first = next.status === 'overdue' ? next.today : next.due;
  const past = daysBetween(next.today, first) === 0 && time.hour * 60 + time.minute <= nowMinutes;
  return past ? addDays(first, SCAN_INTERVAL_DAYS) : first;
}

export interface TimeTicks {
  /** Local midnights, ascending. */
  readonly ticks: readonly number[];
  /** Weeks (Mondays), months (first days) or years (the first of January). */
  readonly unit: 'week' | 'month' | 'year';
}

/**
 * Where the time axis of a trend is labelled, at most `maxLabels` times: Mondays every 1, 2, 4 or 8
 * weeks for a short history; then the first day of every 1, 2, 3 or 6 months (January, April, July,
 * October for 3); then the first of January of every 1, 2 or 5 years. Local time.
 */
export function timeTicks(from: number, to: number, maxLabels: number): TimeTicks {
  const limit = Math.max(1, maxLabels);
  const monday = new Date(from);
  monday.setHours(0, 0, 0, 0);
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  const weeks = Math.ceil((to - monday.getTime()) / (7 * DAY_MS));
  const weekStep = [1, 2, 4, 8].find((step) => weeks / step <= limit);
  const collect = (next: (index: number) => Date) => {
    const ticks: number[] = [];
    for (let index = 0; ; index++) {
      const tick = next(index).getTime();
      if (tick > to) break;
      if (tick >= from - 7 * DAY_MS) ticks.push(tick);
    }
    return ticks;
  };
  if (weekStep)
    return {
      unit: 'week',
      ticks: collect(
        (index) => new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + index * weekStep * 7),
      ),
    };
  const start = new Date(from);
  const months =
    (new Date(to).getFullYear() - start.getFullYear()) * 12 + new Date(to).getMonth() - start.getMonth() + 1;
  const monthStep = [1, 2, 3, 6].find((step) => months / step <= limit);
  if (monthStep) {
    // The first month on the step's grid (January, April … for 3) from the history's first month.
    const first = Math.ceil(start.getMonth() / monthStep) * monthStep;
    return {
      unit: 'month',
      ticks: collect((index) => new Date(start.getFullYear(), first + index * monthStep, 1)),
    };
  }
  const years = new Date(to).getFullYear() - start.getFullYear() + 1;
  const yearStep = [1, 2, 5, 10].find((step) => years / step <= limit) ?? Math.ceil(years / limit);
  const firstYear = Math.ceil((start.getFullYear() + 1) / yearStep) * yearStep;
  return { unit: 'year', ticks: collect((index) => new Date(firstYear + index * yearStep, 0, 1)) };
}

/** The score axis: a range of at least `minSpan` points around the values (and the floor band), in whole steps of 5, within 0–100. */
export function scoreAxis(values: readonly number[], minSpan = 20): { min: number; max: number; step: number } {
  if (values.length === 0) return { min: 0, max: 100, step: 20 };
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < minSpan) {
    const middle = (low + high) / 2;
    low = middle - minSpan / 2;
    high = middle + minSpan / 2;
  }
  const step = high - low > 50 ? 20 : high - low > 25 ? 10 : 5;
  let min = Math.max(0, Math.floor(low / step) * step);
  let max = Math.min(100, Math.ceil(high / step) * step);
  if (max - min < minSpan) {
    if (min === 0) max = Math.min(100, min + Math.ceil(minSpan / step) * step);
    else min = Math.max(0, max - Math.ceil(minSpan / step) * step);
  }
  return { min, max, step };
}
