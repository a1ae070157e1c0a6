import type { CaptureConditions, MetricId } from '../../packages/skin/src/contract.ts';
import type { JournalEntry, JournalTemplate } from '../../bench/lib/journal-seed.ts';

// A journal worth looking at, seeded (bench/lib/journal-seed.ts): six scans over six weeks that cross
// a new year, a week missing, the photo kept on some and only the preview on others, one scan taken
// under a lamp (not comparable) and real changes beyond the floor between the scans taken alike.
// The browser tests compute what the page must say from these entries, never from guesses.

const DAY = 86_400_000;

/** Wednesday 13 January 2027, 15:00 UTC: the same afternoon in Paris and Toronto. */
export const STORY_NOW = Date.UTC(2027, 0, 13, 15);

/** Days before STORY_NOW of each scan: 2 and 9 December, (none the week of 14 December), 23 and 30 December, 6 and 11 January. */
const DAYS_BEFORE = [42, 35, 21, 14, 7, 2];

type Scores = Record<MetricId, number>;

function moved(base: Partial<Scores>, change: Partial<Scores>): Scores {
  return Object.fromEntries(
    Object.entries(base).map(([metric, value]) => [
      metric,
      Math.min(100, Math.max(0, (value as number) + (change[metric as MetricId] ?? 0))),
    ]),
  ) as Scores;
}

export function journalStory(template: JournalTemplate): JournalEntry[] {
  const overall = template.analysis.overall as Scores;
  const zones = Object.fromEntries(template.analysis.zones.map((zone) => [zone.zone, zone.metrics]));
  const lamp: CaptureConditions = { ...template.analysis.conditions!, light: template.analysis.conditions!.light - 25 };
  const changes: { overall: Partial<Scores>; forehead: Partial<Scores>; keep: boolean; lamp?: boolean }[] = [
    { overall: {}, forehead: {}, keep: true },
    { overall: { redness: -0.5 }, forehead: {}, keep: false },
    { overall: { texture: 4 }, forehead: {}, keep: false },
    { overall: { redness: 7, texture: 4 }, forehead: { redness: 9 }, keep: true },
    { overall: { redness: 18, evenness: -12 }, forehead: { redness: 20 }, keep: false, lamp: true },
    { overall: { redness: 1, texture: 4, evenness: 5 }, forehead: { redness: 1 }, keep: true },
  ];
  return changes.map((change, index) => ({
    id: `story-${index}`,
    takenAt: new Date(STORY_NOW - DAYS_BEFORE[index]! * DAY).toISOString(),
    source: index % 2 === 0 ? 'camera' : 'upload',
    keepPhoto: change.keep,
    overall: moved(overall, change.overall),
    zones: { ...zones, forehead: moved(zones.forehead ?? {}, change.forehead) },
    ...(change.lamp ? { conditions: lamp } : {}),
  }));
}
