import { describe, expect, it } from 'vitest';
import { formatCount, formatDay, formatDollars, formatMoney, formatPercent, ordinalDay } from './format';

// Intl separates French groups and units with (narrow) no-break spaces: compare on plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('dashboard formatting', () => {
  it('writes cents as dollars with two decimals in the page language', () => {
    expect(formatMoney(0, 'en')).toBe('$0.00');
    expect(formatMoney(123456, 'en')).toBe('$1,234.56');
    expect(plain(formatMoney(0, 'fr'))).toBe('0,00 $US');
    expect(plain(formatMoney(123456, 'fr'))).toBe('1 234,56 $US');
  });

  it('writes a payout in its own currency', () => {
    expect(plain(formatMoney(2050, 'fr', 'EUR'))).toBe('20,50 €');
  });

  it('writes dollar amounts from the server the same way', () => {
    expect(formatDollars(2, 'en')).toBe('$2.00');
    expect(formatDollars(4, 'en')).toBe('$4.00');
    expect(formatDollars(0.1 + 0.2, 'en')).toBe('$0.30');
  });

  it('writes the conversion rate with one decimal', () => {
    expect(formatPercent(0, 'en')).toBe('0.0%');
    expect(formatPercent(12.345, 'en')).toBe('12.3%');
    expect(plain(formatPercent(12.5, 'fr'))).toBe('12,5 %');
  });

  it('groups counts', () => {
    expect(formatCount(12345, 'en')).toBe('12,345');
    expect(plain(formatCount(12345, 'fr'))).toBe('12 345');
  });

  it('formats UTC days, whatever the time zone of the browser', () => {
    expect(formatDay('2025-07-15', 'en')).toBe('July 15, 2025');
    expect(formatDay('2025-07-15T00:00:00.000Z', 'fr')).toBe('15 juillet 2025');
    expect(formatDay('2025-06-03', 'fr', 'short')).toBe('3 juin');
    expect(formatDay('2025-06-03', 'en', 'short')).toBe('Jun 3');
    expect(formatDay('not a date', 'en')).toBe('not a date');
  });

  it('writes the payday as each language does', () => {
    expect(ordinalDay(15, 'en')).toBe('15th');
    expect(ordinalDay(1, 'en')).toBe('1st');
    expect(ordinalDay(22, 'en')).toBe('22nd');
    expect(ordinalDay(15, 'fr')).toBe('15');
    expect(ordinalDay(1, 'fr')).toBe('1er');
  });
});
