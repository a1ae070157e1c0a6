import { describe, expect, it } from 'vitest';
import { fitText, textWidth, wrapWords } from './text-fit.ts';

describe('text measuring', () => {
  it('measures wide letters wider than narrow ones, and accents like their letter', () => {
    expect(textWidth('WWW', 10)).toBeGreaterThan(textWidth('iii', 10));
    expect(textWidth('été', 12)).toBe(textWidth('ete', 12));
    expect(textWidth('ab', 20)).toBe(2 * textWidth('ab', 10));
    expect(textWidth('ab', 10, 3)).toBe(textWidth('ab', 10) + 3);
  });

  it('wraps at spaces within the width', () => {
    const lines = wrapWords('Your skin, analysed by AI', 120, 16);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, 16)).toBeLessThanOrEqual(120);
    expect(lines.join(' ')).toBe('Your skin, analysed by AI');
  });
});

describe('fitText', () => {
  it('keeps the largest size when the text fits', () => {
    expect(fitText('Hello', { maxWidth: 500, maxSize: 24, minSize: 10, maxLines: 1 })).toEqual({
      fontSize: 24,
      lines: ['Hello'],
      truncated: false,
    });
  });

  it('shrinks the text before it cuts it', () => {
    const fitted = fitText('Your skin, analysed by AI', { maxWidth: 200, maxSize: 30, minSize: 8, maxLines: 1 });
    expect(fitted.fontSize).toBeLessThan(30);
    expect(fitted.lines).toEqual(['Your skin, analysed by AI']);
    expect(textWidth(fitted.lines[0]!, fitted.fontSize)).toBeLessThanOrEqual(200);
  });

  it('balances the lines it wraps', () => {
    const fitted = fitText('Your skin, analysed by AI', { maxWidth: 300, maxSize: 22, minSize: 22, maxLines: 2 });
    expect(fitted.lines).toEqual(['Your skin,', 'analysed by AI']);
  });

  it('respects the height as well as the number of lines', () => {
    const fitted = fitText('one two three four five six', {
      maxWidth: 60,
      maxSize: 20,
      minSize: 10,
      maxLines: 10,
      maxHeight: 30,
    });
    const height = fitted.fontSize + (fitted.lines.length - 1) * fitted.fontSize * 1.2;
    expect(height).toBeLessThanOrEqual(30);
  });

  it('cuts with an ellipsis and says so when even the smallest size is too big', () => {
    const fitted = fitText('A very long sentence that cannot fit in such a small box at all', {
      maxWidth: 80,
      maxSize: 12,
      minSize: 10,
      maxLines: 1,
    });
    expect(fitted.truncated).toBe(true);
    expect(fitted.lines).toHaveLength(1);
    expect(fitted.lines[0]).toMatch(/…$/);
    expect(textWidth(fitted.lines[0]!, 10)).toBeLessThanOrEqual(80);
  });
});
