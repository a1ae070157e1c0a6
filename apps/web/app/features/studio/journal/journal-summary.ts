import type { MetricId } from '@skanova/skin/contract';
import type { ConditionDifference } from '@skanova/skin/conditions';
import type { Place } from '@skanova/skin/trend';
import {
  type ChangeReading,
  lastComparableScan,
  readChange,
  readScans,
  realChanges,
} from '@skanova/shared/studio/reading';
import {
  type CalendarDate,
  type JournalScan,
  PLACES,
  type Series,
  addDays,
  buildSeries,
  daysBetween,
  localMoment,
  metricsAt,
  weekdayOf,
} from './journal-model';

// What the journal says first (docs/product/web-app.md#journal): how many scans this month, how many
// weeks in a row, and what really changed between the newest scan and the last one taken alike — read
// with the shared reading of a change (packages/shared/src/studio/reading.ts), never re-derived. Then
// the small multiples' series and each scan card's notable changes. Pure functions of the scans, the
// moment and the visitor's time zone, tested on fixed histories (journal-summary.test.ts).

/** The scans taken in the visitor's current calendar month (their local time). */
export function scansThisMonth(scans: readonly JournalScan[], now: Date, timeZone: string): number {
  const today = localMoment(now, timeZone).date;
  return scans.filter((scan) => {
    const day = localMoment(new Date(scan.takenAt), timeZone).date;
    return day.year === today.year && day.month === today.month;
  }).length;
}

/** The Monday of the week `date` is in (weeks run Monday to Sunday). */
export function mondayOf(date: CalendarDate): CalendarDate {
  return addDays(date, -((weekdayOf(date) + 6) % 7));
}

/**
 * Weeks in a row: the number of consecutive calendar weeks (Monday to Sunday, the visitor's local
 * time) with at least one scan, ending with this week — or with last week while this week has no scan
 * yet (the streak is not lost before the week is over). 0 when neither this week nor last week has one.
 */
export function weeksInARow(scans: readonly JournalScan[], now: Date, timeZone: string): number {
  const weeks = new Set(
    scans.map((scan) => {
      const monday = mondayOf(localMoment(new Date(scan.takenAt), timeZone).date);
      return daysBetween({ year: 1970, month: 1, day: 5 }, monday) / 7;
    }),
  );
  const thisWeek = daysBetween({ year: 1970, month: 1, day: 5 }, mondayOf(localMoment(now, timeZone).date)) / 7;
  let week = weeks.has(thisWeek) ? thisWeek : thisWeek - 1;
  let count = 0;
  while (weeks.has(week)) {
    count++;
    week--;
  }
  return count;
}

/** What the newest scan says against the last one it can be compared with. */
export type LatestChanges =
  /** One scan so far: nothing to compare. */
  | { readonly status: 'first'; readonly latest: JournalScan }
  /**
   * No earlier scan was taken alike: compared with the previous scan, every change beyond the floor is
   * "not comparable" — because the analysis differs (`otherAnalysis`) or the photos (`differences`).
   */
  | {
      readonly status: 'notComparable';
      readonly latest: JournalScan;
      readonly previous: JournalScan;
      readonly otherAnalysis: boolean;
      readonly differences: readonly ConditionDifference[];
    }
  /** Against the last scan taken alike: the changes beyond the floor (empty: no real change). */
  | {
      readonly status: 'compared';
      readonly latest: JournalScan;
      readonly previous: JournalScan;
      readonly real: readonly ChangeReading[];
      /** How many scores both scans report. */
      readonly total: number;
    };

function newestFirst<Scan extends JournalScan>(scans: readonly Scan[]): Scan[] {
  return [...scans].sort((a, b) => (a.takenAt < b.takenAt ? 1 : a.takenAt > b.takenAt ? -1 : 0));
}

/** The changes of `scan` against the last earlier scan taken alike, or why there is none. */
export function changesOf<Scan extends JournalScan>(scans: readonly Scan[], scan: Scan): LatestChanges | undefined {
  const older = newestFirst(scans).filter((earlier) => earlier.takenAt < scan.takenAt && earlier.id !== scan.id);
  const previous = older[0];
  if (!previous) return { status: 'first', latest: scan };
  const comparable = lastComparableScan(older, scan);
  if (!comparable) {
    const reading = readScans(previous.analysis, scan.analysis);
    return {
      status: 'notComparable',
      latest: scan,
      previous,
      otherAnalysis: !reading.sameAnalysis,
      differences: reading.differences,
    };
  }
  const reading = readScans(comparable.analysis, scan.analysis);
  return {
    status: 'compared',
    latest: scan,
    previous: comparable,
    real: realChanges(reading.changes),
    total: reading.changes.length,
  };
}

/** The summary's changes: the newest scan against the last one taken alike (undefined with no scan). */
export function latestChanges<Scan extends JournalScan>(scans: readonly Scan[]): LatestChanges | undefined {
  const latest = newestFirst(scans)[0];
  return latest ? changesOf(scans, latest) : undefined;
}

/** A scan card's notable changes: at most `limit` real changes against its last comparable scan. */
export function notableChanges<Scan extends JournalScan>(
  scans: readonly Scan[],
  scan: Scan,
  limit = 3,
): LatestChanges | undefined {
  const changes = changesOf(scans, scan);
  return changes?.status === 'compared' ? { ...changes, real: changes.real.slice(0, limit) } : changes;
}

/** Small multiples: one small trend per zone for a metric, or per metric for a zone. */
export type MultiplesBy = 'zone' | 'metric';

export interface SmallMultiple {
  readonly series: Series;
  /** The latest score against the first of the series, as every screen reads it (none with one point). */
  readonly sinceFirst?: ChangeReading;
}

/** The places where `metric` is measured (the whole face first), each one a small trend. */
export function placesOf(metric: MetricId): Place[] {
  return PLACES.filter((place) => metricsAt(place).includes(metric));
}

/**
 * The small multiples' data: by zone, the series of `metric` in every place that measures it; by
 * metric, the series of every metric measured in `place`. Places or metrics no scan reports are left out.
 */
export function smallMultiples(
  scans: readonly JournalScan[],
  choice: { by: 'zone'; metric: MetricId } | { by: 'metric'; place: Place },
): SmallMultiple[] {
  const series =
    choice.by === 'zone'
      ? placesOf(choice.metric).map((place) => buildSeries(scans, place, choice.metric))
      : metricsAt(choice.place).map((metric) => buildSeries(scans, choice.place, metric));
  return series
    .filter((one) => one.points.length > 0)
    .map((one) => (one.sinceFirst ? { series: one, sinceFirst: readChange(one.sinceFirst) } : { series: one }));
}
