import { describe, expect, it } from 'vitest';
import { isPayday, latestPayday } from './payday.ts';

describe('latestPayday', () => {
  it('is this month’s 15th from the 15th on (UTC), else last month’s', () => {
    expect(latestPayday(new Date('2025-06-15T00:00:00.000Z'))).toBe('2025-06-15');
    expect(latestPayday(new Date('2025-06-30T23:59:59.999Z'))).toBe('2025-06-15');
    expect(latestPayday(new Date('2025-06-14T23:59:59.999Z'))).toBe('2025-05-15');
    expect(latestPayday(new Date('2025-01-03T10:00:00.000Z'))).toBe('2024-12-15');
  });
});

describe('isPayday', () => {
  it('accepts a real 15th written YYYY-MM-DD only', () => {
    expect(isPayday('2025-06-15')).toBe(true);
    for (const day of ['2025-06-14', '2025-13-15', '2025-6-15', '15/06/2025', '2025-06-15T00:00:00Z', ''])
      expect(isPayday(day)).toBe(false);
  });
});
