import { describe, expect, it } from 'vitest';
import { rateVital } from './vitals.ts';

describe('rateVital', () => {
  it('is good up to the first threshold, poor above the second, needs improvement between', () => {
    expect([rateVital('LCP', 2500), rateVital('LCP', 2501), rateVital('LCP', 4000), rateVital('LCP', 4001)]).toEqual([
      'good',
      'needs-improvement',
      'needs-improvement',
      'poor',
    ]);
    expect([rateVital('CLS', 0.1), rateVital('CLS', 0.2), rateVital('CLS', 0.26)]).toEqual([
      'good',
      'needs-improvement',
      'poor',
    ]);
    expect([rateVital('INP', 200), rateVital('INP', 500), rateVital('INP', 501)]).toEqual([
      'good',
      'needs-improvement',
      'poor',
    ]);
    expect([rateVital('FCP', 1800), rateVital('TTFB', 800), rateVital('TTFB', 1801)]).toEqual(['good', 'good', 'poor']);
  });
});
