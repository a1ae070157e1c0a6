import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page, expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { FUNNEL_PORT, FUNNEL_URL } from '../playwright.config';
import { pauseClockNow } from './helpers/clock';
import { DEVICES } from './helpers/devices';
import { strings } from './helpers/i18n';
import {
  advanceClock,
  callFromApp,
  deliverRevenueCat,
  markSentThenPaid,
  moveClockTo,
  plain,
  revenueCatEvent,
  runPayday,
  signInToConsole,
} from './helpers/programme-server';

// The whole programme in one story (docs/product/money.md#payouts), on a server of its own whose clock the test moves:
// an affiliate signs up and makes a link; a visitor opens it on Android (the Play install referrer
// carries the tracking id) and another on iOS (the "Open the app" tap copies it); the app attributes
// both installs, and ten more users type the code; RevenueCat sends purchases (one delivered twice,
// one refunded, one trial that converts); the clock passes the hold period and the 15th; the operator
// runs the payouts, exports them and marks them paid; the dashboard shows the exact figures.

const JSON_HEADERS = { origin: FUNNEL_URL, 'content-type': 'application/json' };
const DAY_MS = 86_400_000;
const lang = 'en' as const;
const d = strings(lang, 'dashboard');

test.use({ locale: 'en-US' });

/** Opens the referral link on a phone and waits for the landing page to have its tracking id. */
async function openReferralLink(browser: Browser, device: 'android' | 'iphone', code: string): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES[device], locale: 'en-US', baseURL: FUNNEL_URL });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await context.route(/^https:\/\/(apps\.apple\.com|play\.google\.com)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Store</title>' }),
  );
  const page = await context.newPage();
  // The page's timers wait (a paused clock): the test reads the links and the clipboard before the
  // countdown or the store fallback moves the page on to a store.
  await pauseClockNow(page);
  const recorded = page.waitForResponse((response) => response.url().endsWith('/api/fn/storePreInstallData'));
  await page.goto(`/download?ref=${code.toLowerCase()}`);
  await expect(page.locator('.landing__status')).not.toBeEmpty();
  expect((await recorded).status()).toBe(200);
  return page;
}

/** The e-mails the funnel server wrote to `address`, as text. */
async function emailsTo(address: string): Promise<string[]> {
  const dir = path.resolve('.e2e-data', String(FUNNEL_PORT), 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  const parsed = await Promise.all(files.map((name) => simpleParser(readFileSync(path.join(dir, name)))));
  return parsed
    .filter((mail) =>
      (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.toLowerCase().includes(address)),
    )
    .map((mail) => `${mail.subject ?? ''}\n${mail.text ?? ''}`);
}

function statValue(page: Page, label: string) {
  return page
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd');
}

test('an affiliate is paid for the subscriptions their link brought in', async ({ browser, page, request }) => {
  test.setTimeout(240_000);
  await page.context().addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: FUNNEL_URL }]);

  // 1. The affiliate signs up (PayPal) and generates a referral code on the dashboard.
  const email = `funnel-${Date.now().toString(36)}@example.com`;
  const signup = await page.request.post('/api/fn/createAffiliate', {
    headers: JSON_HEADERS,
    data: {
      data: {
        email,
        password: 'funnel-password-1',
        firstName: 'Félicie',
        lastName: 'Durand',
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: email },
        termsAccepted: true,
        language: lang,
      },
    },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  await page.goto(`/affiliate/dashboard?lang=${lang}#links`);
  const links = page.getByRole('tabpanel', { name: d.tabs.links });
  await links.getByRole('button', { name: d.links.first.submit }).click();
  const row = links.getByRole('table').getByRole('row').nth(1);
  await expect(row).toBeVisible();
  const code = (await row.getByRole('rowheader').textContent())!.trim();
  expect(code).toMatch(/^[A-Z0-9]{8}$/);

  // 2. Two visitors open the link: Android (install referrer) and iOS (clipboard on "Open the app").
  const android = await openReferralLink(browser, 'android', code);
  const playLink = android.getByRole('link', { name: 'Get it on Google Play' });
  await expect(playLink).toHaveAttribute('href', /referrer=tracking_id/);
  const installReferrer = new URL((await playLink.getAttribute('href'))!).searchParams.get('referrer')!;
  expect(new URLSearchParams(installReferrer).get('code')?.toUpperCase()).toBe(code);
  await android.context().close();

  const iphone = await openReferralLink(browser, 'iphone', code);
  await expect(iphone.getByRole('link', { name: 'Download on the App Store' })).toBeVisible();
  await iphone.getByRole('button', { name: 'Open the app' }).click();
  await expect.poll(() => iphone.evaluate(() => navigator.clipboard.readText())).toMatch(/^sk-tid:/);
  const clipboard = await iphone.evaluate(() => navigator.clipboard.readText());
  await iphone.context().close();

  // 3. The app's first launches: both attributed by tracking id; ten more users type the code.
  const androidUser = '$RCAnonymousID:funnel-android';
  const iosUser = '$RCAnonymousID:funnel-ios';
  const typedUsers = Array.from({ length: 10 }, (_, index) => `$RCAnonymousID:funnel-typed-${index}`);
  expect(
    await callFromApp(request, FUNNEL_URL, 'attributeInstall', {
      appUserId: androidUser,
      platform: 'android',
      trackingId: installReferrer,
    }),
  ).toEqual({
    attributed: true,
    code,
    method: 'tracking_id',
  });
  expect(
    await callFromApp(request, FUNNEL_URL, 'attributeInstall', {
      appUserId: iosUser,
      platform: 'ios',
      trackingId: clipboard,
    }),
  ).toEqual({
    attributed: true,
    code,
    method: 'tracking_id',
  });
  for (const appUserId of typedUsers) {
    const answer = await callFromApp<{ method: string }>(request, FUNNEL_URL, 'attributeInstall', {
      appUserId,
      platform: 'ios',
      referralCode: code.toLowerCase(),
    });
    expect(answer.method).toBe('code_claim');
  }

  // 4. RevenueCat: the Android purchase arrives twice at once, the iOS one is refunded, one typed
  //    user starts a trial that converts, the others buy at once.
  const start = await advanceClock(request, FUNNEL_URL, 0);
  const purchasedAt = start - 60_000;
  const androidPurchase = revenueCatEvent('INITIAL_PURCHASE', androidUser, purchasedAt, { store: 'PLAY_STORE' });
  await Promise.all([
    deliverRevenueCat(request, FUNNEL_URL, androidPurchase),
    deliverRevenueCat(request, FUNNEL_URL, androidPurchase),
  ]);
  const iosPurchase = revenueCatEvent('INITIAL_PURCHASE', iosUser, purchasedAt);
  await deliverRevenueCat(request, FUNNEL_URL, iosPurchase);
  // The refund names the refunded transaction, as RevenueCat does.
  await deliverRevenueCat(
    request,
    FUNNEL_URL,
    revenueCatEvent('CANCELLATION', iosUser, start, {
      cancel_reason: 'CUSTOMER_SUPPORT',
      transaction_id: iosPurchase.event.transaction_id,
    }),
  );
  const [trialUser, ...buyers] = typedUsers as [string, ...string[]];
  await deliverRevenueCat(
    request,
    FUNNEL_URL,
    revenueCatEvent('INITIAL_PURCHASE', trialUser, purchasedAt - 3 * DAY_MS, { period_type: 'TRIAL', price: 0 }),
  );
  await deliverRevenueCat(
    request,
    FUNNEL_URL,
    revenueCatEvent('RENEWAL', trialUser, purchasedAt, { is_trial_conversion: true }),
  );
  for (const buyer of buyers)
    await deliverRevenueCat(request, FUNNEL_URL, revenueCatEvent('INITIAL_PURCHASE', buyer, purchasedAt));
  await deliverRevenueCat(request, FUNNEL_URL, revenueCatEvent('TEST', 'test-user', start));

  // 11 qualified conversions × $2.00: pending, unpaid, from 2 counted clicks.
  await page.goto(`/affiliate/dashboard?lang=${lang}`);
  await expect(statValue(page, d.overview.stats.totalConversions)).toHaveText('11');
  await expect(statValue(page, d.overview.stats.totalClicks)).toHaveText('2');
  expect(plain(await statValue(page, d.overview.stats.totalEarnings).textContent())).toBe('$22.00');
  expect(plain(await statValue(page, d.overview.stats.unpaidEarnings).textContent())).toBe('$22.00');
  expect(plain(await statValue(page, d.overview.stats.conversionRate).textContent())).toBe('550.0%');
  // One "new conversion" e-mail per purchase, the refunded one included (it was sent before the refund).
  await expect
    .poll(async () => (await emailsTo(email)).filter((mail) => mail.includes(code)).length, { timeout: 15_000 })
    .toBe(12);

  // The Payments tab says why none of it is paid on the next payday: all $22.00 are in their 30-day
  // hold, payable from the day it ends, then paid on the 15th of the month after.
  const approvedAt = new Date(purchasedAt + 30 * DAY_MS);
  const payday = Date.UTC(approvedAt.getUTCFullYear(), approvedAt.getUTCMonth() + 1, 15);
  const paydayText = new Date(payday).toISOString().slice(0, 10);
  const longDay = (time: number) =>
    new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(time);
  await page.getByRole('tab', { name: d.tabs.payments }).click();
  const unpaid = page
    .getByRole('tabpanel', { name: d.tabs.payments })
    .getByRole('region', { name: d.payments.unpaid.title });
  await expect(unpaid.getByText(/^None of your \$22\.00 of unpaid earnings is paid on /)).toBeVisible();
  await expect(unpaid.getByRole('listitem')).toHaveCount(1);
  await expect(unpaid.getByRole('listitem')).toContainText(d.payments.unpaid.parts.pending);
  await expect(unpaid.getByText(/becomes payable 30 days after the purchase/)).toBeVisible();
  const days = unpaid.getByRole('table');
  await expect(days.getByRole('row')).toHaveCount(2);
  await expect(days.getByRole('row').nth(1)).toHaveText(
    `${longDay(approvedAt.getTime())}$22.0011 commissions${longDay(payday)}`,
  );

  // 5. Past the 30-day hold and the next 15th after it: the payday of the approved commissions.
  await moveClockTo(request, FUNNEL_URL, payday + 2 * 3_600_000);

  // 6. The operator runs the payouts, exports the PayPal batch and marks the payout sent, then paid.
  await runPayoutsAsOperator(browser, paydayText, { name: 'Félicie Durand', paypalEmail: email });

  // 7. The dashboard: $22.00 earned, nothing unpaid, one paid payout of $22.00 by PayPal.
  await page.goto(`/affiliate/dashboard?lang=${lang}`);
  await expect(statValue(page, d.overview.stats.totalConversions)).toHaveText('11');
  await expect(statValue(page, d.overview.stats.totalClicks)).toHaveText('2');
  await expect
    .poll(async () => plain(await statValue(page, d.overview.stats.unpaidEarnings).textContent()))
    .toBe('$0.00');
  expect(plain(await statValue(page, d.overview.stats.totalEarnings).textContent())).toBe('$22.00');
  await page.getByRole('tab', { name: d.tabs.payments }).click();
  const payments = page.getByRole('tabpanel', { name: d.tabs.payments });
  // The 12 commissions (the refunded one reversed) each say why they are $2: the default rule, its
  // first step, and the qualified conversions counted before it.
  const commissions = payments.getByRole('region', { name: d.payments.commissions.title }).getByRole('table');
  await expect(commissions.getByRole('row')).toHaveCount(13);
  await expect(commissions.getByRole('row').filter({ hasText: d.payments.commissions.statuses.reversed })).toHaveCount(
    1,
  );
  await expect(
    commissions
      .getByRole('row')
      .filter({ hasText: /\$2 — default rule v1, \d+ qualified conversions? before it \(step 1 of 2\)/ }),
  ).toHaveCount(12);
  const history = payments.getByRole('region', { name: d.payments.history.title }).getByRole('table');
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history.getByRole('row').nth(1)).toContainText('$22.00');
  await expect(history.getByRole('row').nth(1)).toContainText('PayPal');
  await expect
    .poll(async () => (await emailsTo(email)).some((mail) => mail.includes('22.00') && !mail.includes(code)), {
      timeout: 15_000,
    })
    .toBe(true);
});

/** The operator's part, in the console: run the payday, export the PayPal batch, mark sent, then paid. */
async function runPayoutsAsOperator(
  browser: Browser,
  payday: string,
  affiliate: { name: string; paypalEmail: string },
) {
  const admin = strings(lang, 'admin');
  const page = await signInToConsole(browser, FUNNEL_URL, lang);
  const main = page.getByRole('main');
  const row = await runPayday(page, lang, payday, affiliate.name);
  await expect(row).toContainText('$22.00');
  await expect(row).toContainText(admin.payouts.statuses.scheduled);

  await main.getByRole('radio', { name: admin.payouts.export.kinds.paypal }).check();
  const download = page.waitForEvent('download');
  await main.getByRole('button', { name: admin.payouts.export.button }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv).toContain(`${affiliate.paypalEmail},22.00,USD`);

  await markSentThenPaid(page, lang, affiliate.name);
  await page.context().close();
}
