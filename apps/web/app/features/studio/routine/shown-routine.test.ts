import { describe, expect, it } from 'vitest';
import { buildRoutine, snapshotOf } from '@skanova/shared/studio/routines';
import { parseShown, reconcile } from './shown-routine';

// "What changed" compares the routine on screen with the one shown before it on this device.

const profile = {
  version: 1 as const,
  skinType: 'normal' as const,
  sensitivity: 'rarely' as const,
  concerns: [],
  sunExposure: 'low' as const,
  currentRoutine: [],
  ageBand: '25-34' as const,
  updatedAt: '2026-11-20T09:00:00.000Z',
};
const first = buildRoutine(profile, []);
const second = buildRoutine({ ...profile, concerns: ['redness'], updatedAt: '2026-11-27T09:00:00.000Z' }, []);
const CONSENT = '2026-11-19T08:00:00.000Z';

describe('the routine shown before', () => {
  it('is none the first time', () => {
    const { baseline, store } = reconcile(undefined, first, CONSENT);
    expect(baseline).toBeUndefined();
    expect(store).toEqual({ consent: CONSENT, current: snapshotOf(first) });
  });

  it('is the last one shown when the routine is new, and stays so on a reload', () => {
    const stored = reconcile(undefined, first, CONSENT).store;
    const changed = reconcile(stored, second, CONSENT);
    expect(changed.baseline).toEqual(snapshotOf(first));
    const reloaded = reconcile(parseShown(JSON.stringify(changed.store)), second, CONSENT);
    expect(reloaded.baseline).toEqual(snapshotOf(first));
    expect(reloaded.store).toEqual(changed.store);
  });

  it('is forgotten under another consent, and a damaged record is ignored', () => {
    const stored = reconcile(undefined, first, CONSENT).store;
    expect(reconcile(stored, second, '2027-01-01T08:00:00.000Z').baseline).toBeUndefined();
    for (const raw of [null, '', '{', '[]', '{"consent":1}', JSON.stringify({ ...stored, current: { entries: 'x' } })])
      expect(parseShown(raw)).toBeUndefined();
    expect(parseShown(JSON.stringify(stored))).toEqual(stored);
  });
});
