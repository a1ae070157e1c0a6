import { type Page, expect } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL } from '../../playwright.config';
import { type TestAffiliate, signUpViaApi } from './affiliate';
import type { Lang } from './i18n';

// The dashboard of a busy affiliate: a real account, signed in, with real referral codes, whose
// figures are those of a long-running programme (five-digit amounts, six-digit clicks, a full
// 30-day chart). Reaching such figures through the real funnel takes a server with a moving clock
// (funnel.spec.ts), so the answers of the figures' functions are the real ones with larger numbers:
// what the page must lay out is exactly what the server can answer.

const SAME_ORIGIN = { origin: BASE_URL, 'content-type': 'application/json' };

/** The figures the page is given (cents for money). */
export const BUSY = {
  totalEarningsCents: 1_234_567,
  unpaidEarningsCents: 22_000,
  totalConversions: 6_172,
  totalClicks: 123_456,
  conversionRate: 5,
  last30DaysCount: 1_234,
  progressToTier: 87,
  codeClicks: 12_345,
  codeConversions: 1_234,
} as const;

/** A description as long as the form accepts, the kind that widens a table. */
export const LONG_DESCRIPTION = 'Instagram bio, stories and the weekly newsletter';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Thirty UTC days ending today, with four-digit clicks and three-digit conversions. */
function busyDays(now = Date.now()) {
  return Array.from({ length: 30 }, (_, index) => {
    const date = new Date(now - (29 - index) * DAY_MS).toISOString().slice(0, 10);
    return { date, clicks: 1_000 + ((index * 397) % 3_322), conversions: 50 + ((index * 31) % 271) };
  });
}

/** Answers of the figures' functions, with the busy figures in place of the fresh account's zeros. */
async function serveBusyFigures(page: Page): Promise<void> {
  await page.route('**/api/fn/getAffiliateStats', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const stats = body.result;
    Object.assign(stats, {
      totalEarningsCents: BUSY.totalEarningsCents,
      totalEarnings: BUSY.totalEarningsCents / 100,
      unpaidEarningsCents: BUSY.unpaidEarningsCents,
      unpaidEarnings: BUSY.unpaidEarningsCents / 100,
      totalConversions: BUSY.totalConversions,
      totalClicks: BUSY.totalClicks,
      conversionRate: BUSY.conversionRate,
      last30DaysCount: BUSY.last30DaysCount,
      progressToTier: BUSY.progressToTier,
      nextPayout: {
        ...stats.nextPayout,
        payableCents: BUSY.unpaidEarningsCents,
        approvedUnpaidCents: BUSY.unpaidEarningsCents,
      },
    });
    for (const code of stats.referralCodes) {
      code.clickCount = BUSY.codeClicks;
      code.conversionCount = BUSY.codeConversions;
    }
    await route.fulfill({ response, json: body });
  });
  await page.route('**/api/fn/getAffiliateTimeline', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { result: { days: busyDays() } } });
  });
}

/**
 * A fresh affiliate (signed in in the page's context) with two referral codes, one with a long
 * description, whose dashboard shows the busy figures. The consent banner was answered earlier.
 */
export async function openBusyDashboard(page: Page, lang: Lang, hash = ''): Promise<TestAffiliate> {
  await page.context().addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
  const affiliate = await signUpViaApi(page, { language: lang, firstName: 'Ada', lastName: 'Lovelace' });
  for (const description of [LONG_DESCRIPTION, null]) {
    const response = await page.request.post('/api/fn/generateReferralCode', {
      headers: SAME_ORIGIN,
      data: { data: { description } },
    });
    expect(response.status(), await response.text()).toBe(200);
  }
  await serveBusyFigures(page);
  await page.goto(`/affiliate/dashboard?lang=${lang}${hash}`);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.getByRole('tablist')).toBeVisible();
  return affiliate;
}
