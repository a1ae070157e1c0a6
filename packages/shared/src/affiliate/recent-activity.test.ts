import { describe, expect, it } from 'vitest';
import { STATS_CHART_DAYS } from './constants.ts';
import { recentActivityWindow } from './recent-activity.ts';

describe('recentActivityWindow', () => {
  it(`is the ${STATS_CHART_DAYS} whole UTC days up to and including today`, () => {
    const window = recentActivityWindow(new Date('2025-06-10T12:00:00.000Z'));
    expect(window.start.toISOString()).toBe('2025-05-12T00:00:00.000Z');
    expect(window.end.toISOString()).toBe('2025-06-11T00:00:00.000Z');
    expect((window.end.getTime() - window.start.getTime()) / 86_400_000).toBe(STATS_CHART_DAYS);
  });

  it('moves at UTC midnight, not before', () => {
    expect(recentActivityWindow(new Date('2025-06-10T23:59:59.999Z')).start.toISOString()).toBe(
      '2025-05-12T00:00:00.000Z',
    );
    expect(recentActivityWindow(new Date('2025-06-11T00:00:00.000Z')).start.toISOString()).toBe(
      '2025-05-13T00:00:00.000Z',
    );
  });

  it('crosses months and years', () => {
    const window = recentActivityWindow(new Date('2026-01-05T08:00:00.000Z'));
    expect(window.start.toISOString()).toBe('2025-12-07T00:00:00.000Z');
    expect(window.end.toISOString()).toBe('2026-01-06T00:00:00.000Z');
  });
});
