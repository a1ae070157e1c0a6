import { describe, expect, it } from 'vitest';
import { noiseFloor } from '@skanova/skin/trend';
import { MARKED_FROM } from '@skanova/shared/studio/scan-results';
import { WINDOW_CONDITIONS, analysisWith, profileOf, scanOf } from '@skanova/shared/studio/test-support';
import { changeAt, takeaways } from './takeaways';

// The result's three takeaways on fixed histories: what stands out today, what really changed since
// the last scan taken alike, and what to do next — read as every other screen reads them.

const DAY = '2026-12-09T10:00:00.000Z';
/** The test photo's scores: the nose's shine (49.6) is the one score that stands out. */
const TODAY = scanOf('today', DAY);
const NOSE_SHINE = noiseFloor('shine', 'nose')!;

/** A scan of analysis skin-3 taken in `conditions`. */
function taken(
  id: string,
  takenAt: string,
  changes: Parameters<typeof analysisWith>[0] = {},
  conditions = WINDOW_CONDITIONS,
) {
  return { id, takenAt, analysis: { ...analysisWith(changes, 'skin-3'), conditions } };
}

describe('the result’s takeaways', () => {
  it('on a first scan: what stands out, that it is the first, and the questionnaire for a routine', () => {
    const found = takeaways(TODAY, [], undefined);
    expect(found.today.standouts.map((score) => `${score.place}/${score.metric}`)).toEqual(['nose/shine']);
    expect(found.today.more).toBe(0);
    expect(found.since).toEqual({ kind: 'first' });
    expect(found.next).toEqual({ kind: 'questionnaire', metric: 'shine' });
    expect(found.comparedWith).toBeNull();
  });

  it('name two scores that stand out at most, the most marked first, and count the others', () => {
    const scan = scanOf('busy', DAY, {
      forehead: { redness: MARKED_FROM.redness + 20 },
      chin: { evenness: MARKED_FROM.evenness - 30 },
      leftCheek: { texture: MARKED_FROM.texture + 1 },
    });
    const { today } = takeaways(scan, [], undefined);
    // The test photo's nose shine (49.6, over three times its level) comes before the forehead's redness.
    expect(today.standouts.map((score) => `${score.place}/${score.metric}`)).toEqual(['chin/evenness', 'nose/shine']);
    expect(today.more).toBe(2);
  });

  it('with a profile, lead to the routine’s steps for what stands out most; with nothing, to the basics', () => {
    const found = takeaways(TODAY, [], profileOf());
    expect(found.next).toEqual({
      kind: 'routine',
      metric: 'shine',
      steps: ['cleanser-gel', 'niacinamide-serum', 'bha-exfoliant'],
    });
    const calm = scanOf('calm', DAY, { nose: { shine: 10 } });
    expect(takeaways(calm, [], profileOf()).next).toEqual({ kind: 'routine', metric: null, steps: [] });
    expect(takeaways(calm, [], profileOf()).today).toEqual({ standouts: [], more: 0 });
  });

  it('compare with the last scan taken alike: a change within the floor is no real change, beyond it is named', () => {
    const week = taken('week', '2026-12-02T10:00:00.000Z', { nose: { shine: 20 } });
    const now = taken('now', DAY, { nose: { shine: 20 + NOSE_SHINE + 1 } });
    const found = takeaways(now, [week, now], undefined);
    expect(found.comparedWith?.id).toBe('week');
    expect(found.since).toMatchObject({ kind: 'compared', takenAt: week.takenAt, more: 0 });
    const named = found.since.kind === 'compared' ? found.since.named : [];
    expect(named.map((reading) => [reading.change.place, reading.change.metric, reading.kind])).toEqual([
      ['nose', 'shine', 'worse'],
    ]);
    expect(changeAt(found, 'shine', 'nose')?.movementKey).toBe('reading.moved.shine.up');
    expect(changeAt(found, 'redness', 'nose')?.kind).toBe('noRealChange');

    const still = taken('still', DAY, { nose: { shine: 20 + NOSE_SHINE - 1 } });
    expect(takeaways(still, [week], undefined).since).toEqual({
      kind: 'compared',
      takenAt: week.takenAt,
      named: [],
      more: 0,
    });
  });

  it('skip a scan taken in another light for an older one taken alike; with none, say what differed', () => {
    const lamp = { ...WINDOW_CONDITIONS, light: 40 };
    const old = taken('old', '2026-11-25T10:00:00.000Z');
    const lit = taken('lit', '2026-12-02T10:00:00.000Z', {}, lamp);
    const now = taken('now', DAY);
    expect(takeaways(now, [old, lit], undefined).comparedWith?.id).toBe('old');
    expect(takeaways(now, [lit], undefined).since).toEqual({
      kind: 'notAlike',
      takenAt: lit.takenAt,
      differences: ['light'],
    });
    expect(takeaways(now, [lit], undefined).changes).toEqual([]);
  });

  it('compare nothing with scans of another analysis version', () => {
    const older = scanOf('older', '2026-12-02T10:00:00.000Z', {}, 'skin-0');
    expect(takeaways(TODAY, [older], undefined).since).toEqual({ kind: 'otherVersion' });
  });

  it('of a scan viewed later, read only the scans before it', () => {
    const before = scanOf('before', '2026-12-02T10:00:00.000Z', { nose: { shine: 49.6 } });
    const after = scanOf('after', '2026-12-16T10:00:00.000Z', { nose: { shine: 5 } });
    const found = takeaways(TODAY, [after, TODAY, before], profileOf());
    expect(found.comparedWith?.id).toBe('before');
    // The routine as it was with this scan the latest: shine still stands out.
    expect(found.next).toMatchObject({ kind: 'routine', metric: 'shine' });
    expect(found.next.kind === 'routine' && found.next.steps).toContain('bha-exfoliant');
  });
});
