import { readFile } from 'node:fs/promises';
import { type APIRequestContext, type Browser, type Download, type Page, expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { STORY_URL } from '../playwright.config';
import { fill, strings } from './helpers/i18n';
import {
  advanceClock,
  callFromApp,
  deliverRevenueCat,
  generateCode,
  markSentThenPaid,
  moveClockTo,
  nextPayday,
  plain,
  revenueCatEvent,
  runPayday,
  signInToConsole,
  signUpPaidByPayPal,
} from './helpers/programme-server';
import { type ReceivedDelivery, signedWith, startWebhookReceiver } from './helpers/webhook-receiver';

// The affiliate programme v2 in one story, from a new partner group to the accountant's files, on a
// server of its own whose clock the test moves (docs/product/money.md, docs/product/review.md,
// docs/product/webhooks.md):
//
// an affiliate of the default group has earned $6.00 for a month; the operator registers a webhook
// endpoint in the console, creates a "creators" group at 30 % of the proceeds on renewals for 12
// months, makes a self-referral hold its commissions, and moves a new affiliate into it; that
// affiliate's eight installs from their own network buy ($2.55 each: 30 % of $8.49); the commissions
// are held, the case is in the review queue, and the operator approves it; the hold ends, a renewal
// earns its own $2.55, and the operator pays the month's $20.40 (payout run, marked sent, then paid);
// the ledger reconciles and its export for the accountant holds each entry and the month's summary of
// that affiliate; the receiver got each step, signed; and the default-group affiliate's figures are
// what they were before the story.

const lang = 'en' as const;
const admin = strings(lang, 'admin');
const hooks = strings(lang, 'webhooks');
const d = strings(lang, 'dashboard');
const DAY_MS = 86_400_000;
const SERVER = STORY_URL;
/** RevenueCat's share of the store: $9.99 leaves $8.49 of proceeds, of which 30 % is $2.55. */
const STORE_COMMISSION = { commission_percentage: 0.15 };
const FIRST_PURCHASES = 8;
const EVENTS = ['commission.created', 'review.opened', 'commission.approved', 'payout.sent', 'payout.paid'];

test.use({ locale: 'en-US' });

async function affiliateContext(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: SERVER, locale: 'en-US' });
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: SERVER }]);
  return context.newPage();
}

/** An app user who typed `code` at first launch and bought at `at` (ms); answers the app user id. */
async function installAndBuy(request: APIRequestContext, code: string, label: string, at: number): Promise<string> {
  const appUserId = `$RCAnonymousID:${label}-${Date.now().toString(36)}`;
  await callFromApp(request, SERVER, 'attributeInstall', { appUserId, platform: 'ios', referralCode: code });
  await deliverRevenueCat(request, SERVER, revenueCatEvent('INITIAL_PURCHASE', appUserId, at, STORE_COMMISSION));
  return appUserId;
}

/**
 * Every figure of the affiliate's dashboard that does not follow the calendar: the overview's six
 * figures and premium progress, and the Payments tab's amounts and commissions (the next payday's
 * date aside).
 */
async function dashboardFigures(page: Page): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  await page.goto(`/affiliate/dashboard?lang=${lang}`);
  const overview = page.getByRole('tabpanel', { name: d.tabs.overview });
  await expect(overview.getByRole('term')).toHaveCount(6);
  for (const term of await overview.getByRole('term').all())
    figures[plain(await term.textContent())] = plain(await term.locator('xpath=following-sibling::dd').textContent());
  figures.premium = plain(await overview.getByRole('progressbar').getAttribute('aria-valuetext'));
  await page.getByRole('tab', { name: d.tabs.payments }).click();
  const payments = page.getByRole('tabpanel', { name: d.tabs.payments });
  const next = payments.getByRole('region', { name: d.payments.next.title });
  await expect(next.getByRole('term').first()).toBeVisible();
  figures.unpaid = plain(await next.getByRole('paragraph').filter({ hasText: d.payments.next.amount }).textContent());
  for (const term of await next.getByRole('term').all()) {
    const label = plain(await term.textContent());
    if (label !== d.payments.next.payday)
      figures[label] = plain(await term.locator('xpath=following-sibling::dd').textContent());
  }
  const commissions = payments.getByRole('region', { name: d.payments.commissions.title });
  await expect(commissions.getByRole('table')).toBeVisible();
  figures.commissions = plain(await commissions.getByRole('table').textContent());
  figures.history = plain(await payments.getByRole('region', { name: d.payments.history.title }).textContent());
  return figures;
}

/** The cells of a CSV file (RFC 4180: quoted cells, CRLF line ends), with its header as keys. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  const [header, ...lines] = rows;
  return lines.map((line) => Object.fromEntries(header!.map((name, at) => [name, line[at] ?? ''])));
}

/** Cents from a CSV amount ("-2.55" → -255). */
const cents = (amount: string) => Math.round(Number(amount) * 100);

test('an operator runs the programme v2 from a new group to the accountant, every step at a webhook endpoint', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const receiver = await startWebhookReceiver();
  try {
    // 1. Before the story: an affiliate of the default group, one counted click, three $2.00
    //    commissions approved a month later. Their figures are kept to compare at the end.
    const basile = await affiliateContext(browser);
    await signUpPaidByPayPal(basile.request, SERVER, {
      label: 'basile',
      firstName: 'Basile',
      lastName: 'Baseline',
      language: lang,
    });
    const basileCode = await generateCode(basile.request, SERVER);
    const visitor = await affiliateContext(browser);
    // The landing page's timers wait: it would move on to a store.
    await visitor.clock.install();
    const recorded = visitor.waitForResponse((response) => response.url().endsWith('/api/fn/storePreInstallData'));
    await visitor.goto(`/download?ref=${basileCode.toLowerCase()}`);
    expect((await recorded).status()).toBe(200);
    await visitor.context().close();
    const start = await advanceClock(request, SERVER, 0);
    for (let index = 0; index < 3; index += 1) await installAndBuy(request, basileCode, `basile-${index}`, start);
    await advanceClock(request, SERVER, 31 * DAY_MS);
    await expect(async () => {
      // Without the tab's hash: a navigation that only changes the hash would not load the page again.
      await basile.goto(`/affiliate/dashboard?lang=${lang}`);
      await basile.getByRole('tab', { name: d.tabs.payments }).click();
      const next = basile.getByRole('region', { name: d.payments.next.title });
      const approved = next.getByRole('term').filter({ hasText: d.payments.next.approved });
      await expect(approved.locator('xpath=following-sibling::dd')).toHaveText('$6.00', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    const basileBefore = await dashboardFigures(basile);
    expect(basileBefore).toMatchObject({
      [d.overview.stats.totalEarnings]: '$6.00',
      [d.overview.stats.unpaidEarnings]: '$6.00',
      [d.overview.stats.totalConversions]: '3',
      [d.overview.stats.totalClicks]: '1',
    });

    // 2. The operator registers an endpoint for the story's five events; its secret is shown once.
    const operator = await signInToConsole(browser, SERVER, lang);
    const main = operator.getByRole('main');
    await operator.getByRole('tab', { name: admin.tabs.webhooks }).click();
    const add = main.getByRole('region', { name: hooks.form.addTitle });
    await add.getByLabel(hooks.form.url, { exact: true }).fill(receiver.url);
    await add.getByLabel(hooks.form.description).fill('Accounting');
    for (const type of EVENTS)
      await add.getByRole('checkbox', { name: new RegExp(`^${type.replace('.', '\\.')}`) }).check();
    await add.getByRole('button', { name: hooks.form.submit }).click();
    const secretPanel = main.getByRole('region', { name: fill(hooks.secret.title, { url: receiver.url }) });
    const secret = await secretPanel.getByLabel(hooks.secret.label).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await secretPanel.getByRole('button', { name: hooks.secret.done }).click();

    // 3. A "creators" group: 30 % of the proceeds, on renewals for 12 months (the form's hold and
    //    minimum: 30 days, $20).
    await operator.getByRole('tab', { name: admin.tabs.groups }).click();
    const create = main.getByRole('region', { name: admin.groups.create.title });
    await create.getByLabel(admin.groups.create.id).fill('creators');
    await create.getByLabel(admin.groups.create.name).fill('Creators');
    await create.getByRole('button', { name: admin.groups.create.submit }).click();
    const publish = main.getByRole('region', { name: fill(admin.rules.publish.title, { version: 1 }) });
    await publish.getByRole('radio', { name: admin.rules.publish.kinds.percentage }).check();
    await publish.getByRole('textbox', { name: admin.rules.publish.percent }).fill('30');
    await publish.getByRole('checkbox', { name: admin.rules.publish.recurring }).check();
    await publish.getByLabel(admin.rules.publish.recurringMonths).fill('12');
    await publish.getByRole('button', { name: fill(admin.rules.publish.submit, { version: 1 }) }).click();
    await expect(
      main.getByRole('status').filter({ hasText: fill(admin.rules.publish.done, { version: 1 }) }),
    ).toBeVisible();

    // 4. In that group, a self-referral holds the commissions.
    await operator.getByRole('tab', { name: admin.tabs.review }).click();
    const selfReferral = admin.review.kinds['self-referral'];
    await main
      .getByLabel(fill(admin.review.policies.label, { signal: selfReferral, group: 'Creators' }))
      .selectOption({ label: admin.review.actions.hold });
    await expect(main.getByRole('status')).toContainText(
      fill(admin.review.policies.saved, { signal: selfReferral, group: 'Creators', action: admin.review.actions.hold }),
    );

    // 5. A new affiliate signs up (PayPal) and makes a code; the operator moves them to Creators.
    const cleo = await affiliateContext(browser);
    const cleoEmail = await signUpPaidByPayPal(cleo.request, SERVER, {
      label: 'cleo',
      firstName: 'Cléo',
      lastName: 'Creator',
      language: lang,
    });
    const code = await generateCode(cleo.request, SERVER);
    await operator.getByRole('tab', { name: admin.tabs.affiliates }).click();
    await main.getByLabel(admin.affiliates.query).fill(cleoEmail);
    await main.getByRole('button', { name: admin.affiliates.search, exact: true }).click();
    await main
      .getByRole('row')
      .filter({ hasText: cleoEmail })
      .getByRole('button', { name: `${admin.affiliates.details} – Cléo Creator` })
      .click();
    const detail = main.getByRole('region', { name: 'Cléo Creator' });
    await detail.getByLabel(admin.move.select).selectOption({ label: 'Creators' });
    await detail.getByRole('button', { name: admin.move.submit }).click();
    await detail
      .getByRole('region', { name: fill(admin.move.confirmTitle, { name: 'Cléo Creator', group: 'Creators' }) })
      .getByRole('button', { name: admin.move.submit })
      .click();
    await expect(detail.getByText(fill(admin.move.done, { name: 'Cléo Creator', group: 'Creators' }))).toBeVisible();

    // 6. Eight installs from the affiliate's own network type the code and buy: self-referrals,
    //    held. The affiliate sees $20.40 under review, each commission 30 % of $8.49.
    const purchasedAt = await advanceClock(request, SERVER, 0);
    const buyers: string[] = [];
    for (let index = 0; index < FIRST_PURCHASES; index += 1)
      buyers.push(await installAndBuy(request, code, `cleo-${index}`, purchasedAt));
    await cleo.goto(`/affiliate/dashboard?lang=${lang}#payments`);
    const cleoPayments = cleo.getByRole('tabpanel', { name: d.tabs.payments });
    const underReview = cleoPayments.getByRole('term').filter({ hasText: d.payments.next.underReview });
    await expect(underReview.locator('xpath=following-sibling::dd')).toHaveText('$20.40');
    await expect(
      cleoPayments
        .getByRole('region', { name: d.payments.commissions.title })
        .getByRole('row')
        .filter({ hasText: '30% of $8.49 proceeds — rule v1' }),
    ).toHaveCount(FIRST_PURCHASES);

    // 7. The case in the review queue: eight signals, $20.40 held; the operator approves it.
    await operator.getByRole('tab', { name: admin.tabs.review }).click();
    const caseRow = main.getByRole('row').filter({ hasText: 'Cléo Creator' });
    await expect(caseRow).toContainText(fill(admin.review.signalCount_other, { count: FIRST_PURCHASES }));
    await expect(caseRow).toContainText('$20.40');
    await caseRow.getByRole('button', { name: new RegExp(admin.review.open) }).click();
    await expect(main.getByRole('heading', { level: 3, name: /Cléo Creator/ })).toBeVisible();
    await expect(main).toContainText(admin.review.evidence.matches['signup-ip']);
    await expect(main).toContainText(fill(admin.review.case.heldTotal, { amount: '$20.40' }));
    await main.getByRole('button', { name: admin.review.decisions.approve, exact: true }).first().click();
    await main.getByLabel(admin.confirm.reason).fill('Checked: the installs are the creator’s own test phones');
    await main
      .getByRole('region', { name: /Approve case/ })
      .getByRole('button', { name: admin.review.decisions.approve })
      .click();
    await expect(main.getByRole('status')).toContainText(
      fill(admin.review.decisions.outcomes.approved, { count: FIRST_PURCHASES }),
    );

    // 8. The hold ends: the commissions are approved. The day before the payday, one subscription
    //    renews (within its 12 months): a commission of its own, still pending on the payday.
    const approvedAt = await moveClockTo(request, SERVER, purchasedAt + 30 * DAY_MS + 60_000);
    await expect
      .poll(() => receiver.received.filter((delivery) => delivery.event.type === 'commission.approved').length)
      .toBe(FIRST_PURCHASES);
    const payday = nextPayday(approvedAt);
    const renewedAt = await moveClockTo(request, SERVER, Date.parse(`${payday}T00:00:00Z`) - DAY_MS);
    await deliverRevenueCat(
      request,
      SERVER,
      revenueCatEvent('RENEWAL', buyers[0]!, renewedAt, { ...STORE_COMMISSION, transaction_id: `renewal-${code}` }),
    );

    // 9. The payday: the operator runs it, marks the payout sent, then paid. The default-group
    //    affiliate's $6.00 is under the $20 minimum: no payout.
    await moveClockTo(request, SERVER, Date.parse(`${payday}T02:00:00Z`));
    const payoutRow = await runPayday(operator, lang, payday, 'Cléo Creator');
    await expect(payoutRow).toContainText('$20.40');
    await expect(payoutRow).toContainText(admin.payouts.statuses.scheduled);
    await expect(main.getByRole('row').filter({ hasText: 'Basile Baseline' })).toHaveCount(0);
    await markSentThenPaid(operator, lang, 'Cléo Creator');

    // 10. The ledger reconciles; the operator exports the story's months for the accountant.
    await operator.getByRole('tab', { name: admin.tabs.ledger }).click();
    const reconcile = main.getByRole('region', { name: admin.ledger.reconcile.title });
    await reconcile.getByRole('button', { name: admin.ledger.reconcile.button }).click();
    await expect(reconcile.getByRole('status')).toHaveText(/^The ledger reconciles to the cent/);
    const exportForm = main.getByRole('region', { name: admin.ledger.export.title });
    const from = new Date(purchasedAt).toISOString().slice(0, 7);
    const to = payday.slice(0, 7);
    await exportForm.getByLabel(admin.ledger.export.from).fill(from);
    await exportForm.getByLabel(admin.ledger.export.to).fill(to);
    const downloads: Download[] = [];
    operator.on('download', (download) => downloads.push(download));
    await exportForm.getByRole('button', { name: admin.ledger.export.submit }).click();
    await expect.poll(() => downloads.length).toBe(2);
    const files = Object.fromEntries(
      await Promise.all(
        downloads.map(async (download) => [
          download.suggestedFilename(),
          await readFile((await download.path())!, 'utf8'),
        ]),
      ),
    ) as Record<string, string>;
    const period = from === to ? from : `${from}_${to}`;
    expect(Object.keys(files).sort()).toEqual([`skanova-ledger-${period}.csv`, `skanova-ledger-summary-${period}.csv`]);

    // The entries: each commission earned, held, released, approved, scheduled and paid — the
    // renewal earned only — $2.55 each, priced by creators v1, the payout's with its reference.
    const entries = parseCsv(files[`skanova-ledger-${period}.csv`]!).filter(
      (entry) => entry.affiliate_name === 'Cléo Creator',
    );
    const kinds = (kind: string) => entries.filter((entry) => entry.kind === kind);
    expect(
      Object.fromEntries(
        ['earned', 'held', 'released-from-review', 'approved', 'scheduled', 'paid'].map((kind) => [
          kind,
          kinds(kind).length,
        ]),
      ),
    ).toEqual({
      earned: FIRST_PURCHASES + 1,
      held: FIRST_PURCHASES,
      'released-from-review': FIRST_PURCHASES,
      approved: FIRST_PURCHASES,
      scheduled: FIRST_PURCHASES,
      paid: FIRST_PURCHASES,
    });
    expect(entries).toHaveLength(6 * FIRST_PURCHASES + 1);
    for (const entry of entries) {
      expect(entry).toMatchObject({ group_id: 'creators', rule_version: '1', amount_usd: '2.55' });
      expect(entry.source_event_id).toMatch(/^e2e-/);
      expect(Date.parse(entry.effective_at ?? '')).toBeGreaterThanOrEqual(purchasedAt);
    }
    const held = kinds('held')[0]!;
    expect(held).toMatchObject({ from_account: 'pending', to_account: 'held' });
    expect(kinds('released-from-review')[0]).toMatchObject({ from_account: 'held', to_account: 'pending' });
    const payoutIds = new Set([...kinds('scheduled'), ...kinds('paid')].map((entry) => entry.payout_id));
    expect(payoutIds.size).toBe(1);
    expect([...kinds('scheduled'), ...kinds('paid')].every((entry) => entry.payout_reference !== '')).toBe(true);
    // The renewal: its own commission, earned the day before the payday, still pending.
    const renewal = kinds('earned').find((entry) => entry.effective_at === new Date(renewedAt).toISOString());
    expect(renewal).toMatchObject({ from_account: 'programme', to_account: 'pending' });
    expect(entries.filter((entry) => entry.conversion_id === renewal!.conversion_id)).toHaveLength(1);

    // The summary: one line per month the affiliate's money moved; its sums are the entries', and
    // the last month closes with $20.40 paid and the renewal's $2.55 pending.
    const summary = parseCsv(files[`skanova-ledger-summary-${period}.csv`]!).filter(
      (line) => line.affiliate_name === 'Cléo Creator',
    );
    expect(summary.map((line) => line.month)).toEqual(
      [...new Set(entries.map((entry) => (entry.effective_at ?? '').slice(0, 7)))].sort(),
    );
    const total = (column: string) => summary.reduce((sum, line) => sum + cents(line[column]!), 0);
    expect({
      earned: total('earned_usd'),
      held: total('held_usd'),
      released: total('released_from_review_usd'),
      approved: total('approved_usd'),
      scheduled: total('scheduled_usd'),
      paid: total('paid_usd'),
      reversed: total('reversed_usd'),
    }).toEqual({ earned: 2295, held: 2040, released: 2040, approved: 2040, scheduled: 2040, paid: 2040, reversed: 0 });
    expect(summary.at(-1)).toMatchObject({
      month: to,
      group_id: 'creators',
      closing_pending_usd: '2.55',
      closing_payable_usd: '0.00',
      closing_held_usd: '0.00',
      closing_in_payout_usd: '0.00',
      closing_paid_usd: '20.40',
    });

    // 11. The receiver got each step of the affiliate's story, in order, each delivery signed with
    //     the endpoint's secret; nothing else (the move is no event; the other affiliate's money did
    //     not move).
    const cleoId = entries[0]!.affiliate_id;
    const expected = [
      'review.opened',
      ...Array<string>(FIRST_PURCHASES).fill('commission.created'),
      ...Array<string>(FIRST_PURCHASES).fill('commission.approved'),
      'commission.created',
      'payout.sent',
      'payout.paid',
    ];
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(expected.length);
    const firsts = new Map<string, ReceivedDelivery>();
    for (const delivery of receiver.received)
      if (!firsts.has(delivery.event.id)) firsts.set(delivery.event.id, delivery);
    const delivered = [...firsts.values()];
    expect(delivered.map((delivery) => delivery.event.type)).toEqual(expected);
    for (const delivery of delivered) {
      expect(signedWith(secret, delivery), `${delivery.event.type} signed`).toBe(true);
      expect(delivery.headers['skanova-event-id']).toBe(delivery.event.id);
      expect(delivery.headers['skanova-event-type']).toBe(delivery.event.type);
      expect(delivery.event.data.affiliateId).toBe(cleoId);
    }
    const ofType = (type: string) => delivered.filter((delivery) => delivery.event.type === type);
    expect(ofType('review.opened')[0]!.event.data).toMatchObject({ signal: 'self-referral' });
    for (const created of ofType('commission.created'))
      expect(created.event.data).toMatchObject({ commissionCents: 255, currency: 'USD' });
    for (const type of ['payout.sent', 'payout.paid'])
      expect(ofType(type)[0]!.event.data).toMatchObject({
        amountCents: 2040,
        currency: 'USD',
        method: 'paypal',
        payday,
      });

    // 12. The default-group affiliate's dashboard says exactly what it said before the story.
    expect(await dashboardFigures(basile)).toEqual(basileBefore);
    await Promise.all([operator, basile, cleo].map((page) => page.context().close()));
  } finally {
    await receiver.close();
  }
});
