import { setImmediate as nextTurn } from 'node:timers/promises';
import { isPayday } from '@skanova/shared/payouts/payday';
import type { PayoutRunResult } from '@skanova/shared/payouts/functions';
import { COMMISSION_CURRENCY, MINIMUM_PAYOUT_CENTS } from '@skanova/shared/affiliate/programme';
import type { AppContext } from '../../context.ts';
import {
  type SealedPaymentMethod,
  type SealedPaymentMethodRow,
  sealedFromRow,
} from '../../domain/payment-method-store.ts';
import { type TransactionQuery, inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { approveDueCommissions } from '../../domain/commission-approval.ts';
import { withJobLock } from '../../db/job-lock.ts';
import { heldByPayout, payableAdjustment, payableConversion } from '../../domain/money.ts';
import { type PayoutPeriod, isPaydayDue, payoutPeriod } from './payout-period.ts';

// The monthly payout run (BRIEF §5.2, §6 "Money and stats"; spec §9). For one payday, every
// affiliate's payable balance (the dashboard's rule, domain/money.ts) of at least the minimum
// becomes one `scheduled` payout when a payment method is on file; anything less rolls over.
//
// - Exactly once: the run holds the job lock (one run at a time across processes); each batch of
//   affiliates is one transaction that locks the affiliates and their payable rows, inserts the
//   payouts and links the rows, so a payout's amount is exactly the sum of the rows it holds. A row
//   already held by a payout is never payable again, and one live payout per affiliate and period
//   is a unique key: a second run, or a run resumed after a crash, pays only what is left.
// - Small batches: the embedded database has one connection, and requests get it between batches.
// - job_runs records the run under its payday: `running`, then `done` with its figures (a done
//   payday is answered from there and not run again), or `failed` with the error (run it again).
// - Deleted affiliates are skipped: deletion is refused while $20 or more is owed, and their payment
//   method is gone with their personal data; what is left stays in the books.
// - Disabled (banned) affiliates are paid what they earned (BRIEF §6): the ban stops new earnings.

const JOB = 'payouts';
/**
 * Affiliates per transaction. The embedded database works on the event loop's thread: while a batch
 * runs, nothing else does, so its batches stay short (tens of milliseconds). PostgreSQL answers other
 * connections meanwhile; larger batches only hold their row locks a little longer.
 */
const BATCH_SIZES = { pglite: 100, postgres: 500 } as const;

export type PayoutRunErrorCode = 'run-in-progress' | 'payday-not-due' | 'invalid-payday';

export class PayoutRunError extends Error {
  constructor(
    readonly code: PayoutRunErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PayoutRunError';
  }
}

export interface PayoutRunOptions {
  /** Who started the run (an operator's user id); the scheduler's runs are `system`. */
  actor?: string;
  /** Affiliates per transaction. */
  batchSize?: number;
  /**
   * Called inside each batch's transaction just before it commits (batches numbered from 1). A throw
   * rolls that batch back and stops the run, as a crash would: tests interrupt a run with it.
   */
  beforeBatchCommit?: (batch: number) => void | Promise<void>;
}

/** What the payouts hold of the payment method when scheduled: IBAN and BIC stay sealed. */
export type MethodSnapshot = SealedPaymentMethod;

interface RunFigures {
  created: number;
  totalCents: number;
  belowMinimum: number;
  withoutPaymentMethod: number;
}

interface PaydayTotals {
  payoutCount: number;
  payoutTotalCents: number;
}

type DoneDetails = RunFigures & PaydayTotals;

/**
 * Runs the payouts of `payday` (YYYY-MM-15, already come). Answers what it did; throws a
 * `PayoutRunError` `run-in-progress` at once when another run holds the lock. Safe to repeat.
 */
export async function runPayouts(
  app: AppContext,
  payday: string,
  options: PayoutRunOptions = {},
): Promise<PayoutRunResult> {
  if (!isPayday(payday)) throw new PayoutRunError('invalid-payday', `"${payday}" is not a payday (YYYY-MM-15).`);
  if (!isPaydayDue(payday, app.now()))
    throw new PayoutRunError('payday-not-due', `The payday ${payday} has not come yet.`);
  const outcome = await withJobLock(app, JOB, () => runLocked(app, payoutPeriod(payday), options));
  if (!outcome.ran) throw new PayoutRunError('run-in-progress', 'A payout run is already in progress.');
  return outcome.value;
}

async function runLocked(app: AppContext, period: PayoutPeriod, options: PayoutRunOptions): Promise<PayoutRunResult> {
  const done = await startRun(app, period.payday);
  if (done) return { payday: period.payday, ...done, created: 0, totalCents: 0, alreadyDone: true };

  try {
    // Commissions whose hold ended before the cut-off are payable on this payday even if the
    // approval job has not run since.
    await approveDueCommissions(app);
    const figures: RunFigures = { created: 0, totalCents: 0, belowMinimum: 0, withoutPaymentMethod: 0 };
    const batchSize = options.batchSize ?? BATCH_SIZES[app.database.kind];
    let after = '';
    for (let batch = 1; ; batch++) {
      const result = await inTransaction(app, async (tx) => {
        const scheduled = await scheduleBatch(app, tx, period, after, batchSize);
        await options.beforeBatchCommit?.(batch);
        return scheduled;
      });
      figures.created += result.created;
      figures.totalCents += result.totalCents;
      figures.belowMinimum += result.belowMinimum;
      figures.withoutPaymentMethod += result.withoutPaymentMethod;
      if (result.lastAffiliateId === null) break;
      after = result.lastAffiliateId;
      // The embedded database answers within the same turn of the event loop: without this pause the
      // batches would follow each other without a request (or a timer) ever getting in between.
      await nextTurn();
    }
    const totals = await finishRun(app, period.payday, figures, options.actor ?? 'system');
    return { payday: period.payday, ...figures, ...totals, alreadyDone: false };
  } catch (error) {
    await recordFailure(app, period.payday, error);
    throw error;
  }
}

/** Marks the payday's run `running` (a new attempt); answers the recorded figures if it is done. */
async function startRun(app: AppContext, payday: string): Promise<DoneDetails | null> {
  const { rows } = await app.database.sql.query<{ status: string }>(
    `INSERT INTO job_runs (job, run_key, status, started_at) VALUES ($1, $2, 'running', $3)
     ON CONFLICT (job, run_key) DO UPDATE
       SET status = 'running', attempts = job_runs.attempts + 1, started_at = EXCLUDED.started_at, finished_at = NULL, error = NULL
       WHERE job_runs.status <> 'done'
     RETURNING status`,
    [JOB, payday, app.now().toISOString()],
  );
  if (rows.length > 0) return null;
  const { rows: done } = await app.database.sql.query<{ details: DoneDetails | string }>(
    'SELECT details FROM job_runs WHERE job = $1 AND run_key = $2',
    [JOB, payday],
  );
  const details = done[0]?.details;
  if (!details) throw new Error(`job run ${JOB}/${payday} is done without details`);
  // node-postgres and PGlite parse jsonb; a driver that does not would hand over the text.
  const parsed = typeof details === 'string' ? (JSON.parse(details) as DoneDetails) : details;
  return {
    belowMinimum: parsed.belowMinimum,
    withoutPaymentMethod: parsed.withoutPaymentMethod,
    payoutCount: parsed.payoutCount,
    payoutTotalCents: parsed.payoutTotalCents,
    created: parsed.created,
    totalCents: parsed.totalCents,
  };
}

async function finishRun(app: AppContext, payday: string, figures: RunFigures, actor: string): Promise<PaydayTotals> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const { rows } = await tx.query<PaydayTotals>(
      `SELECT count(*)::int AS "payoutCount", coalesce(sum(amount_cents), 0)::int AS "payoutTotalCents"
       FROM payouts WHERE scheduled_for = $1 AND status <> 'failed'`,
      [payday],
    );
    const totals = rows[0] ?? { payoutCount: 0, payoutTotalCents: 0 };
    const details: DoneDetails = { ...figures, ...totals };
    await tx.query(
      `UPDATE job_runs SET status = 'done', details = $3, finished_at = $4 WHERE job = $1 AND run_key = $2`,
      [JOB, payday, JSON.stringify(details), now.toISOString()],
    );
    await recordAudit(tx, { actor, action: 'payouts.run', subject: payday, details: { ...details }, at: now });
    return totals;
  });
}

async function recordFailure(app: AppContext, payday: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  try {
    await app.database.sql.query(
      `UPDATE job_runs SET status = 'failed', error = $3, finished_at = $4 WHERE job = $1 AND run_key = $2`,
      [JOB, payday, message.slice(0, 2000), app.now().toISOString()],
    );
  } catch (recordError) {
    // The run's own error is the one that matters; a re-run resumes either way.
    app.log.error({ err: recordError }, 'could not record the failed payout run');
  }
}

interface BatchResult extends RunFigures {
  /** The batch's last affiliate (the next batch starts after it), or null when none was left. */
  lastAffiliateId: string | null;
}

interface PayableRow {
  id: string;
  affiliate_id: string;
  cents: number;
}

interface MethodRow extends SealedPaymentMethodRow {
  affiliate_id: string;
}

/**
 * A list as one text parameter in PostgreSQL's array syntax: inside a transaction, statements go
 * through Drizzle, which would spread a JavaScript array into separate parameters.
 */
function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** One batch of affiliates after `after` (by id): their payouts and linked rows, in the caller's transaction. */
async function scheduleBatch(
  app: AppContext,
  tx: TransactionQuery,
  period: PayoutPeriod,
  after: string,
  size: number,
): Promise<BatchResult> {
  const result: BatchResult = {
    created: 0,
    totalCents: 0,
    belowMinimum: 0,
    withoutPaymentMethod: 0,
    lastAffiliateId: null,
  };
  // The affiliates' rows are locked against an account deletion (which checks what is owed), but
  // without the key lock: a refund inserting an adjustment (a key-share lock on its affiliate)
  // while holding the conversion this batch waits for would otherwise deadlock with it.
  const { rows: affiliates } = await tx.query<{ id: string }>(
    'SELECT id FROM affiliates WHERE id > $1 AND deleted_at IS NULL ORDER BY id LIMIT $2 FOR NO KEY UPDATE',
    [after, size],
  );
  if (affiliates.length === 0) return result;
  result.lastAffiliateId = affiliates[affiliates.length - 1]!.id;
  const batch = textArray(affiliates.map((affiliate) => affiliate.id));
  const cutoff = period.cutoff.toISOString();

  // Locked: a refund (which reverses a conversion no payout holds) waits for this batch, or this
  // batch waits for it and no longer sees the reversed row; the sums below are then final. One
  // affiliate at a time through its index (LATERAL): the embedded database keeps no planner
  // statistics, and would otherwise read the whole table for every batch.
  const { rows: conversions } = await tx.query<PayableRow>(
    `SELECT p.id::text AS id, p.affiliate_id, p.cents
     FROM unnest($1::text[]) AS batch(affiliate_id)
     CROSS JOIN LATERAL (
       SELECT c.id, c.affiliate_id, c.commission_cents AS cents FROM conversions c
       WHERE c.affiliate_id = batch.affiliate_id AND ${payableConversion('c', '$2::timestamptz')} AND NOT ${heldByPayout('c.payout_id')}
       FOR UPDATE OF c
     ) p
     ORDER BY p.id`,
    [batch, cutoff],
  );
  const { rows: adjustments } = await tx.query<PayableRow>(
    `SELECT p.id::text AS id, p.affiliate_id, p.cents
     FROM unnest($1::text[]) AS batch(affiliate_id)
     CROSS JOIN LATERAL (
       SELECT a.id, a.affiliate_id, a.amount_cents AS cents FROM commission_adjustments a
       WHERE a.affiliate_id = batch.affiliate_id AND ${payableAdjustment('a', '$2::timestamptz')} AND NOT ${heldByPayout('a.payout_id')}
       FOR UPDATE OF a
     ) p
     ORDER BY p.id`,
    [batch, cutoff],
  );
  if (conversions.length === 0 && adjustments.length === 0) return result;

  const balances = new Map<string, number>();
  for (const row of [...conversions, ...adjustments])
    balances.set(row.affiliate_id, (balances.get(row.affiliate_id) ?? 0) + row.cents);
  const { rows: methods } = await tx.query<MethodRow>(
    `SELECT affiliate_id, type, paypal_email, bank_name, account_holder, iban_encrypted, bic_encrypted, iban_last4
     FROM payment_methods WHERE affiliate_id = ANY($1::text[])`,
    [batch],
  );
  const methodOf = new Map(methods.map((row) => [row.affiliate_id, row]));

  const toPay: { affiliate_id: string; amount_cents: number; method: string; snapshot: MethodSnapshot }[] = [];
  for (const [affiliateId, cents] of balances) {
    const method = methodOf.get(affiliateId);
    if (cents < MINIMUM_PAYOUT_CENTS) result.belowMinimum++;
    else if (!method) result.withoutPaymentMethod++;
    else
      toPay.push({
        affiliate_id: affiliateId,
        amount_cents: cents,
        method: method.type,
        snapshot: sealedFromRow(method),
      });
  }
  if (toPay.length === 0) return result;

  // An affiliate who already has a live payout for the period (an earlier run) keeps it: the insert
  // does nothing for them and their rows stay unlinked, for the next payday.
  const { rows: created } = await tx.query<{ id: string; affiliate_id: string; amount_cents: number }>(
    `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, currency, method, method_snapshot, status, scheduled_for, created_at)
     SELECT x.affiliate_id, $2::date, $3::date, x.amount_cents, $4, x.method, x.snapshot, 'scheduled', $5::date, $6
     FROM jsonb_to_recordset($1::jsonb) AS x(affiliate_id text, amount_cents int, method text, snapshot jsonb)
     ORDER BY x.affiliate_id
     ON CONFLICT (affiliate_id, period_start) WHERE status <> 'failed' DO NOTHING
     RETURNING id::text AS id, affiliate_id, amount_cents`,
    [
      JSON.stringify(toPay),
      period.periodStart,
      period.periodEnd,
      COMMISSION_CURRENCY,
      period.payday,
      app.now().toISOString(),
    ],
  );
  if (created.length === 0) return result;

  const payoutOf = new Map(created.map((row) => [row.affiliate_id, row.id]));
  const links = (rows: PayableRow[]) =>
    JSON.stringify(
      rows
        .filter((row) => payoutOf.has(row.affiliate_id))
        .map((row) => ({ id: row.id, payout_id: payoutOf.get(row.affiliate_id) })),
    );
  await tx.query(
    `UPDATE conversions c SET payout_id = x.payout_id
     FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, payout_id uuid) WHERE c.id = x.id`,
    [links(conversions)],
  );
  await tx.query(
    `UPDATE commission_adjustments a SET payout_id = x.payout_id
     FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, payout_id uuid) WHERE a.id = x.id`,
    [links(adjustments)],
  );
  result.created = created.length;
  result.totalCents = created.reduce((sum, row) => sum + row.amount_cents, 0);
  return result;
}
