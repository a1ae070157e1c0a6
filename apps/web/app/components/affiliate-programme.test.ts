import { describe, expect, it } from 'vitest';
import { dayOfMonth, formatUsd, programmeValues } from './affiliate-programme';

describe('the programme figures as the pages print them', () => {
  it('formats dollars the way each language writes them', () => {
    expect(formatUsd(200, 'en')).toBe('$2');
    expect(formatUsd(2050, 'en')).toBe('$20.50');
    expect(formatUsd(200, 'fr')).toBe('2\u00a0$\u00a0US');
    expect(formatUsd(2050, 'fr')).toBe('20,50\u00a0$\u00a0US');
  });

  it('writes the day of the month as an English ordinal or the French form', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 15, 21, 22, 23, 31].map((day) => dayOfMonth(day, 'en'))).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '15th',
      '21st',
      '22nd',
      '23rd',
      '31st',
    ]);
    expect(dayOfMonth(1, 'fr')).toBe('1er');
    expect(dayOfMonth(15, 'fr')).toBe('15');
  });

  it('takes every rule from the shared constants ($2, $4 from 100, $20 on the 15th, 30 days, 10 codes, 18+)', () => {
    expect(programmeValues('en')).toEqual({
      standard: '$2',
      premium: '$4',
      threshold: 100,
      minimum: '$20',
      payoutDay: '15th',
      holdDays: 30,
      maxCodes: 10,
      minAge: 18,
      minAppAge: 13,
      currency: 'USD',
    });
  });
});
