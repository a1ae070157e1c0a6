import { MINIMUM_PAYOUT_CENTS } from '@skanova/shared/affiliate/programme';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withJobLock } from '../src/db/job-lock.ts';
import { markPayouts } from '../src/features/payouts/payout-lifecycle.ts';
import { paydayFor, payoutPeriod } from '../src/features/payouts/payout-period.ts';
import { PayoutRunError, runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, callFn, insertConversion } from './helpers/affiliates.ts';
import {
  createOperator,
  createPayee,
  expectPayoutsMatchTheirRows,
  insertAdjustment,
  insertApproved,
  moneyOf,
  payoutsOf,
} from './fixtures/payouts.ts';

// The monthly payout run (docs/product/money.md#payment-timing): who is paid on the 15th and how much, what rolls
// over, and that every cent is paid once whatever happens to the run (repeated, interrupted, run
// twice at once), with the dashboard's figures telling the same story at each step.

const PAYDAY = '2025-06-15';
/** The morning of the payday. */
const NOW = new Date('2025-06-15T06:00:00.000Z');
const CUTOFF = new Date('2025-06-01T00:00:00.000Z');
const MAY = new Date('2025-05-10T12:00:00.000Z');

let t: TestApp;

async function jobRun(payday: string) {
  const { rows } = await t.database.sql.query<{
    status: string;
    attempts: number;
    error: string | null;
    details: Record<string, number> | null;
  }>(`SELECT status, attempts, error, details FROM job_runs WHERE job = 'payouts' AND run_key = $1`, [payday]);
  return rows[0];
}

async function heldBy(conversionIds: number[]) {
  const { rows } = await t.database.sql.query<{ id: number; payout_id: string | null; status: string }>(
    'SELECT id::int AS id, payout_id::text AS payout_id, status FROM conversions WHERE id = ANY($1::bigint[]) ORDER BY id',
    [conversionIds],
  );
  return rows;
}

describe('paydays', () => {
  it('pays on the 15th what was approved before the 1st, labelled with the month before', () => {
    expect(payoutPeriod('2025-06-15')).toEqual({
      payday: '2025-06-15',
      cutoff: CUTOFF,
      periodStart: '2025-05-01',
      periodEnd: '2025-05-31',
    });
    expect(payoutPeriod('2025-03-15')).toMatchObject({ periodStart: '2025-02-01', periodEnd: '2025-02-28' });
    expect(payoutPeriod('2024-03-15')).toMatchObject({ periodStart: '2024-02-01', periodEnd: '2024-02-29' });
    expect(payoutPeriod('2025-01-15')).toMatchObject({
      cutoff: new Date('2025-01-01T00:00:00.000Z'),
      periodStart: '2024-12-01',
      periodEnd: '2024-12-31',
    });
  });

  it('names the latest payday due for the scheduler', () => {
    expect(paydayFor(new Date('2025-06-14T23:59:59.999Z'))).toBe('2025-05-15');
    expect(paydayFor(new Date('2025-06-15T00:00:00.000Z'))).toBe('2025-06-15');
    expect(paydayFor(new Date('2025-07-02T10:00:00.000Z'))).toBe('2025-06-15');
    expect(paydayFor(new Date('2025-01-10T10:00:00.000Z'))).toBe('2024-12-15');
  });
});

describe('runPayouts', () => {
  beforeEach(async () => {
    t = await createTestApp();
    t.clock.now = new Date(NOW);
  });
  afterEach(() => t.close());

  it('schedules one payout per affiliate owed at least the minimum with a method; the rest rolls over', async () => {
    const paypal = await createPayee(t, 'paypal');
    const bank = await createPayee(t, 'bank_transfer');
    const small = await createPayee(t, 'bank_transfer');
    const noMethod = await createPayee(t, 'later');
    const clawedBack = await createPayee(t, 'paypal');
    const lateApproval = await createPayee(t, 'paypal');
    const disabled = await createPayee(t, 'paypal');
    const deleted = await createPayee(t, 'paypal');

    // The cut-off: approved at 23:59:59 on the last day of May is paid, at 00:00 on 1 June is not.
    const paypalIds = await insertApproved(t, paypal.affiliateId, 11, MAY);
    const [lastSecond] = await insertApproved(t, paypal.affiliateId, 1, new Date(CUTOFF.getTime() - 1000));
    const [firstSecond] = await insertApproved(t, paypal.affiliateId, 1, CUTOFF);
    // Pending and recent: neither payable nor approved by the run.
    const pending = await insertConversion(t, paypal.affiliateId, {
      status: 'pending',
      occurredAt: new Date('2025-06-01T08:00:00.000Z'),
    });
    await insertApproved(t, bank.affiliateId, 15, MAY, 200);
    await insertApproved(t, small.affiliateId, 9, MAY);
    await insertApproved(t, noMethod.affiliateId, 15, MAY);
    // 12 × 200, a clawback made after the cut-off (taken at once), a bonus after it (next time).
    await insertApproved(t, clawedBack.affiliateId, 12, MAY);
    await insertAdjustment(t, clawedBack.affiliateId, { cents: -300, createdAt: new Date('2025-06-10T00:00:00.000Z') });
    await insertAdjustment(t, clawedBack.affiliateId, { cents: 500, createdAt: new Date('2025-06-05T00:00:00.000Z') });
    // Still pending, but its 30-day hold ended on 20 May: the run approves it first, and pays it.
    for (let i = 0; i < 10; i++)
      await insertConversion(t, lateApproval.affiliateId, {
        status: 'pending',
        occurredAt: new Date('2025-04-20T00:00:00.000Z'),
      });
    await insertApproved(t, disabled.affiliateId, 11, MAY);
    await t.database.sql.query(
      `UPDATE auth_users SET banned = true WHERE id = (SELECT user_id FROM affiliates WHERE id = $1)`,
      [disabled.affiliateId],
    );
    await insertApproved(t, deleted.affiliateId, 5, MAY);
    await t.database.sql.query('UPDATE affiliates SET deleted_at = $2 WHERE id = $1', [
      deleted.affiliateId,
      MAY.toISOString(),
    ]);

    const before = await moneyOf(t, paypal);
    expect(before).toMatchObject({ totalEarningsCents: 2800, unpaidEarningsCents: 2800 });
    const result = await runPayouts(t.context, PAYDAY);
    expect(result).toEqual({
      payday: PAYDAY,
      created: 5,
      totalCents: 2400 + 3000 + 2100 + 2000 + 2200,
      belowMinimum: 1,
      withoutPaymentMethod: 1,
      alreadyDone: false,
      payoutCount: 5,
      payoutTotalCents: 2400 + 3000 + 2100 + 2000 + 2200,
    });

    const payouts = await payoutsOf(t);
    const byAffiliate = new Map(payouts.map((payout) => [payout.affiliate_id, payout]));
    expect(payouts.map((payout) => payout.affiliate_id).sort()).toEqual(
      [paypal, bank, clawedBack, lateApproval, disabled].map((affiliate) => affiliate.affiliateId).sort(),
    );
    for (const payout of payouts) {
      expect(payout).toMatchObject({
        period_start: '2025-05-01',
        period_end: '2025-05-31',
        scheduled_for: PAYDAY,
        status: 'scheduled',
        currency: 'USD',
      });
    }
    expect(byAffiliate.get(paypal.affiliateId)).toMatchObject({
      amount_cents: 2400,
      method: 'paypal',
      method_snapshot: { type: 'paypal', paypalEmail: paypal.paypalEmail },
    });
    expect(byAffiliate.get(clawedBack.affiliateId)?.amount_cents).toBe(2100);
    expect(byAffiliate.get(lateApproval.affiliateId)?.amount_cents).toBe(MINIMUM_PAYOUT_CENTS);
    // The bank snapshot keeps the IBAN and BIC sealed.
    const bankPayout = byAffiliate.get(bank.affiliateId)!;
    expect(bankPayout).toMatchObject({
      amount_cents: 3000,
      method: 'bank_transfer',
      method_snapshot: { type: 'bank_transfer', accountHolder: 'Ada Lovelace', ibanLast4: bank.iban!.slice(-4) },
    });
    expect(JSON.stringify(bankPayout.method_snapshot)).not.toContain(bank.iban!.slice(4, 12));
    expect(t.context.cipher.decrypt(bankPayout.method_snapshot.ibanEncrypted as string)).toBe(bank.iban);

    const paypalPayout = byAffiliate.get(paypal.affiliateId)!.id;
    const linked = await heldBy([...paypalIds, lastSecond!, firstSecond!, pending]);
    expect(linked.map((row) => row.payout_id)).toEqual([
      ...paypalIds.map(() => paypalPayout),
      paypalPayout,
      null,
      null,
    ]);
    await expectPayoutsMatchTheirRows(t);

    // The dashboard: nothing is paid yet (scheduled), and what the next payday (15 July) will pay is
    // only what no payout holds.
    const after = await moneyOf(t, paypal);
    expect(after).toEqual({ ...before, payableCents: 0, approvedUnpaidCents: 2600 });
    const { rows: approval } = await t.database.sql.query<{ approved_at: string }>(
      `SELECT DISTINCT approved_at::text FROM conversions WHERE affiliate_id = $1`,
      [lateApproval.affiliateId],
    );
    expect(approval.map((row) => new Date(row.approved_at).toISOString())).toEqual(['2025-05-20T00:00:00.000Z']);

    expect(await jobRun(PAYDAY)).toMatchObject({
      status: 'done',
      attempts: 1,
      error: null,
      details: { created: 5, payoutCount: 5 },
    });
    const { rows: audit } = await t.database.sql.query<{ actor: string; details: Record<string, number> }>(
      `SELECT actor, details FROM audit_log WHERE action = 'payouts.run' AND subject = $1`,
      [PAYDAY],
    );
    expect(audit).toEqual([
      { actor: 'system', details: expect.objectContaining({ created: 5, belowMinimum: 1, withoutPaymentMethod: 1 }) },
    ]);
  });

  it('pays the minimum exactly, not a cent less', async () => {
    const exact = await createPayee(t, 'paypal');
    const short = await createPayee(t, 'paypal');
    await insertApproved(t, exact.affiliateId, 1, MAY, MINIMUM_PAYOUT_CENTS);
    await insertApproved(t, short.affiliateId, 1, MAY, MINIMUM_PAYOUT_CENTS - 1);
    const result = await runPayouts(t.context, PAYDAY);
    expect(result).toMatchObject({ created: 1, totalCents: MINIMUM_PAYOUT_CENTS, belowMinimum: 1 });
    expect((await payoutsOf(t)).map((payout) => payout.affiliate_id)).toEqual([exact.affiliateId]);
  });

  it('run again, does nothing new and answers the recorded figures', async () => {
    const affiliate = await createPayee(t, 'paypal');
    await insertApproved(t, affiliate.affiliateId, 12, MAY);
    const first = await runPayouts(t.context, PAYDAY);
    const payouts = await payoutsOf(t);
    // New money approved since would not change a finished payday.
    await insertApproved(t, affiliate.affiliateId, 12, MAY);
    const second = await runPayouts(t.context, PAYDAY, { actor: 'operator-1' });
    expect(second).toEqual({ ...first, created: 0, totalCents: 0, alreadyDone: true });
    expect(await payoutsOf(t)).toEqual(payouts);
    expect(await jobRun(PAYDAY)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('resumes an interrupted run and pays each cent once', async () => {
    const affiliates: TestAffiliate[] = [];
    for (let i = 0; i < 7; i++) {
      const affiliate = await createPayee(t, i % 2 === 0 ? 'paypal' : 'bank_transfer');
      await insertApproved(t, affiliate.affiliateId, 10 + i, MAY);
      affiliates.push(affiliate);
    }
    // Batches of 2 affiliates; the second batch fails before its commit, as if the process died there.
    const crash = new Error('killed');
    await expect(
      runPayouts(t.context, PAYDAY, {
        batchSize: 2,
        beforeBatchCommit: (batch) => {
          if (batch === 2) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    const partial = await payoutsOf(t);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(7);
    expect(await jobRun(PAYDAY)).toMatchObject({ status: 'failed', attempts: 1, error: 'killed' });
    await expectPayoutsMatchTheirRows(t);

    const resumed = await runPayouts(t.context, PAYDAY, { batchSize: 2 });
    expect(resumed).toMatchObject({ created: 7 - partial.length, payoutCount: 7, alreadyDone: false });
    const payouts = await payoutsOf(t);
    expect(payouts).toHaveLength(7);
    // The payouts of the first attempt are untouched.
    for (const payout of partial) expect(payouts).toContainEqual(payout);
    expect(payouts.map((payout) => payout.amount_cents).sort((a, b) => a - b)).toEqual([
      2000, 2200, 2400, 2600, 2800, 3000, 3200,
    ]);
    expect(resumed.payoutTotalCents).toBe(2000 + 2200 + 2400 + 2600 + 2800 + 3000 + 3200);
    await expectPayoutsMatchTheirRows(t);
    expect(await jobRun(PAYDAY)).toMatchObject({ status: 'done', attempts: 2, error: null });
  });

  it('runs once when started twice at the same time; the other is refused', async () => {
    for (let i = 0; i < 3; i++) await insertApproved(t, (await createPayee(t, 'paypal')).affiliateId, 10, MAY);
    const outcomes = await Promise.allSettled([runPayouts(t.context, PAYDAY), runPayouts(t.context, PAYDAY)]);
    const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toBeInstanceOf(PayoutRunError);
    expect(rejected[0]!.reason.code).toBe('run-in-progress');
    expect(await payoutsOf(t)).toHaveLength(3);
    await expectPayoutsMatchTheirRows(t);

    // Through the operator's function: `aborted` while a run holds the job, then it runs.
    t.clock.now = new Date('2025-07-15T06:00:00.000Z');
    const operator = await createOperator(t);
    for (let i = 0; i < 2; i++)
      await insertApproved(t, (await createPayee(t, 'paypal')).affiliateId, 10, new Date('2025-06-10T00:00:00.000Z'));
    const busy = await withJobLock(t.context, 'payouts', () =>
      callFn(t, 'adminRunPayouts', { payday: '2025-07-15' }, operator.cookie),
    );
    expect(busy.ran && busy.value.status).toBe(409);
    expect(busy.ran && busy.value.body.error).toMatchObject({
      status: 'ABORTED',
      details: { code: 'run-in-progress' },
    });
    const free = await callFn(t, 'adminRunPayouts', { payday: '2025-07-15' }, operator.cookie);
    expect(free.status).toBe(200);
    expect(free.body.result).toMatchObject({ payday: '2025-07-15', created: 2, alreadyDone: false });
  });

  it('refuses a payday that has not come, or is not a 15th', async () => {
    await expect(runPayouts(t.context, '2025-07-15')).rejects.toMatchObject({ code: 'payday-not-due' });
    await expect(runPayouts(t.context, '2025-06-14')).rejects.toMatchObject({ code: 'invalid-payday' });
    const operator = await createOperator(t);
    const early = await callFn(t, 'adminRunPayouts', { payday: '2025-07-15' }, operator.cookie);
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({ status: 'FAILED_PRECONDITION', details: { code: 'payday-not-due' } });
    const malformed = await callFn(t, 'adminRunPayouts', { payday: '2025-06-16' }, operator.cookie);
    expect(malformed.body.error?.status).toBe('INVALID_ARGUMENT');
    expect(await jobRun('2025-07-15')).toBeUndefined();
  });

  it('leaves a payout’s rows to it: the next payday pays only what came after', async () => {
    const affiliate = await createPayee(t, 'paypal');
    await insertApproved(t, affiliate.affiliateId, 11, MAY);
    await insertAdjustment(t, affiliate.affiliateId, { cents: -100, createdAt: MAY });
    expect(await runPayouts(t.context, PAYDAY)).toMatchObject({ created: 1, totalCents: 2100 });
    // The June payout is not sent yet when July's run comes.
    await insertApproved(t, affiliate.affiliateId, 11, new Date('2025-06-20T00:00:00.000Z'));
    t.clock.now = new Date('2025-07-15T02:00:00.000Z');
    expect(await runPayouts(t.context, '2025-07-15')).toMatchObject({ created: 1, totalCents: 2200 });
    const payouts = await payoutsOf(t, affiliate.affiliateId);
    expect(payouts.map((payout) => [payout.scheduled_for, payout.status, payout.amount_cents])).toEqual([
      ['2025-06-15', 'scheduled', 2100],
      ['2025-07-15', 'scheduled', 2200],
    ]);
    await expectPayoutsMatchTheirRows(t);
  });

  it('pays a failed payout’s amount on the next run, with what was earned since', async () => {
    const affiliate = await createPayee(t, 'paypal');
    await insertApproved(t, affiliate.affiliateId, 11, MAY);
    await runPayouts(t.context, PAYDAY);
    const [june] = await payoutsOf(t);
    const scheduled = await moneyOf(t, affiliate);
    await markPayouts(t.context, { payoutIds: [june!.id], status: 'sent', actor: 'operator' });
    const sent = await moneyOf(t, affiliate);
    expect(sent.unpaidEarningsCents).toBe(scheduled.unpaidEarningsCents - 2200);
    await markPayouts(t.context, {
      payoutIds: [june!.id],
      status: 'failed',
      reason: 'PayPal account closed',
      actor: 'operator',
    });
    // Back in the balance: unpaid again, and payable on the next payday.
    expect(await moneyOf(t, affiliate)).toEqual({ ...scheduled, payableCents: 2200 });

    await insertApproved(t, affiliate.affiliateId, 3, new Date('2025-06-20T00:00:00.000Z'));
    t.clock.now = new Date('2025-07-15T02:00:00.000Z');
    const july = await runPayouts(t.context, '2025-07-15');
    expect(july).toMatchObject({ created: 1, totalCents: 2800 });
    const payouts = await payoutsOf(t, affiliate.affiliateId);
    expect(
      payouts.map((payout) => [payout.status, payout.amount_cents, payout.period_start, payout.failure_reason]),
    ).toEqual([
      ['failed', 2200, '2025-05-01', 'PayPal account closed'],
      ['scheduled', 2800, '2025-06-01', null],
    ]);
    await expectPayoutsMatchTheirRows(t);
  });

  it('can pay a period again after its payout failed, while the run is not finished', async () => {
    const first = await createPayee(t, 'paypal');
    const second = await createPayee(t, 'paypal');
    await insertApproved(t, first.affiliateId, 10, MAY);
    await insertApproved(t, second.affiliateId, 10, MAY);
    const [early] = [first, second].map((affiliate) => affiliate.affiliateId).sort();
    // The run stops after its first batch (one affiliate); that payout fails meanwhile.
    await expect(
      runPayouts(t.context, PAYDAY, {
        batchSize: 1,
        beforeBatchCommit: (batch) => {
          if (batch === 2) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const [failed] = await payoutsOf(t);
    expect(failed?.affiliate_id).toBe(early);
    await markPayouts(t.context, { payoutIds: [failed!.id], status: 'failed', reason: 'Returned', actor: 'operator' });

    t.clock.advance(60_000);
    await runPayouts(t.context, PAYDAY, { batchSize: 1 });
    const payouts = await payoutsOf(t, early);
    expect(payouts.map((payout) => [payout.status, payout.period_start, payout.amount_cents])).toEqual([
      ['failed', '2025-05-01', 2000],
      ['scheduled', '2025-05-01', 2000],
    ]);
    await expectPayoutsMatchTheirRows(t);
  });
});
