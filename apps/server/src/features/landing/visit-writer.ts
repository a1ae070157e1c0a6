import { CallableError } from '../../lib/callable-error.ts';
import type { AppContext } from '../../context.ts';
import type { SqlClient } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { RaisedBurstsToday, checkClickBursts } from '../../domain/review-signals.ts';
import { type VisitOutcome, type VisitRow, RECORD_VISITS_SQL, visitBatchParams } from './visit-batch.ts';

// Group commit for landing-page visits (docs/product/attribution.md#recording-visits): requests queue their validated row;
// one statement (one transaction) stores everything queued, and each request is answered only after
// that statement's commit returned, so a visit answered 200 is durable.
//
// When a commit finishes, whatever queued meanwhile is flushed at once. A short timer starts a flush
// only when a commit slot is free, so a lone visit waits a couple of milliseconds at most and a burst
// shares one transaction. PostgreSQL overlaps two commits (two pool connections); PGlite has a single
// connection, where a second flush in flight would only wait behind the first.
//
// After a batch's commit and before its answers, the batch is reviewed once (`review`: the click-burst
// check, docs/product/review.md#signals) — one statement for the whole batch, not one per visit.

export interface VisitWriterOptions {
  sql: Pick<SqlClient, 'query'>;
  /** Commits in flight at once. */
  maxInFlight: number;
  /** How long the first visit of a batch waits for company (ms). */
  delayMs: number;
  /** Largest batch; more waits for the next flush. */
  maxBatch: number;
  onError?: (error: unknown, rows: number) => void;
  /** After each batch statement: its visits, its time, whether it committed (the metrics). */
  onCommit?: (rows: number, seconds: number, ok: boolean) => void;
  /**
   * After each committed batch, before its visits are answered. It handles its own failures: a visit
   * stored is answered whatever the review says.
   */
  review?: (visits: readonly StoredVisit[]) => Promise<void>;
}

/** A visit of a committed batch, as the review reads it. */
export interface StoredVisit {
  row: VisitRow;
  outcome: VisitOutcome;
  /** From a data centre's user agent (not stored: the review's). */
  dataCentre: boolean;
}

/** What the review needs to know of a visit besides its row. */
export interface VisitReviewInput {
  dataCentre: boolean;
}

/** Tuning measured on a 2-core machine (docs/benchmarks.md "Click recording"). */
export const WRITER_TUNING = {
  pglite: { maxInFlight: 1, delayMs: 2, maxBatch: 500 },
  postgres: { maxInFlight: 2, delayMs: 1, maxBatch: 500 },
} as const;

interface Pending {
  row: VisitRow;
  review: VisitReviewInput;
  resolve: (outcome: VisitOutcome) => void;
  reject: (error: unknown) => void;
}

export class VisitWriter {
  readonly #options: VisitWriterOptions;
  #queue: Pending[] = [];
  #inFlight = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #drained: (() => void)[] = [];

  constructor(options: VisitWriterOptions) {
    this.#options = options;
  }

  /** Stores one visit; resolves once its batch is committed. */
  record(row: VisitRow, review: VisitReviewInput = { dataCentre: false }): Promise<VisitOutcome> {
    if (this.#closed) return Promise.reject(new CallableError('unavailable', 'The server is shutting down.'));
    return new Promise<VisitOutcome>((resolve, reject) => {
      this.#queue.push({ row, review, resolve, reject });
      this.#schedule();
    });
  }

  /** Visits waiting for a commit (not yet in one). */
  get queued(): number {
    return this.#queue.length;
  }

  /** Refuses new visits, commits the queued ones and waits for every commit in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#queue.length === 0 && this.#inFlight === 0) return;
    const drained = new Promise<void>((resolve) => this.#drained.push(resolve));
    this.#flush();
    await drained;
  }

  #schedule() {
    if (this.#timer || this.#inFlight >= this.#options.maxInFlight || this.#queue.length === 0) return;
    if (this.#closed || this.#queue.length >= this.#options.maxBatch) {
      this.#flush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, this.#options.delayMs);
  }

  #flush() {
    if (this.#inFlight >= this.#options.maxInFlight || this.#queue.length === 0) return;
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const batch = this.#queue.splice(0, this.#options.maxBatch);
    this.#inFlight += 1;
    void this.#commit(batch).finally(() => {
      this.#inFlight -= 1;
      // What queued during the commit goes at once: it has already waited a whole commit.
      if (this.#queue.length > 0) this.#flush();
      this.#schedule();
      if (this.#queue.length === 0 && this.#inFlight === 0) {
        for (const resolve of this.#drained.splice(0)) resolve();
      }
    });
  }

  async #commit(batch: Pending[]): Promise<void> {
    try {
      await this.#settle(batch, await this.#insert(batch));
    } catch (error) {
      this.#options.onError?.(error, batch.length);
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // One bad row must fail only its own request: retry the rows one by one.
      for (const pending of batch) {
        try {
          await this.#settle([pending], await this.#insert([pending]));
        } catch (rowError) {
          pending.reject(rowError);
        }
      }
    }
  }

  async #insert(batch: Pending[]): Promise<VisitOutcome[]> {
    const started = performance.now();
    let ok = false;
    try {
      const { rows } = await this.#options.sql.query<{ tracking_id: string; counted: boolean }>(
        RECORD_VISITS_SQL,
        visitBatchParams(batch.map((pending) => pending.row)),
        { name: 'insert-clicks' },
      );
      ok = true;
      return rows.map((row) => ({ trackingId: row.tracking_id, counted: row.counted }));
    } finally {
      this.#options.onCommit?.(batch.length, (performance.now() - started) / 1000, ok);
    }
  }

  /** Reviews the committed batch, then answers each visit with its outcome. */
  async #settle(batch: Pending[], outcomes: VisitOutcome[]): Promise<void> {
    const byTrackingId = new Map(outcomes.map((outcome) => [outcome.trackingId, outcome]));
    if (this.#options.review) {
      const stored: StoredVisit[] = [];
      for (const pending of batch) {
        const outcome = byTrackingId.get(pending.row.trackingId);
        if (outcome) stored.push({ row: pending.row, outcome, dataCentre: pending.review.dataCentre });
      }
      await this.#options.review(stored).catch(() => {});
    }
    for (const pending of batch) {
      const outcome = byTrackingId.get(pending.row.trackingId);
      if (outcome) pending.resolve(outcome);
      else pending.reject(new Error('The visit was not stored.'));
    }
  }
}

// One writer per application instance (tests build many), created on the first visit.
const writers = new WeakMap<AppContext, VisitWriter>();

export function visitWriterFor(app: AppContext): VisitWriter {
  let writer = writers.get(app);
  if (!writer) {
    writer = new VisitWriter({
      sql: app.database.sql,
      ...WRITER_TUNING[app.database.kind],
      onError: (error, rows) => app.log.warn({ err: error, rows }, 'visit batch failed'),
      onCommit: (rows, seconds, ok) => app.metrics.clickBatch(rows, seconds, ok),
      review: reviewerFor(app),
    });
    writers.set(app, writer);
  }
  return writer;
}

/**
 * The click-burst check of a committed batch (docs/product/review.md#signals): the visits of known
 * codes, with what the application remembers of the signals raised today. A failure is logged; the
 * visitors still go on to the store.
 */
function reviewerFor(app: AppContext): (visits: readonly StoredVisit[]) => Promise<void> {
  const raised = new RaisedBurstsToday();
  return async (visits) => {
    const burstVisits = [];
    for (const { row, outcome, dataCentre } of visits) {
      if (row.code === null || (!outcome.counted && !dataCentre)) continue;
      burstVisits.push({
        code: row.code,
        counted: outcome.counted,
        ipHash: row.ipHash,
        visitorKey: row.visitorKey,
        dataCentre,
      });
    }
    if (burstVisits.length === 0) return;
    try {
      await checkClickBursts(app.database.sql, (work) => inTransaction(app, work), app, raised, {
        visits: burstVisits,
        at: app.now(),
      });
    } catch (error) {
      app.log.error({ err: error }, 'visit review signals failed');
    }
  };
}

/** Visits of the application waiting for a commit (readiness, metrics); 0 before the first visit. */
export function visitQueueLength(app: AppContext): number {
  return writers.get(app)?.queued ?? 0;
}

/** Commits the queued visits of an application that is closing (its onClose hook). */
export async function closeVisitWriter(app: AppContext): Promise<void> {
  await writers.get(app)?.close();
}
