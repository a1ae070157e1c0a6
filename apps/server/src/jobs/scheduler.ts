import type { AppContext } from '../context.ts';
import { approveDueCommissions } from '../domain/commission-approval.ts';
import { deliverDueEmails } from '../email/outbox-worker.ts';
import { paydayFor } from '../features/payouts/payout-period.ts';
import { PayoutRunError, runPayouts } from '../features/payouts/payout-run.ts';
import { runLedgerReconciliation } from '../features/payouts/ledger-reconciliation.ts';
import { runRetention } from './retention.ts';
import { withJobLock } from '../db/job-lock.ts';
import { runStorageMaintenance } from '../db/storage-maintenance.ts';
import { deliverDueWebhooks, watchWebhookEvents } from '../webhooks/worker.ts';
import { backfillReviewIdentities } from '../domain/review-backfill.ts';

// The scheduled jobs (docs/product/rules-and-constants.md#jobs): every server process with JOBS_ENABLED ticks every JOBS_TICK_MS
// and runs what is due; each job holds its lock while it runs, so several processes never run one
// job at the same time, and each is safe to run twice. A job with a run key (retention per UTC day,
// payouts per payday) is recorded in job_runs and done once per key; the others run on every tick.

/** What a job did, for the log. */
export type JobCounts = Record<string, number | string | boolean>;

export interface ScheduledJob {
  name: string;
  /** Runs the job if it is due; answers what it did, or null when nothing was due. */
  run(app: AppContext): Promise<JobCounts | null>;
  /**
   * Also runs the job's work between ticks, as soon as some is queued (the webhook outbox): started
   * with the scheduler; answers how to stop, which resolves once the work under way is done.
   */
  watch?(app: AppContext): () => Promise<void>;
}

export type JobOutcome = 'done' | 'not-due' | 'locked' | 'failed';

/** A failed keyed run is tried again after this long (not on every tick). */
const FAILED_RUN_RETRY_MS = 15 * 60_000;

/**
 * Runs `work` once for `runKey` of `job`, recorded in job_runs: `running`, then `done` with its
 * counts, or `failed` with the error (tried again after FAILED_RUN_RETRY_MS). Answers null when the
 * run is done or failed too recently. Call it under the job's lock.
 */
export async function runOnce(
  app: AppContext,
  job: string,
  runKey: string,
  work: () => Promise<JobCounts>,
): Promise<JobCounts | null> {
  const now = app.now();
  const { rows } = await app.database.sql.query(
    `INSERT INTO job_runs (job, run_key, status, started_at) VALUES ($1, $2, 'running', $3)
     ON CONFLICT (job, run_key) DO UPDATE
       SET status = 'running', attempts = job_runs.attempts + 1, started_at = EXCLUDED.started_at, finished_at = NULL, error = NULL
       WHERE job_runs.status = 'running' OR (job_runs.status = 'failed' AND job_runs.finished_at <= $4)
     RETURNING 1`,
    [job, runKey, now.toISOString(), new Date(now.getTime() - FAILED_RUN_RETRY_MS).toISOString()],
  );
  if (rows.length === 0) return null;
  try {
    const counts = await work();
    await app.database.sql.query(
      `UPDATE job_runs SET status = 'done', details = $3, finished_at = $4 WHERE job = $1 AND run_key = $2`,
      [job, runKey, JSON.stringify(counts), app.now().toISOString()],
    );
    return counts;
  } catch (error) {
    await app.database.sql
      .query(`UPDATE job_runs SET status = 'failed', error = $3, finished_at = $4 WHERE job = $1 AND run_key = $2`, [
        job,
        runKey,
        (error instanceof Error ? error.message : String(error)).slice(0, 2000),
        app.now().toISOString(),
      ])
      .catch((recordError: unknown) => app.log.error({ err: recordError, job }, 'job failure not recorded'));
    throw error;
  }
}

async function isRunDone(app: AppContext, job: string, runKey: string): Promise<boolean> {
  const { rows } = await app.database.sql.query(
    "SELECT 1 FROM job_runs WHERE job = $1 AND run_key = $2 AND status = 'done'",
    [job, runKey],
  );
  return rows.length > 0;
}

/** The UTC day of `at`, YYYY-MM-DD. */
function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

const commissionApproval: ScheduledJob = {
  name: 'commission-approval',
  run: async (app) => approveDueCommissions(app),
};

const monthlyPayouts: ScheduledJob = {
  name: 'monthly-payouts',
  async run(app) {
    // The payout run records itself in job_runs under ('payouts', payday) and takes its own lock.
    const payday = paydayFor(app.now());
    if (await isRunDone(app, 'payouts', payday)) return null;
    try {
      const result = await runPayouts(app, payday, { actor: 'system' });
      return {
        payday,
        created: result.created,
        totalCents: result.totalCents,
        belowMinimum: result.belowMinimum,
        withoutPaymentMethod: result.withoutPaymentMethod,
      };
    } catch (error) {
      if (error instanceof PayoutRunError && error.code === 'run-in-progress') return null;
      throw error;
    }
  },
};

const retention: ScheduledJob = {
  name: 'retention',
  run: async (app) => runOnce(app, 'retention', utcDay(app.now()), async () => ({ ...(await runRetention(app)) })),
};

const emailOutbox: ScheduledJob = {
  name: 'email-outbox',
  run: async (app) => deliverDueEmails(app),
};

/**
 * Outgoing webhooks (docs/product/webhooks.md#delivery-and-retries): dispatches new events, sends
 * what is due and retries what failed; old events are purged with their log. Between ticks, a commit
 * that wrote events wakes it at once.
 */
const webhookDelivery: ScheduledJob = {
  name: 'webhook-delivery',
  run: async (app) => ({ ...(await deliverDueWebhooks(app, { limit: 2_000, purge: true })) }),
  watch: (app) => watchWebhookEvents(app),
};

/**
 * Once a UTC day: what the day's deletions left in the database's files is rewritten away
 * (db/storage-maintenance.ts; docs/decisions/017-erasure-in-the-files.md).
 */
const storageMaintenance: ScheduledJob = {
  name: 'storage-maintenance',
  run: async (app) =>
    runOnce(app, 'storage-maintenance', utcDay(app.now()), async () => ({ ...(await runStorageMaintenance(app)) })),
};

/** Once a UTC day: every affiliate's ledger against the rows and the payouts (docs/product/money.md#the-ledger). */
const ledgerReconciliation: ScheduledJob = {
  name: 'ledger-reconciliation',
  run: async (app) =>
    runOnce(app, 'ledger-reconciliation', utcDay(app.now()), async () => {
      const { differences } = await runLedgerReconciliation(app, 'system');
      return { differences: differences.length };
    }),
};

/**
 * Once per installation: the fraud review's keyed hashes of the rows written before it (the migration
 * has no key: domain/review-backfill.ts). Done once; a failure is tried again after its delay.
 */
const reviewIdentities: ScheduledJob = {
  name: 'review-identities',
  run: async (app) =>
    runOnce(app, 'review-identities', 'once', async () => ({ ...(await backfillReviewIdentities(app)) })),
};

/**
 * In order: approval before payouts (a payout pays approved commissions), the outboxes after them (they
 * send what the others queued in the same tick), the storage maintenance last (it erases from the
 * files what retention and the outbox deleted, the deletion confirmation sent by the outbox included).
 */
export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  commissionApproval,
  monthlyPayouts,
  retention,
  ledgerReconciliation,
  reviewIdentities,
  emailOutbox,
  webhookDelivery,
  storageMaintenance,
];

/** Runs every due job once, in order, each under its lock; a failing job is logged and the others still run. */
export async function runDueJobs(
  app: AppContext,
  jobs: readonly ScheduledJob[] = SCHEDULED_JOBS,
): Promise<Record<string, JobOutcome>> {
  const outcomes: Record<string, JobOutcome> = {};
  for (const job of jobs) {
    const started = performance.now();
    try {
      const locked = await withJobLock(app, job.name, () => job.run(app));
      if (!locked.ran) {
        outcomes[job.name] = 'locked';
        continue;
      }
      const counts = locked.value;
      outcomes[job.name] = counts ? 'done' : 'not-due';
      if (counts) {
        // Jobs that run on every tick are quiet when they found nothing to do.
        const didSomething = Object.values(counts).some((value) => typeof value !== 'number' || value > 0);
        if (didSomething) app.log.info({ job: job.name, ...counts }, 'job done');
        else app.log.debug({ job: job.name, ...counts }, 'job done');
      }
    } catch (error) {
      outcomes[job.name] = 'failed';
      app.log.error({ err: error, job: job.name }, 'job failed');
    }
    app.metrics.jobRun(job.name, outcomes[job.name] ?? 'failed', (performance.now() - started) / 1000);
  }
  return outcomes;
}

export interface Scheduler {
  /** Stops ticking and resolves once the tick under way is done. */
  stop(): Promise<void>;
}

/** Ticks every JOBS_TICK_MS (the first tick at once); a tick never starts while the previous one runs. */
export function startScheduler(
  app: AppContext,
  options: { jobs?: readonly ScheduledJob[]; tickMs?: number } = {},
): Scheduler {
  const tickMs = options.tickMs ?? app.config.JOBS_TICK_MS;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = runDueJobs(app, options.jobs)
      .catch((error: unknown) => app.log.error({ err: error }, 'scheduler tick failed'))
      .finally(() => {
        running = null;
      });
  };
  // Unref'd: the timers never keep a process alive that is otherwise done.
  const interval = setInterval(tick, tickMs);
  interval.unref();
  const first = setTimeout(tick, 0);
  first.unref();
  const watching = (options.jobs ?? SCHEDULED_JOBS).flatMap((job) => (job.watch ? [job.watch(app)] : []));
  app.log.info({ tickMs, jobs: (options.jobs ?? SCHEDULED_JOBS).map((job) => job.name) }, 'scheduler started');
  return {
    async stop() {
      stopped = true;
      clearInterval(interval);
      clearTimeout(first);
      await Promise.all([running, ...watching.map((stopWatching) => stopWatching())]);
    },
  };
}
