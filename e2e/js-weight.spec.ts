import { expect, test } from '@playwright/test';
import { JS_BUDGET_KIB, hasBudget, measureAll } from '../bench/js-weight';

// ADR 005: the first-load JavaScript of every page anyone opens (the public site, the landing, the
// affiliate area's public pages and the web app) stays within the budget, in both languages. The
// signed-in pages carry their tools by design and are only measured (bench/js-weight.ts).

test('every public page loads at most the budgeted JavaScript (gzip) on its first load', () => {
  const over = measureAll()
    .filter((result) => hasBudget(result.page) && result.gzipBytes > JS_BUDGET_KIB * 1024)
    .map((result) => `${result.page} (${result.lang}): ${(result.gzipBytes / 1024).toFixed(2)} KiB`);
  expect(over, `over ${JS_BUDGET_KIB} KiB`).toEqual([]);
});
