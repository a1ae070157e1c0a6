import { type APIRequestContext, type Browser, type Page, expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { FUNNEL_WEBHOOK_AUTH, REVIEW_URL } from '../playwright.config';
import { strings } from './helpers/i18n';
import { SEED_OPERATOR } from './helpers/seed-accounts';

// The fraud review in one story (docs/product/review.md), on a server of its own whose clock the test
// moves: the operator makes self-referrals hold in the default group; an affiliate opens their own
// link while signed in and ten installs from their own network buy; the commissions are held — the
// dashboard says "under review", and the payday pays nothing; the operator opens the case in the
// Review tab, reads its signals and approves it with a reason; the next payday pays the $20.00.

const JSON_HEADERS = { origin: REVIEW_URL, 'content-type': 'application/json' };
const DAY_MS = 86_400_000;
const lang = 'en' as const;
const d = strings(lang, 'dashboard');
const admin = strings(lang, 'admin');
const auth = strings(lang, 'auth');

test.use({ locale: 'en-US' });

async function callFromApp<T>(request: APIRequestContext, name: string, data: unknown): Promise<T> {
  const response = await request.post(`${REVIEW_URL}/api/fn/${name}`, {
    headers: { 'content-type': 'application/json' },
    data: { data },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: T }).result;
}

let eventCounter = 0;

async function purchase(request: APIRequestContext, appUserId: string, at: number) {
  eventCounter += 1;
  const response = await request.post(`${REVIEW_URL}/api/webhooks/revenuecat`, {
    headers: { authorization: FUNNEL_WEBHOOK_AUTH, 'content-type': 'application/json' },
    data: {
      api_version: '1.0',
      event: {
        id: `review-e2e-${Date.now().toString(36)}-${eventCounter}`,
        type: 'INITIAL_PURCHASE',
        app_user_id: appUserId,
        original_app_user_id: appUserId,
        aliases: [appUserId],
        environment: 'PRODUCTION',
        store: 'APP_STORE',
        product_id: 'skanova_premium_monthly',
        period_type: 'NORMAL',
        price: 9.99,
        currency: 'USD',
        transaction_id: `review-tx-${eventCounter}`,
        original_transaction_id: `review-otx-${appUserId}`,
        purchased_at_ms: at,
        event_timestamp_ms: at,
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function advanceClock(request: APIRequestContext, ms: number): Promise<number> {
  const response = await request.post(`${REVIEW_URL}/api/test/clock`, {
    headers: { 'content-type': 'application/json' },
    data: { advanceMs: ms },
  });
  expect(response.status()).toBe(200);
  return Date.parse(((await response.json()) as { now: string }).now);
}

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

async function operatorConsole(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: REVIEW_URL, locale: 'en-US' });
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: REVIEW_URL }]);
  const page = await context.newPage();
  await page.goto(`/admin?lang=${lang}`);
  const form = page.getByRole('form', { name: admin.signIn.title });
  await form.getByLabel(auth.fields.email, { exact: true }).fill(SEED_OPERATOR.email);
  await form.getByLabel(auth.fields.password, { exact: true }).fill(SEED_OPERATOR.password);
  await form.getByRole('button', { name: admin.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: admin.header.title })).toBeVisible();
  return page;
}

/** Runs the payday of `payday` (YYYY-MM-DD) from the Payouts tab; answers the affiliate's row. */
async function runPayday(operator: Page, payday: string, name: string) {
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

function nextPayday(after: number): string {
  const at = new Date(after);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 15)).toISOString().slice(0, 10);
}

test('a self-referral is held, reviewed in the console, approved and paid on the next payday', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const operator = await operatorConsole(browser);

  // 1. The operator makes a self-referral hold the commissions in the default group.
  await operator.getByRole('tab', { name: admin.tabs.review }).click();
  const policy = operator.getByLabel(
    fill(admin.review.policies.label, { signal: admin.review.kinds['self-referral'], group: 'Default' }),
  );
  await policy.selectOption({ label: admin.review.actions.hold });
  await expect(operator.getByRole('status')).toContainText(
    fill(admin.review.policies.saved, {
      signal: admin.review.kinds['self-referral'],
      group: 'Default',
      action: admin.review.actions.hold,
    }),
  );

  // 2. An affiliate signs up (PayPal) and makes a code; signed in, they open their own link.
  await page.context().addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: REVIEW_URL }]);
  const email = `review-${Date.now().toString(36)}@example.com`;
  const signup = await page.request.post('/api/fn/createAffiliate', {
    headers: JSON_HEADERS,
    data: {
      data: {
        email,
        password: 'review-password-1',
        firstName: 'Rémi',
        lastName: 'Selfish',
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: email },
        termsAccepted: true,
        language: lang,
      },
    },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  const generated = await page.request.post('/api/fn/generateReferralCode', {
    headers: JSON_HEADERS,
    data: { data: {} },
  });
  expect(generated.status(), await generated.text()).toBe(200);
  const code = ((await generated.json()) as { result: { code: string } }).result.code;
  const own = await page.context().newPage();
  // The landing page's timers wait: it would move on to a store.
  await own.clock.install();
  const recorded = own.waitForResponse((response) => response.url().endsWith('/api/fn/storePreInstallData'));
  await own.goto(`/download?ref=${code.toLowerCase()}`);
  expect((await recorded).status()).toBe(200);
  await own.close();

  // 3. Ten installs from the affiliate's own network type the code, and buy.
  const start = await advanceClock(request, 0);
  for (let index = 0; index < 10; index += 1) {
    const appUserId = `$RCAnonymousID:review-${Date.now().toString(36)}-${index}`;
    await callFromApp(request, 'attributeInstall', { appUserId, platform: 'ios', referralCode: code });
    await purchase(request, appUserId, start - 60_000);
  }

  // 4. The affiliate sees $20.00 under review on the Payments tab, and nothing of why.
  await page.goto(`/affiliate/dashboard?lang=${lang}#payments`);
  const payments = page.getByRole('tabpanel', { name: d.tabs.payments });
  const underReview = payments.getByRole('term').filter({ hasText: d.payments.next.underReview });
  await expect(underReview.locator('xpath=following-sibling::dd')).toHaveText('$20.00');
  await expect(payments).toContainText(d.payments.next.underReviewNote);
  await expect(page.locator('body')).not.toContainText(admin.review.kinds['self-referral']);

  // 5. Past the hold and the payday after it: the payday pays nothing to the affiliate.
  const firstPayday = nextPayday(start + 30 * DAY_MS);
  await advanceClock(request, Date.parse(`${firstPayday}T02:00:00Z`) - (await advanceClock(request, 0)));
  const firstRow = await runPayday(operator, firstPayday, 'Rémi Selfish');
  await expect(firstRow).toHaveCount(0);

  // 6. The operator opens the case in the Review tab, reads it and approves it with a reason.
  await operator.getByRole('tab', { name: admin.tabs.review }).click();
  // Ten installs and the signed-in visit: eleven signals.
  const caseRow = operator.getByRole('main').getByRole('row').filter({ hasText: 'Rémi Selfish' });
  await expect(caseRow).toContainText(fill(admin.review.signalCount_other, { count: 11 }));
  await expect(caseRow).toContainText('$20.00');
  await caseRow.getByRole('button', { name: new RegExp(admin.review.open) }).click();
  const main = operator.getByRole('main');
  await expect(main.getByRole('heading', { level: 3, name: /Rémi Selfish/ })).toBeVisible();
  await expect(main).toContainText(admin.review.evidence.matches['signup-ip']);
  await expect(main).toContainText(
    fill(admin.review.evidence['self-referral-visit'], { code, date: '' }).split(',')[0]!,
  );
  await expect(main).toContainText(code);
  await expect(main).toContainText(fill(admin.review.case.heldTotal, { amount: '$20.00' }));
  await expect(main).not.toContainText(email);
  await main.getByRole('button', { name: admin.review.decisions.approve, exact: true }).first().click();
  await main.getByLabel(admin.confirm.reason).fill('Checked: installs by family members, allowed by the terms');
  await main
    .getByRole('region', { name: /Approve case/ })
    .getByRole('button', { name: admin.review.decisions.approve })
    .click();
  await expect(main.getByRole('status')).toContainText(fill(admin.review.decisions.outcomes.approved, { count: 10 }));

  // 7. The next payday pays the $20.00.
  const secondPayday = nextPayday(Date.parse(`${firstPayday}T02:00:00Z`));
  await advanceClock(request, Date.parse(`${secondPayday}T02:00:00Z`) - (await advanceClock(request, 0)));
  const secondRow = await runPayday(operator, secondPayday, 'Rémi Selfish');
  await expect(secondRow).toContainText('$20.00');
  await operator.context().close();

  // The same address as before: a reload, not a navigation within the page.
  await page.reload();
  // The payment history, not the list of commissions above it.
  const history = payments.getByRole('region', { name: d.payments.history.title }).getByRole('table');
  await expect(history.getByRole('row').nth(1)).toContainText('$20.00');
  expect(plain(await history.getByRole('row').nth(1).textContent())).toContain('PayPal');
  await expect(payments.getByRole('term').filter({ hasText: d.payments.next.underReview })).toHaveCount(0);
});
