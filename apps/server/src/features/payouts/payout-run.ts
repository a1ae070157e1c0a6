import { setImmediate as nextTurn } from 'node:timers/promises';
import { isPayday } from '@skanova/shared/payouts/payday';
import type { PayoutRunResult } from '@skanova/shared/payouts/functions';
import { COMMISSION_CURRENCY } from '@skanova/shared/affiliate/programme';
import { and, asc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type SealedPaymentMethod, sealedPaymentMethodColumns } from '../../domain/payment-method-store.ts';
import { affiliates, paymentMethods, payouts } from '../../db/schema/affiliates.ts';
import { jobRuns } from '../../db/schema/programme.ts';
import { type Tx, inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { approveDueCommissions } from '../../domain/commission-approval.ts';
import { withJobLock } from '../../db/job-lock.ts';
import { heldByPayout, payableAdjustment, payableConversion } from '../../domain/money.ts';
import { minimumPayouts } from '../../domain/reward-rules.ts';
import { type PayoutPeriod, isPaydayDue, payoutPeriod } from './payout-period.ts';

// The monthly payout run (docs/product/money.md#payment-timing, docs/product/money.md#statistics). For one payday, every
// affiliate's payable balance (the dashboard's rule, domain/money.ts) of at least the minimum
// becomes one `scheduled` payout when a payment method is on file; anything less rolls over. The minimum
// is the one of the affiliate's group (docs/product/money.md#partner-groups-and-reward-rules).
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
// - Disabled (banned) affiliates are paid what they earned (docs/product/money.md#disabled-and-deleted-accounts): the ban stops new earnings.

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
  const started = await app.database.db
    .insert(jobRuns)
    .values({ job: JOB, runKey: payday, status: 'running', startedAt: app.now() })
    .onConflictDoUpdate({
      target: [jobRuns.job, jobRuns.runKey],
      set: {
        status: 'running',
        attempts: sql`${jobRuns.attempts} + 1`,
        startedAt: sql`excluded.started_at`,
        finishedAt: null,
        error: null,
      },
      setWhere: ne(jobRuns.status, 'done'),
    })
    .returning({ status: jobRuns.status });
  if (started.length > 0) return null;
  const [done] = await app.database.db
    .select({ details: jobRuns.details })
    .from(jobRuns)
    .where(and(eq(jobRuns.job, JOB), eq(jobRuns.runKey, payday)));
  const details = done?.details as DoneDetails | null | undefined;
  if (!details) throw new Error(`job run ${JOB}/${payday} is done without details`);
  return {
    belowMinimum: details.belowMinimum,
    withoutPaymentMethod: details.withoutPaymentMethod,
    payoutCount: details.payoutCount,
    payoutTotalCents: details.payoutTotalCents,
    created: details.created,
    totalCents: details.totalCents,
  };
}

async function finishRun(app: AppContext, payday: string, figures: RunFigures, actor: string): Promise<PaydayTotals> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const [totals = { payoutCount: 0, payoutTotalCents: 0 }] = await tx.db
      .select({
        payoutCount: sql<number>`count(*)::int`,
        payoutTotalCents: sql<number>`coalesce(sum(${payouts.amountCents}), 0)::int`,
      })
      .from(payouts)
      .where(and(eq(payouts.scheduledFor, payday), ne(payouts.status, 'failed')));
    const details: DoneDetails = { ...figures, ...totals };
    await tx.db
      .update(jobRuns)
      .set({ status: 'done', details, finishedAt: now })
      .where(and(eq(jobRuns.job, JOB), eq(jobRuns.runKey, payday)));
    await recordAudit(tx, { actor, action: 'payouts.run', subject: payday, details: { ...details }, at: now });
    return totals;
  });
}

async function recordFailure(app: AppContext, payday: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  try {
    await app.database.db
      .update(jobRuns)
      .set({ status: 'failed', error: message.slice(0, 2000), finishedAt: app.now() })
      .where(and(eq(jobRuns.job, JOB), eq(jobRuns.runKey, payday)));
  } catch (recordError) {
    // The run's own error is the one that matters; a re-run resumes either way.
    app.log.error({ err: recordError }, 'could not record the failed payout run');
  }
}

interface BatchResult extends RunFigures {
  /** The batch's last affiliate (the next batch starts after it), or null when none was left. */
  lastAffiliateId: string | null;
}

/** A payable row of a ledger (a conversion or an adjustment) and its amount. */
interface PayableRow {
  id: string;
  affiliate_id: string;
  cents: number;
}

/** The two ledgers a payout holds rows of: their table, alias, amount column and payable rule (domain/money.ts). */
const LEDGERS = {
  conversions: { table: 'conversions', alias: 'c', cents: 'commission_cents', payable: payableConversion },
  adjustments: { table: 'commission_adjustments', alias: 'a', cents: 'amount_cents', payable: payableAdjustment },
} as const;

type Ledger = (typeof LEDGERS)[keyof typeof LEDGERS];

/**
 * A list as one text parameter in PostgreSQL's array syntax: inside a transaction, statements go
 * through Drizzle, which would spread a JavaScript array into separate parameters.
 */
function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * The ledger's rows of the batch's affiliates payable at the cut-off and not yet held by a payout,
 * locked. One affiliate at a time through its index (LATERAL): the embedded database keeps no
 * planner statistics, and would otherwise read the whole table for every batch.
 */
async function lockPayableRows(tx: Tx, ledger: Ledger, batch: string, cutoff: string): Promise<PayableRow[]> {
  const { table, alias: l, cents, payable } = ledger;
  const { rows } = await tx.query<PayableRow>(
    `SELECT p.id::text AS id, p.affiliate_id, p.cents
     FROM unnest($1::text[]) AS batch(affiliate_id)
     CROSS JOIN LATERAL (
       SELECT ${l}.id, ${l}.affiliate_id, ${l}.${cents} AS cents FROM ${table} ${l}
       WHERE ${l}.affiliate_id = batch.affiliate_id AND ${payable(l, '$2::timestamptz')} AND NOT ${heldByPayout(`${l}.payout_id`)}
       FOR UPDATE OF ${l}
     ) p
     ORDER BY p.id`,
    [batch, cutoff],
  );
  return rows;
}

/** Links the ledger's rows to the payout of their affiliate (`payoutOf`); rows of others stay unlinked. */
async function linkToPayouts(
  tx: Tx,
  ledger: Ledger,
  rows: readonly PayableRow[],
  payoutOf: ReadonlyMap<string, string>,
): Promise<void> {
  const links = rows
    .filter((row) => payoutOf.has(row.affiliate_id))
    .map((row) => ({ id: row.id, payout_id: payoutOf.get(row.affiliate_id) }));
  const { table, alias: l } = ledger;
  await tx.query(
    `UPDATE ${table} ${l} SET payout_id = x.payout_id
     FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, payout_id uuid) WHERE ${l}.id = x.id`,
    [JSON.stringify(links)],
  );
}

/** One batch of affiliates after `after` (by id): their payouts and linked rows, in the caller's transaction. */
async function scheduleBatch(
  app: AppContext,
  tx: Tx,
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
  const batchAffiliates = await tx.db
    .select({ id: affiliates.id })
    .from(affiliates)
    .where(and(gt(affiliates.id, after), isNull(affiliates.deletedAt)))
    .orderBy(asc(affiliates.id))
    .limit(size)
    .for('no key update');
  if (batchAffiliates.length === 0) return result;
  const affiliateIds = batchAffiliates.map((affiliate) => affiliate.id);
  result.lastAffiliateId = affiliateIds[affiliateIds.length - 1]!;
  const batch = textArray(affiliateIds);
  const cutoff = period.cutoff.toISOString();

  // Locked: a refund (which reverses a conversion no payout holds) waits for this batch, or this
  // batch waits for it and no longer sees the reversed row; the sums below are then final.
  const conversions = await lockPayableRows(tx, LEDGERS.conversions, batch, cutoff);
  const adjustments = await lockPayableRows(tx, LEDGERS.adjustments, batch, cutoff);
  if (conversions.length === 0 && adjustments.length === 0) return result;

  const balances = new Map<string, number>();
  for (const row of [...conversions, ...adjustments])
    balances.set(row.affiliate_id, (balances.get(row.affiliate_id) ?? 0) + row.cents);
  const methods = await tx.db
    .select({ affiliateId: paymentMethods.affiliateId, ...sealedPaymentMethodColumns })
    .from(paymentMethods)
    .where(inArray(paymentMethods.affiliateId, affiliateIds));
  const methodOf = new Map(methods.map(({ affiliateId, ...method }) => [affiliateId, method]));
  const minimumOf = await minimumPayouts(tx, [...balances.keys()], app.now());

  const toPay: { affiliate_id: string; amount_cents: number; method: string; snapshot: MethodSnapshot }[] = [];
  for (const [affiliateId, cents] of balances) {
    const method = methodOf.get(affiliateId);
    if (cents < (minimumOf.get(affiliateId) ?? Number.POSITIVE_INFINITY)) result.belowMinimum++;
    else if (!method) result.withoutPaymentMethod++;
    else
      toPay.push({
        affiliate_id: affiliateId,
        amount_cents: cents,
        method: method.type,
        snapshot: method,
      });
  }
  if (toPay.length === 0) return result;

  // An affiliate who already has a live payout for the period (an earlier run) keeps it: the insert
  // does nothing for them and their rows stay unlinked, for the next payday.
  const { rows: created } = await tx.query<{ id: string; affiliate_id: string; amount_cents: number }>(
    `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, currency, method, method_snapshot, status, scheduled_for, created_at)
     SELECT x.affiliate_id, $2::date, $3::date, x.amount_cents, $4, x.method, x.snapshot, 'scheduled', $5::date, $6
     FROM jsonb_to_recordset($1::jsonb) AS x(affiliate_id text, amount_cents bigint, method text, snapshot jsonb)
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
  await linkToPayouts(tx, LEDGERS.conversions, conversions, payoutOf);
  await linkToPayouts(tx, LEDGERS.adjustments, adjustments, payoutOf);
  result.created = created.length;
  result.totalCents = created.reduce((sum, row) => sum + row.amount_cents, 0);
  return result;
}
