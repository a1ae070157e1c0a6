import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { utcMonthsEndingAt } from '../src/features/admin/overview.ts';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  insertAdjustment,
  insertVisits,
  insertCode,
  insertConversion,
  insertConversions,
  insertPayout,
} from './helpers/affiliates.ts';
import { createPayee } from './fixtures/payouts.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';

// The operators' overview (docs/product/routes-and-screens.md#operator-console): every figure from rows written here, in states chosen
// to sit on each side of each rule — counted and uncounted clicks, UTC month edges, attributed and
// unattributed installs, conversions in every status, balances on both sides of the minimum, with
// and without a payment method, held by live payouts or released by a failed one, adjustments on
// both sides of the cut-off, disabled and deleted accounts — and the next payday's forecast checked
// against what the payout run then really does.

/** Between the cut-off (1 June) and the payday (15 June): the forecast is then exact. */
const NOW = new Date('2025-06-10T12:00:00.000Z');
const PAYDAY = '2025-06-15';
const at = (iso: string) => new Date(iso);

let t: TestApp;
let operator: TestOperator;
const people: Record<string, TestAffiliate> = {};

async function overview(cookie = operator.cookie) {
  const response = await callFn(t, 'adminGetOverview', {}, cookie);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}

async function adminOk(name: string, data: unknown) {
  const response = await callFn(t, name, data, operator.cookie);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}

let installCounter = 0;
/** A first launch of the app, attributed to `affiliateId` by tracking id, or not attributed (null). */
async function insertInstall(affiliateId: string | null, createdAt: Date) {
  installCounter += 1;
  await t.database.sql.query(
    `INSERT INTO installs (app_user_id, platform, affiliate_id, method, confidence, attributed_at, created_at)
     VALUES ($1, 'ios', $2::text, CASE WHEN $2::text IS NULL THEN NULL ELSE 'tracking_id' END,
             CASE WHEN $2::text IS NULL THEN NULL ELSE 1 END, CASE WHEN $2::text IS NULL THEN NULL ELSE $3::timestamptz END, $3)`,
    [`overview-user-${installCounter}`, affiliateId, createdAt.toISOString()],
  );
}

/** `count` approved commissions of $2 that occurred at `occurredAt`, approved 30 days later. */
async function approved(affiliateId: string, count: number, occurredAt: string, payoutId: string | null = null) {
  const occurred = at(occurredAt);
  const approvedAt = new Date(occurred.getTime() + 30 * 24 * 3_600_000);
  await insertConversions(t, affiliateId, count, { status: 'approved', occurredAt: occurred, approvedAt, payoutId });
}

beforeAll(async () => {
  t = await createTestApp();
  // Accounts and sessions on the real clock (the auth library checks their expiry against it).
  operator = await createTestOperator(t);

  // Affiliates. Paula, Bruno, Lena and Max are active; Dana is disabled (still paid what she earned);
  // Zed's account was deleted; Penny's application waits; Pia's waits too but her account is disabled;
  // Rita was refused.
  people.paula = await createPayee(t, 'paypal', { firstName: 'Paula' });
  people.bruno = await createPayee(t, 'bank_transfer', { firstName: 'Bruno' });
  people.lena = await createPayee(t, 'later', { firstName: 'Lena' });
  people.max = await createPayee(t, 'paypal', { firstName: 'Max' });
  people.dana = await createPayee(t, 'paypal', { firstName: 'Dana' });
  people.zed = await createPayee(t, 'paypal', { firstName: 'Zed' });
  people.penny = await createPayee(t, 'later', { firstName: 'Penny' });
  people.pia = await createPayee(t, 'later', { firstName: 'Pia' });
  people.rita = await createPayee(t, 'later', { firstName: 'Rita' });
  // Applications as AFFILIATE_APPROVAL=manual leaves them; Rita's refused by an operator.
  await t.database.sql.query("UPDATE affiliates SET status = 'pending' WHERE id = ANY($1::text[])", [
    [people.penny!.affiliateId, people.pia!.affiliateId, people.rita!.affiliateId],
  ]);
  await adminOk('adminSetAffiliateStatus', { affiliateId: people.rita!.affiliateId, action: 'refuse' });
  t.clock.now = new Date(NOW);
  for (const name of ['dana', 'pia'])
    await adminOk('adminSetAffiliateStatus', { affiliateId: people[name]!.affiliateId, action: 'disable' });
  // Deleted with a balance and a payment method still on file: the account-deletion rule makes this
  // impossible through the product; here it proves that a deleted account is never counted as paid.
  await t.database.sql.query('UPDATE affiliates SET deleted_at = $2 WHERE id = $1', [
    people.zed!.affiliateId,
    '2025-01-05T00:00:00.000Z',
  ]);

  // Clicks: 16 counted in all. UTC months: 23:30 UTC on 31 May is May, whatever the time in Paris.
  const paulaCode = await insertCode(t, people.paula!.affiliateId, { code: 'PAULA234' });
  const brunoCode = await insertCode(t, people.bruno!.affiliateId, { code: 'BRUNO234' });
  await insertVisits(t, paulaCode.id, { counted: 5, uncounted: 2, bots: 1, at: at('2025-06-05T10:00:00.000Z') });
  await insertVisits(t, paulaCode.id, { counted: 1, at: at('2025-06-01T00:00:00.000Z') });
  await insertVisits(t, paulaCode.id, { counted: 1, at: at('2025-05-31T23:30:00.000Z') });
  await insertVisits(t, paulaCode.id, { counted: 3, at: at('2025-01-15T08:00:00.000Z') });
  await insertVisits(t, paulaCode.id, { counted: 2, at: at('2024-06-20T08:00:00.000Z') }); // before the 12 months
  await insertVisits(t, brunoCode.id, { counted: 4, at: at('2024-07-01T00:00:00.000Z') }); // the first of the 12

  // Installs: 4 attributed (one just before the 12 months), 1 not attributed.
  await insertInstall(people.paula!.affiliateId, at('2025-06-03T09:00:00.000Z'));
  await insertInstall(people.paula!.affiliateId, at('2025-06-03T10:00:00.000Z'));
  await insertInstall(people.bruno!.affiliateId, at('2025-01-20T09:00:00.000Z'));
  await insertInstall(people.bruno!.affiliateId, at('2024-06-30T23:59:59.000Z'));
  await insertInstall(null, at('2025-06-04T09:00:00.000Z'));

  // Paula: 11 approved before the cut-off; 1 approved on 3 June (after it); 2 released by the failed
  // payout below; 5 pending (one at the premium rate). Owed on the payday: 13 × $2 = $26.
  await approved(people.paula!.affiliateId, 11, '2025-04-20T12:00:00.000Z');
  await approved(people.paula!.affiliateId, 1, '2025-05-04T12:00:00.000Z');
  const paulaMay = await insertPayout(t, people.paula!.affiliateId, {
    amountCents: 400,
    status: 'scheduled',
    periodStart: '2025-04-01',
    periodEnd: '2025-04-30',
    scheduledFor: '2025-05-15',
  });
  await approved(people.paula!.affiliateId, 2, '2025-03-10T12:00:00.000Z', paulaMay);
  await adminOk('adminMarkPayouts', { payoutIds: [paulaMay], status: 'failed', reason: 'PayPal account closed' });
  for (const day of ['02', '04', '06', '08'])
    await insertConversion(t, people.paula!.affiliateId, { occurredAt: at(`2025-06-${day}T12:00:00.000Z`) });
  await insertConversion(t, people.paula!.affiliateId, { cents: 400, occurredAt: at('2025-06-09T12:00:00.000Z') });

  // Bruno: 12 approved ($24), a $3 deduction (always taken) and a $5 bonus made after the cut-off
  // (next month's): owed $21. 11 paid commissions in a paid payout (one of them before the 12 months),
  // and an older failed payout (not the latest payday's).
  await approved(people.bruno!.affiliateId, 12, '2025-04-10T12:00:00.000Z');
  await insertAdjustment(t, people.bruno!.affiliateId, { cents: -300, createdAt: at('2025-06-05T12:00:00.000Z') });
  await insertAdjustment(t, people.bruno!.affiliateId, { cents: 500, createdAt: at('2025-06-05T12:00:00.000Z') });
  const brunoApril = await insertPayout(t, people.bruno!.affiliateId, {
    amountCents: 2200,
    status: 'paid',
    periodStart: '2025-03-01',
    periodEnd: '2025-03-31',
    scheduledFor: '2025-04-15',
    method: 'bank_transfer',
    paidAt: at('2025-04-16T09:00:00.000Z'),
  });
  await insertConversions(t, people.bruno!.affiliateId, 10, {
    status: 'paid',
    occurredAt: at('2025-02-10T12:00:00.000Z'),
    approvedAt: at('2025-03-12T12:00:00.000Z'),
    payoutId: brunoApril,
  });
  await insertConversion(t, people.bruno!.affiliateId, {
    status: 'paid',
    occurredAt: at('2024-05-10T12:00:00.000Z'),
    approvedAt: at('2024-06-09T12:00:00.000Z'),
    payoutId: brunoApril,
  });
  await insertPayout(t, people.bruno!.affiliateId, {
    amountCents: 2000,
    status: 'failed',
    periodStart: '2025-02-01',
    periodEnd: '2025-02-28',
    scheduledFor: '2025-03-15',
    method: 'bank_transfer',
  });

  // Lena: $30 approved but no payment method. Max: $18 payable (below the minimum), 3 more held by
  // a payout already sent, 2 reversed. Dana (disabled): exactly the minimum. Zed (deleted): $26.
  await approved(people.lena!.affiliateId, 15, '2025-04-25T12:00:00.000Z');
  await approved(people.max!.affiliateId, 9, '2025-04-25T12:00:00.000Z');
  const maxMay = await insertPayout(t, people.max!.affiliateId, {
    amountCents: 600,
    status: 'sent',
    periodStart: '2025-04-01',
    periodEnd: '2025-04-30',
    scheduledFor: '2025-05-15',
  });
  await approved(people.max!.affiliateId, 3, '2025-03-20T12:00:00.000Z', maxMay);
  await insertConversions(t, people.max!.affiliateId, 2, {
    status: 'reversed',
    occurredAt: at('2025-05-20T12:00:00.000Z'),
  });
  await approved(people.dana!.affiliateId, 10, '2025-04-01T12:00:00.000Z');
  await approved(people.zed!.affiliateId, 13, '2024-12-01T12:00:00.000Z');

  // Support: three tickets, one handled.
  const tickets: string[] = [];
  for (const [index, name] of ['Vera', 'Yves', 'Ines'].entries()) {
    const response = await callFn(
      t,
      'submitContactForm',
      { name, email: `${name.toLowerCase()}@example.com`, subject: 'other', message: 'A question for support.' },
      undefined,
      `10.81.0.${index}`,
    );
    expect(response.status).toBe(200);
    tickets.push(response.body.result.ticketId);
  }
  await adminOk('adminMarkTicketHandled', { ticketId: tickets[1] });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
});

describe('adminGetOverview', () => {
  it('counts active and pending affiliates as the affiliates list filters them', async () => {
    const result = await overview();
    expect(result.affiliates).toEqual({ active: 4, pending: 1 });
    const active = await adminOk('adminListAffiliates', { status: 'active' });
    const pending = await adminOk('adminListAffiliates', { status: 'pending' });
    expect([active.total, pending.total]).toEqual([4, 1]);
    expect(pending.items.map((item: { id: string }) => item.id)).toEqual([people.penny!.affiliateId]);
  });

  it('adds up counted clicks, attributed installs and qualified conversions of every time', async () => {
    const result = await overview();
    expect(result.totals).toEqual({ clicks: 16, installs: 4, conversions: 92 });
  });

  it('gives the commissions by status, in cents: pending, approved (held or not), paid', async () => {
    const result = await overview();
    expect(result.commissions).toEqual({
      pending: { count: 5, cents: 1200 },
      approved: { count: 76, cents: 15_200 },
      paid: { count: 11, cents: 2200 },
    });
  });

  it('draws twelve UTC months, oldest first, with the months without activity as zeros', async () => {
    const result = await overview();
    const zero = { clicks: 0, installs: 0, conversions: 0 };
    expect(result.months).toEqual([
      { month: '2024-07', ...zero, clicks: 4 },
      { month: '2024-08', ...zero },
      { month: '2024-09', ...zero },
      { month: '2024-10', ...zero },
      { month: '2024-11', ...zero },
      { month: '2024-12', ...zero, conversions: 13 },
      { month: '2025-01', clicks: 3, installs: 1, conversions: 0 },
      { month: '2025-02', ...zero, conversions: 10 },
      { month: '2025-03', ...zero, conversions: 5 },
      { month: '2025-04', ...zero, conversions: 57 },
      { month: '2025-05', clicks: 1, installs: 0, conversions: 1 },
      { month: '2025-06', clicks: 6, installs: 2, conversions: 5 },
    ]);
  });

  it('lists what needs action: pending applications, the latest payday’s failed payouts, open tickets', async () => {
    // The latest payday is 15 May: Paula's payout of that day failed (Bruno's of March is long re-run).
    const result = await overview();
    expect(result.needsAction).toEqual({
      pendingApplications: 1,
      failedPayouts: { count: 1, payday: '2025-05-15' },
      openTickets: 2,
    });
    const failed = await adminOk('adminListPayouts', { status: 'failed', payday: '2025-05-15' });
    expect(failed.payouts.map((payout: { affiliateId: string }) => payout.affiliateId)).toEqual([
      people.paula!.affiliateId,
    ]);
    const open = await adminOk('adminListTickets', { status: 'open' });
    expect(open.total).toBe(2);
  });

  it('says when the figures were read', async () => {
    expect((await overview()).asOf).toBe(NOW.toISOString());
  });

  it('answers unauthenticated without a session and permission-denied to an affiliate', async () => {
    const anonymous = await callFn(t, 'adminGetOverview', {});
    expect([anonymous.status, anonymous.body.error?.status]).toEqual([401, 'UNAUTHENTICATED']);
    const affiliate = await callFn(t, 'adminGetOverview', {}, people.paula!.cookie);
    expect([affiliate.status, affiliate.body.error?.status]).toEqual([403, 'PERMISSION_DENIED']);
    expect(affiliate.body.result).toBeUndefined();
  });

  it('takes no input: null and {} are accepted, anything else is invalid-argument', async () => {
    expect((await callFn(t, 'adminGetOverview', null, operator.cookie)).status).toBe(200);
    for (const data of [{ months: 24 }, 'all', [], 12]) {
      const response = await callFn(t, 'adminGetOverview', data, operator.cookie);
      expect([response.status, response.body.error?.status]).toEqual([400, 'INVALID_ARGUMENT']);
    }
  });

  // Last: it runs the payouts.
  it('forecasts the next payday by the payout run’s rules, and the run then pays exactly that', async () => {
    const before = await overview();
    // Paula $26 + Bruno $21 + Dana $20; not Lena (no method), Max (below $20) nor Zed (deleted).
    expect(before.nextPayday).toEqual({
      date: PAYDAY,
      cutoff: '2025-06-01T00:00:00.000Z',
      payouts: 3,
      cents: 6700,
    });

    t.clock.now = at('2025-06-15T06:00:00.000Z');
    const run = await runPayouts(t.context, PAYDAY);
    expect(run).toMatchObject({ created: 3, totalCents: 6700, belowMinimum: 1, withoutPaymentMethod: 1 });

    // Once paid, the next payday is July's: what is left (Paula's $2 approved on 3 June, Bruno's $5
    // bonus, Max's $18) is below the minimum everywhere.
    const after = await overview();
    expect(after.nextPayday).toEqual({ date: '2025-07-15', cutoff: '2025-07-01T00:00:00.000Z', payouts: 0, cents: 0 });
    // The latest payday is now June's, and none of its payouts failed.
    expect(after.needsAction.failedPayouts).toEqual({ count: 0, payday: PAYDAY });
    // The scheduled payouts are approved commissions still (paid once the money arrives).
    expect(after.commissions.approved).toEqual(before.commissions.approved);
  });
});

describe('utcMonthsEndingAt', () => {
  it('counts back across a year, from the month of the instant in UTC', () => {
    expect(utcMonthsEndingAt(at('2026-01-01T00:00:00.000Z'), 3)).toEqual(['2025-11', '2025-12', '2026-01']);
    expect(utcMonthsEndingAt(at('2025-12-31T23:59:59.999Z'), 2)).toEqual(['2025-11', '2025-12']);
    expect(utcMonthsEndingAt(at('2025-03-31T12:00:00.000Z'), 12)).toHaveLength(12);
    expect(utcMonthsEndingAt(at('2025-03-31T12:00:00.000Z'), 12)[0]).toBe('2024-04');
  });
});
