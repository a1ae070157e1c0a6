import { type APIRequestContext, type Browser, type Page, expect } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { FUNNEL_WEBHOOK_AUTH } from '../../playwright.config';
import { type Lang, fill, strings } from './i18n';
import { SEED_OPERATOR } from './seed-accounts';

// The programme's stories run against servers of their own whose clock the test moves
// (playwright.config.ts: TEST_CLOCK, the RevenueCat secret, the jobs on a short tick). What they share:
// the clock, the mobile app's calls, RevenueCat's deliveries, an affiliate's signup, the operator's
// console and the payday as the operator runs it there.

/** Moves the server's clock forward by `ms` (0: reads it) and answers its new time. */
export async function advanceClock(request: APIRequestContext, server: string, ms: number): Promise<number> {
  const response = await request.post(`${server}/api/test/clock`, {
    headers: { 'content-type': 'application/json' },
    data: { advanceMs: ms },
  });
  expect(response.status()).toBe(200);
  return Date.parse(((await response.json()) as { now: string }).now);
}

/** Moves the server's clock forward to `at` (ms). */
export async function moveClockTo(request: APIRequestContext, server: string, at: number): Promise<number> {
  return advanceClock(request, server, Math.max(0, at - (await advanceClock(request, server, 0))));
}

/** Calls a server function the way the mobile app does (no browser origin). */
export async function callFromApp<T>(
  request: APIRequestContext,
  server: string,
  name: string,
  data: unknown,
): Promise<T> {
  const response = await request.post(`${server}/api/fn/${name}`, {
    headers: { 'content-type': 'application/json' },
    data: { data },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: T }).result;
}

let eventCounter = 0;
const run = `${Date.now().toString(36)}-${process.pid}`;

/** One RevenueCat webhook delivery (the real shape, with fields the server does not use). */
export function revenueCatEvent(type: string, appUserId: string, at: number, fields: Record<string, unknown> = {}) {
  eventCounter += 1;
  return {
    api_version: '1.0',
    event: {
      id: `e2e-${run}-${eventCounter}`,
      type,
      app_id: 'app-e2e',
      app_user_id: appUserId,
      original_app_user_id: appUserId,
      aliases: [appUserId],
      environment: 'PRODUCTION',
      store: 'APP_STORE',
      product_id: 'skanova_premium_monthly',
      period_type: 'NORMAL',
      price: 9.99,
      price_in_purchased_currency: 9.99,
      currency: 'USD',
      country_code: 'FR',
      transaction_id: `tx-${run}-${eventCounter}`,
      original_transaction_id: `otx-${appUserId}`,
      purchased_at_ms: at,
      event_timestamp_ms: at,
      subscriber_attributes: {},
      ...fields,
    },
  };
}

/** Posts a RevenueCat delivery to the server's webhook, with the secret header it expects. */
export async function deliverRevenueCat(request: APIRequestContext, server: string, body: unknown): Promise<void> {
  const response = await request.post(`${server}/api/webhooks/revenuecat`, {
    headers: { authorization: FUNNEL_WEBHOOK_AUTH, 'content-type': 'application/json' },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Signs up an affiliate paid by PayPal with `request` — a page's request context is signed in as
 * them afterwards — and answers their e-mail address.
 */
export async function signUpPaidByPayPal(
  request: APIRequestContext,
  server: string,
  fields: { label: string; firstName: string; lastName: string; language: Lang },
): Promise<string> {
  const email = `${fields.label}-${Date.now().toString(36)}-${process.pid}@example.com`;
  const response = await request.post(`${server}/api/fn/createAffiliate`, {
    headers: { origin: server, 'content-type': 'application/json' },
    data: {
      data: {
        email,
        password: `${fields.label}-password-1`,
        firstName: fields.firstName,
        lastName: fields.lastName,
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: email },
        termsAccepted: true,
        language: fields.language,
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return email;
}

/** Makes a referral code for the affiliate `request` is signed in as; answers it. */
export async function generateCode(request: APIRequestContext, server: string): Promise<string> {
  const response = await request.post(`${server}/api/fn/generateReferralCode`, {
    headers: { origin: server, 'content-type': 'application/json' },
    data: { data: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: { code: string } }).result.code;
}

/** The seeded operator, signed in to the console of `server` in a context of its own. */
export async function signInToConsole(browser: Browser, server: string, lang: Lang): Promise<Page> {
  const admin = strings(lang, 'admin');
  const auth = strings(lang, 'auth');
  const context = await browser.newContext({ baseURL: server, locale: lang === 'fr' ? 'fr-FR' : 'en-US' });
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: server }]);
  const page = await context.newPage();
  await page.goto(`/admin?lang=${lang}`);
  const form = page.getByRole('form', { name: admin.signIn.title });
  await form.getByLabel(auth.fields.email, { exact: true }).fill(SEED_OPERATOR.email);
  await form.getByLabel(auth.fields.password, { exact: true }).fill(SEED_OPERATOR.password);
  await form.getByRole('button', { name: admin.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: admin.header.title })).toBeVisible();
  return page;
}

/** The 15th of the month after the one of `after` (ms), as YYYY-MM-DD. */
export function nextPayday(after: number): string {
  const at = new Date(after);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 15)).toISOString().slice(0, 10);
}

/**
 * Runs the payday `payday` (YYYY-MM-DD) from the console's Payouts tab, as the operator does;
 * answers the row of the affiliate named `name`.
 */
export async function runPayday(operator: Page, lang: Lang, payday: string, name: string) {
  const admin = strings(lang, 'admin');
  await operator.getByRole('tab', { name: admin.tabs.payouts }).click();
  const main = operator.getByRole('main');
  const day = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${payday}T00:00:00Z`),
  );
  await main.getByLabel(admin.payouts.payday.month).fill(payday.slice(0, 7));
  // The scheduler may have run the payday already: running it again is safe and changes nothing.
  await main.getByRole('button', { name: fill(admin.payouts.run.button, { date: day }) }).click();
  return main.getByRole('row').filter({ hasText: name });
}

/** Marks the payout of `name` in the Payouts tab sent, then paid, as the operator does. */
export async function markSentThenPaid(operator: Page, lang: Lang, name: string): Promise<void> {
  const admin = strings(lang, 'admin');
  const main = operator.getByRole('main');
  const row = main.getByRole('row').filter({ hasText: name });
  for (const status of ['sent', 'paid'] as const) {
    await row.getByRole('checkbox', { name: fill(admin.payouts.list.select, { name }) }).check();
    await main.getByLabel(admin.payouts.mark.status).selectOption(status);
    await main.getByRole('button', { name: fill(admin.payouts.mark.button, { count: 1 }) }).click();
    await expect(row).toContainText(admin.payouts.statuses[status]);
  }
}

/** French puts narrow no-break spaces before % and $: compared with plain spaces. */
export const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();
