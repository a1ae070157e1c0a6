import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEmail } from '../src/email/outbox.ts';
import { type JobCounts, type ScheduledJob, runDueJobs, runOnce, startScheduler } from '../src/jobs/scheduler.ts';
import { type TestApp, createTestApp, memoryMailer } from './helpers/app.ts';
import { createTestAffiliate, insertConversion, insertConversions } from './helpers/affiliates.ts';

// The scheduler (docs/product/rules-and-constants.md#jobs): one tick runs every due job once, in order, each under its lock; a
// keyed job (retention per UTC day, payouts per payday) is recorded in job_runs and done once; a
// failing job is logged and the others still run; stopping waits for the tick under way.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The 16th: the payday of the 15th has come. */
const NOW = new Date('2025-06-16T08:00:00.000Z');

const mail = memoryMailer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
});

interface CountingJob {
  name: string;
  runs: number;
  finished: number;
  run(): Promise<JobCounts>;
}

/** A job that counts its runs, optionally slow or failing. */
function countingJob(name: string, options: { delayMs?: number; fails?: boolean } = {}): CountingJob {
  const job: CountingJob = {
    runs: 0,
    finished: 0,
    name,
    async run() {
      job.runs += 1;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      job.finished += 1;
      if (options.fails) throw new Error(`${name} broke`);
      return { runs: job.runs };
    },
  };
  return job;
}

async function jobRun(job: string, runKey: string) {
  const { rows } = await t.database.sql.query<{
    status: string;
    attempts: number;
    details: unknown;
    error: string | null;
  }>('SELECT status, attempts, details, error FROM job_runs WHERE job = $1 AND run_key = $2', [job, runKey]);
  return rows;
}

describe('runDueJobs', () => {
  it('runs every job once per tick, in order, and goes on after a failing one', async () => {
    const order: string[] = [];
    const first = countingJob('test-first');
    const broken = countingJob('test-broken', { fails: true });
    const last = countingJob('test-last');
    const jobs = [first, broken, last].map((job) => ({
      name: job.name,
      run: async () => (order.push(job.name), job.run()),
    }));

    expect(await runDueJobs(t.context, jobs)).toEqual({
      'test-first': 'done',
      'test-broken': 'failed',
      'test-last': 'done',
    });
    expect(order).toEqual(['test-first', 'test-broken', 'test-last']);
    await runDueJobs(t.context, jobs);
    expect([first.runs, broken.runs, last.runs]).toEqual([2, 2, 2]);
  });

  it('never runs one job twice at the same time', async () => {
    const slow = countingJob('test-slow', { delayMs: 100 });
    const outcomes = await Promise.all([runDueJobs(t.context, [slow]), runDueJobs(t.context, [slow])]);
    expect(outcomes.map((outcome) => outcome['test-slow']).sort()).toEqual(['done', 'locked']);
    expect(slow.runs).toBe(1);
  });
});

describe('runOnce', () => {
  it('runs a key once and records it done with its counts', async () => {
    const job = countingJob('test-keyed');
    const keyed: ScheduledJob = { name: job.name, run: (app) => runOnce(app, job.name, '2025-06-16', () => job.run()) };
    expect(await runDueJobs(t.context, [keyed])).toEqual({ 'test-keyed': 'done' });
    expect(await runDueJobs(t.context, [keyed])).toEqual({ 'test-keyed': 'not-due' });
    expect(job.runs).toBe(1);
    expect(await jobRun('test-keyed', '2025-06-16')).toEqual([
      { status: 'done', attempts: 1, details: { runs: 1 }, error: null },
    ]);
  });

  it('records a failed run and tries it again after a pause, not on every tick', async () => {
    const job = countingJob('test-failing', { fails: true });
    const keyed: ScheduledJob = { name: job.name, run: (app) => runOnce(app, job.name, 'k', () => job.run()) };
    expect(await runDueJobs(t.context, [keyed])).toEqual({ 'test-failing': 'failed' });
    expect(await jobRun('test-failing', 'k')).toMatchObject([
      { status: 'failed', attempts: 1, error: 'test-failing broke' },
    ]);
    expect(await runDueJobs(t.context, [keyed])).toEqual({ 'test-failing': 'not-due' });
    t.clock.advance(15 * MINUTE_MS);
    expect(await runDueJobs(t.context, [keyed])).toEqual({ 'test-failing': 'failed' });
    expect(job.runs).toBe(2);
    expect(await jobRun('test-failing', 'k')).toMatchObject([{ status: 'failed', attempts: 2 }]);
  });

  it('resumes a run left `running` by a process that died', async () => {
    await t.database.sql.query("INSERT INTO job_runs (job, run_key, status) VALUES ('test-resumed', 'k', 'running')");
    const job = countingJob('test-resumed');
    const keyed: ScheduledJob = { name: job.name, run: (app) => runOnce(app, job.name, 'k', () => job.run()) };
    expect(await runDueJobs(t.context, [keyed])).toEqual({ 'test-resumed': 'done' });
    expect(await jobRun('test-resumed', 'k')).toMatchObject([{ status: 'done', attempts: 2 }]);
  });
});

describe('the scheduled jobs', () => {
  it('approve commissions, run the payday once, run retention once a day and send the queued e-mails', async () => {
    const affiliate = await createTestAffiliate(t, {
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'jobs@paypal.example' },
    });
    // $24 approved in May: payable on 15 June. One more pending commission whose hold ends now.
    await insertConversions(t, affiliate.affiliateId, 12, {
      status: 'approved',
      occurredAt: new Date('2025-04-01T00:00:00Z'),
      approvedAt: new Date('2025-05-01T00:00:00Z'),
    });
    const pending = await insertConversion(t, affiliate.affiliateId, {
      status: 'pending',
      occurredAt: new Date(NOW.getTime() - 31 * DAY_MS),
    });
    await enqueueEmail(
      t.database.sql,
      { to: 'queued@example.com', subject: 'Queued', text: 'Queued' },
      { kind: 'test' },
    );

    const outcomes = await runDueJobs(t.context);
    expect(outcomes).toEqual({
      'commission-approval': 'done',
      'monthly-payouts': 'done',
      retention: 'done',
      'ledger-reconciliation': 'done',
      'review-identities': 'done',
      'email-outbox': 'done',
      'webhook-delivery': 'done',
      'storage-maintenance': 'done',
    });
    const { rows: approved } = await t.database.sql.query<{ status: string }>(
      'SELECT status FROM conversions WHERE id = $1',
      [pending],
    );
    expect(approved[0]?.status).toBe('approved');
    const { rows: payouts } = await t.database.sql.query<{ amount_cents: number; scheduled_for: string }>(
      "SELECT amount_cents, to_char(scheduled_for, 'YYYY-MM-DD') AS scheduled_for FROM payouts WHERE affiliate_id = $1",
      [affiliate.affiliateId],
    );
    expect(payouts).toEqual([{ amount_cents: 2400, scheduled_for: '2025-06-15' }]);
    expect(await jobRun('payouts', '2025-06-15')).toMatchObject([{ status: 'done' }]);
    expect(await jobRun('retention', '2025-06-16')).toMatchObject([{ status: 'done' }]);
    expect(mail.sent.filter((message) => message.to === 'queued@example.com')).toHaveLength(1);

    expect(await jobRun('storage-maintenance', '2025-06-16')).toMatchObject([{ status: 'done' }]);
    expect(await jobRun('ledger-reconciliation', '2025-06-16')).toMatchObject([
      { status: 'done', details: { differences: 0 } },
    ]);

    // The same day again: the payday, the retention and the storage maintenance are done; the
    // every-tick jobs run.
    t.clock.advance(60 * MINUTE_MS);
    expect(await runDueJobs(t.context)).toEqual({
      'commission-approval': 'done',
      'monthly-payouts': 'not-due',
      retention: 'not-due',
      'ledger-reconciliation': 'not-due',
      'review-identities': 'not-due',
      'email-outbox': 'done',
      'webhook-delivery': 'done',
      'storage-maintenance': 'not-due',
    });
    expect(
      (await t.database.sql.query('SELECT 1 FROM payouts WHERE affiliate_id = $1', [affiliate.affiliateId])).rows,
    ).toHaveLength(1);

    // The next day, retention runs again; the next payday is a month away.
    t.clock.advance(DAY_MS);
    expect((await runDueJobs(t.context)).retention).toBe('done');
    expect(await jobRun('retention', '2025-06-17')).toMatchObject([{ status: 'done' }]);
  });
});

describe('startScheduler', () => {
  it('ticks, never overlaps, and stops once the tick under way is done', async () => {
    const slow = countingJob('test-ticking', { delayMs: 120 });
    const scheduler = startScheduler(t.context, { jobs: [slow], tickMs: 20 });
    const started = Date.now();
    while (slow.runs < 2 && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 10));
    await scheduler.stop();
    expect(slow.runs).toBeGreaterThanOrEqual(2);
    // Every run that started had finished when stop() resolved: ticks never overlapped or were cut.
    expect(slow.finished).toBe(slow.runs);
    const runsAtStop = slow.runs;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slow.runs).toBe(runsAtStop);
  });

  it('logs a failing tick and keeps ticking', async () => {
    const broken = countingJob('test-broken-ticks', { fails: true });
    const scheduler = startScheduler(t.context, { jobs: [broken], tickMs: 20 });
    const started = Date.now();
    while (broken.runs < 3 && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 10));
    await scheduler.stop();
    expect(broken.runs).toBeGreaterThanOrEqual(3);
  });
});
