import { readFile } from 'node:fs/promises';
import { type Download, type Page, expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL } from '../playwright.config';
import { createAffiliateAccount, logInViaApi } from './helpers/affiliate';
import { expectNoAxeViolations } from './helpers/axe';
import { fill, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import { SEED_OPERATOR } from './helpers/seed-accounts';

// Partner groups and the ledger in the console (docs/product/money.md#operators-groups-rules-and-campaigns,
// docs/product/money.md#the-ledger), as an operator and an affiliate use them: the operator creates a
// "creators" group, publishes its first rule — 30 % of the proceeds, on renewals for 12 months — and
// moves an affiliate into it (confirmed); the affiliate's dashboard writes the rule out in both
// languages; the operator reconciles the ledger ("reconciles to the cent") and exports a month as
// the two CSV files. Each screen passes axe; the pages report no CSP, console or hydration error.

const admin = strings('en', 'admin');
const affiliateText = strings('en', 'affiliate');
const frAffiliateText = strings('fr', 'affiliate');

/** French puts narrow no-break spaces before % and $: compared with plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

async function signInAsOperator(page: Page) {
  const auth = strings('en', 'auth');
  await page.goto('/admin?lang=en');
  const form = page.getByRole('form', { name: admin.signIn.title });
  await form.getByLabel(auth.fields.email, { exact: true }).fill(SEED_OPERATOR.email);
  await form.getByLabel(auth.fields.password, { exact: true }).fill(SEED_OPERATOR.password);
  await form.getByRole('button', { name: admin.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: admin.header.title })).toBeVisible();
}

test.use({ locale: 'en-US' });

test.beforeEach(async ({ context }) => {
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
});

test('an operator gives a creators group its rule, moves an affiliate in, reconciles and exports the ledger', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const health = await watchPageHealth(page);
  const member = await createAffiliateAccount(request, { firstName: 'Cleo', lastName: 'Creator', language: 'en' });

  await signInAsOperator(page);
  const main = page.getByRole('main');

  // The Groups tab: the default group and its rule; a new group "creators".
  await page.getByRole('tab', { name: admin.tabs.groups }).click();
  const groups = main.getByRole('region', { name: admin.groups.title }).first();
  await expect(groups.getByRole('button', { name: fill(admin.groups.open, { name: 'Default' }) })).toBeVisible();
  const create = main.getByRole('region', { name: admin.groups.create.title });
  await create.getByLabel(admin.groups.create.id).fill('Creators!');
  await create.getByLabel(admin.groups.create.name).fill('Creators');
  await create.getByRole('button', { name: admin.groups.create.submit }).click();
  // The form's own check, next to its field: nothing is sent.
  await expect(create.getByText(admin.groups.errors.idFormat)).toBeVisible();
  await expect(create.getByLabel(admin.groups.create.id)).toHaveAttribute('aria-invalid', 'true');
  await create.getByLabel(admin.groups.create.id).fill('creators');
  await create.getByRole('button', { name: admin.groups.create.submit }).click();

  // The group's page: no rule yet; the first version, 30 % on renewals for 12 months.
  await expect(
    main.getByRole('heading', { level: 3, name: fill(admin.groups.detail.title, { name: 'Creators' }) }),
  ).toBeFocused();
  await expect(main.getByText(admin.groups.noRule)).toBeVisible();
  const publish = main.getByRole('region', { name: fill(admin.rules.publish.title, { version: 1 }) });
  await publish.getByRole('radio', { name: admin.rules.publish.kinds.percentage }).check();
  await publish.getByRole('textbox', { name: admin.rules.publish.percent }).fill('130');
  await publish.getByRole('checkbox', { name: admin.rules.publish.recurring }).check();
  await publish.getByLabel(admin.rules.publish.recurringMonths).fill('12');
  await publish.getByRole('button', { name: fill(admin.rules.publish.submit, { version: 1 }) }).click();
  await expect(publish.getByText(admin.rules.errors.percentRange)).toBeVisible();
  await publish.getByRole('textbox', { name: admin.rules.publish.percent }).fill('30');
  await publish.getByRole('button', { name: fill(admin.rules.publish.submit, { version: 1 }) }).click();
  // Published: the form now offers version 2.
  await expect(
    main.getByRole('status').filter({ hasText: fill(admin.rules.publish.done, { version: 1 }) }),
  ).toBeVisible();
  await expect(main.getByRole('region', { name: fill(admin.rules.publish.title, { version: 2 }) })).toBeVisible();
  const summary = main.getByRole('region', { name: fill(admin.groups.detail.title, { name: 'Creators' }) });
  await expect(
    summary.getByText(/^30% of the proceeds of each first paid subscription and of its renewals for 12 months/),
  ).toBeVisible();
  await expect(
    main.getByRole('region', { name: admin.versions.title }).getByText(admin.versions.standing.current),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'a group’s page');

  // The affiliate's page: move them to "creators", confirmed.
  await page.getByRole('tab', { name: admin.tabs.affiliates }).click();
  await main.getByLabel(admin.affiliates.query).fill(member.email);
  await main.getByRole('button', { name: admin.affiliates.search, exact: true }).click();
  const row = main.getByRole('row').filter({ hasText: member.email });
  await row.getByRole('button', { name: `${admin.affiliates.details} – Cleo Creator` }).click();
  const detail = main.getByRole('region', { name: 'Cleo Creator' });
  await detail.getByLabel(admin.move.select).selectOption({ label: 'Creators' });
  await detail.getByRole('button', { name: admin.move.submit }).click();
  const confirm = detail.getByRole('region', {
    name: fill(admin.move.confirmTitle, { name: 'Cleo Creator', group: 'Creators' }),
  });
  await confirm.getByRole('button', { name: admin.move.submit }).click();
  await expect(detail.getByText(fill(admin.move.done, { name: 'Cleo Creator', group: 'Creators' }))).toBeVisible();
  await expect(detail.getByRole('definition').filter({ hasText: 'creators' })).toBeVisible();
  await expectNoAxeViolations(page, 'an affiliate’s group');

  // The affiliate reads their rule in words on the dashboard, in both languages.
  const affiliateContext = await browser.newContext({ locale: 'en-US' });
  await affiliateContext.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
  const affiliatePage = await affiliateContext.newPage();
  const affiliateHealth = await watchPageHealth(affiliatePage);
  await logInViaApi(affiliatePage, member);
  await affiliatePage.goto('/affiliate/dashboard?lang=en');
  const rule = affiliatePage.getByRole('region', { name: affiliateText.rule.title });
  await expect(rule.getByRole('listitem')).toHaveText([
    "30% of the proceeds of each first paid subscription and of its renewals for 12 months after it (the price after the app store's commission).",
    'Each commission is approved 30 days after the purchase.',
    'Approved earnings are paid on the 15th of each month once your approved balance reaches $20.',
  ]);
  await expect(affiliatePage.getByRole('progressbar')).toHaveCount(0);
  await expectNoAxeViolations(affiliatePage, 'the dashboard with a rule of its own');
  await affiliatePage.goto('/affiliate/dashboard?lang=fr');
  const frRule = affiliatePage.getByRole('region', { name: frAffiliateText.rule.title });
  await expect(frRule.getByRole('listitem').first()).toBeVisible();
  expect(plain(await frRule.getByRole('listitem').first().textContent())).toBe(
    '30 % des recettes de chaque premier abonnement payant et de ses renouvellements pendant 12 mois après lui (le prix après la commission du store).',
  );
  expectHealthy(affiliateHealth, 'the affiliate’s dashboard');
  await affiliateContext.close();

  // The ledger: reconcile, then export last month as two CSV files.
  await page.getByRole('tab', { name: admin.tabs.ledger }).click();
  const reconcile = main.getByRole('region', { name: admin.ledger.reconcile.title });
  await reconcile.getByRole('button', { name: admin.ledger.reconcile.button }).click();
  await expect(reconcile.getByRole('status')).toHaveText(/^The ledger reconciles to the cent/);
  const exportForm = main.getByRole('region', { name: admin.ledger.export.title });
  const downloads: Download[] = [];
  page.on('download', (download) => downloads.push(download));
  const month = await exportForm.getByLabel(admin.ledger.export.from).inputValue();
  await exportForm.getByRole('button', { name: admin.ledger.export.submit }).click();
  await expect(exportForm.getByRole('status')).toContainText(`skanova-ledger-${month}.csv`);
  await expect.poll(() => downloads.length).toBe(2);
  expect(downloads.map((download) => download.suggestedFilename()).sort()).toEqual([
    `skanova-ledger-${month}.csv`,
    `skanova-ledger-summary-${month}.csv`,
  ]);
  const [entries, monthly] = await Promise.all(
    downloads
      .sort((a, b) => a.suggestedFilename().localeCompare(b.suggestedFilename()))
      .map(async (download) => readFile((await download.path())!, 'utf8')),
  );
  expect(entries!.split('\r\n')[0]).toMatch(/^entry_id,effective_at,recorded_at,affiliate_id/);
  expect(monthly!.split('\r\n')[0]).toMatch(/^month,affiliate_id,affiliate_name,group_id/);
  await expectNoAxeViolations(page, 'the ledger tab');

  // Both operator actions, the group and the move are in the audit log, in words.
  await page.getByRole('tab', { name: admin.tabs.audit }).click();
  for (const action of [
    'group.created',
    'rule.published',
    'affiliate.group-changed',
    'ledger.reconciled',
    'ledger.exported',
  ]) {
    const [kind, done] = action.split('.') as [string, string];
    await expect(main.getByText(admin.audit.actions[kind][done], { exact: true }).first()).toBeVisible();
  }
  expectHealthy(health, 'the console');
});
