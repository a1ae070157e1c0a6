import type { Page } from '@playwright/test';

/**
 * Pauses the page's clock at a whole second just after the real now, and answers that moment.
 *
 * The clock starts a minute before the pause so that `pauseAt` only ever moves forward, however long
 * the machine takes between the two calls; the moment follows the machine's date, so the tests hold
 * on any day (a fixed date turns into "the past" the day after it is written).
 */
export async function pauseClockNow(page: Page): Promise<Date> {
  const pausedAt = new Date(Math.ceil(Date.now() / 1000) * 1000);
  await page.clock.install({ time: pausedAt.getTime() - 60_000 });
  await page.clock.pauseAt(pausedAt);
  return pausedAt;
}
