import { expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { REVIEW_URL } from '../playwright.config';
import { fill, strings } from './helpers/i18n';
import {
  advanceClock,
  callFromApp,
  deliverRevenueCat,
  generateCode,
  moveClockTo,
  nextPayday,
  plain,
  revenueCatEvent,
  runPayday,
  signInToConsole,
  signUpPaidByPayPal,
} from './helpers/programme-server';

// The fraud review in one story (docs/product/review.md), on a server of its own whose clock the test
// moves: the operator makes self-referrals hold in the default group; an affiliate opens their own
// link while signed in and ten installs from their own network buy; the commissions are held — the
// dashboard says "under review", and the payday pays nothing; the operator opens the case in the
// Review tab, reads its signals and approves it with a reason; the next payday pays the $20.00.

const lang = 'en' as const;
const d = strings(lang, 'dashboard');
const admin = strings(lang, 'admin');
const DAY_MS = 86_400_000;

test.use({ locale: 'en-US' });

test('a self-referral is held, reviewed in the console, approved and paid on the next payday', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const operator = await signInToConsole(browser, REVIEW_URL, lang);

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
  const email = await signUpPaidByPayPal(page.request, REVIEW_URL, {
    label: 'review',
    firstName: 'Rémi',
    lastName: 'Selfish',
    language: lang,
  });
  const code = await generateCode(page.request, REVIEW_URL);
  const own = await page.context().newPage();
  // The landing page's timers wait: it would move on to a store.
  await own.clock.install();
  const recorded = own.waitForResponse((response) => response.url().endsWith('/api/fn/storePreInstallData'));
  await own.goto(`/download?ref=${code.toLowerCase()}`);
  expect((await recorded).status()).toBe(200);
  await own.close();

  // 3. Ten installs from the affiliate's own network type the code, and buy.
  const start = await advanceClock(request, REVIEW_URL, 0);
  for (let index = 0; index < 10; index += 1) {
    const appUserId = `$RCAnonymousID:review-${Date.now().toString(36)}-${index}`;
    await callFromApp(request, REVIEW_URL, 'attributeInstall', { appUserId, platform: 'ios', referralCode: code });
    await deliverRevenueCat(request, REVIEW_URL, revenueCatEvent('INITIAL_PURCHASE', appUserId, start - 60_000));
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
  await moveClockTo(request, REVIEW_URL, Date.parse(`${firstPayday}T02:00:00Z`));
  const firstRow = await runPayday(operator, lang, firstPayday, 'Rémi Selfish');
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
  await moveClockTo(request, REVIEW_URL, Date.parse(`${secondPayday}T02:00:00Z`));
  const secondRow = await runPayday(operator, lang, secondPayday, 'Rémi Selfish');
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
