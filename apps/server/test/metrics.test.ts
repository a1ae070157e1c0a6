import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueEmails, outboxIdle } from '../src/email/outbox-worker.ts';
import { runDueJobs } from '../src/jobs/scheduler.ts';
import { TEST_PUBLIC_URL, type TestApp, createTestApp } from './helpers/app.ts';
import { createTestAffiliate, insertCode } from './helpers/affiliates.ts';
import { TEST_DB } from './helpers/database.ts';
import { switchableMailer } from './helpers/email.ts';
import { WEBHOOK_AUTH, attributedUser, landingVisit, postWebhook, purchaseEvent } from './helpers/revenuecat.ts';
import { IPHONE_USER_AGENT, createVisit } from './helpers/visits.ts';

// GET /metrics: Prometheus text behind METRICS_TOKEN (unset = 404, wrong = 401), from a registry
// of the app's own. The named metrics move after real requests, visits, a webhook, e-mails and job
// runs; labels carry route patterns, never URLs. Runs on PGlite and PostgreSQL.

const TOKEN = 'metrics-test-token-0123456789';
const CLICKS_PER_MINUTE = 5;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with this name and these labels (others ignored), 0 when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return found?.value ?? 0;
}

/** A landing-page visit as a browser (or a link previewer) sends it; answers the status. */
async function visit(t: TestApp, data: unknown, ip: string, userAgent = IPHONE_USER_AGENT): Promise<number> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/fn/storePreInstallData',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, 'user-agent': userAgent },
    remoteAddress: ip,
    payload: JSON.stringify({ data }),
  });
  return response.statusCode;
}

async function scrape(t: TestApp, authorization = `Bearer ${TOKEN}`) {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
  return { status: response.statusCode, headers: response.headers, text: response.body };
}

async function samples(t: TestApp): Promise<Sample[]> {
  const { status, text } = await scrape(t);
  expect(status).toBe(200);
  return parse(text);
}

describe('without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('/metrics answers 404 like any unknown path, token or not', async () => {
    for (const authorization of ['', `Bearer ${TOKEN}`]) {
      const { status, text } = await scrape(t, authorization);
      expect(status).toBe(404);
      expect(text).not.toContain('skanova_');
    }
  });
});

describe('with METRICS_TOKEN', () => {
  const mail = switchableMailer();
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    const env = {
      METRICS_TOKEN: TOKEN,
      REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH,
      RATE_LIMIT_CLICKS_PER_MINUTE: String(CLICKS_PER_MINUTE),
    };
    t = await createTestApp({ env, mailer: mail.mailer });
    // A second app in the same process: its registry is its own.
    other = await createTestApp({ env });
  });
  afterAll(async () => {
    await t.close();
    await other.close();
  });

  it('refuses a missing or wrong token with 401, in constant time whatever its length', async () => {
    for (const authorization of ['', 'Bearer', 'Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const { status, headers, text } = await scrape(t, authorization);
      expect(status, authorization).toBe(401);
      expect(headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(text).not.toContain('skanova_');
    }
  });

  it('answers Prometheus text with every named metric, the process metrics and event-loop lag', async () => {
    const { status, headers, text } = await scrape(t);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(headers['cache-control']).toBe('no-store');
    for (const name of [
      'skanova_http_requests_total',
      'skanova_http_request_duration_seconds',
      'skanova_clicks_recorded_total',
      'skanova_clicks_refused_total',
      'skanova_click_batch_size',
      'skanova_click_batch_commit_seconds',
      'skanova_click_queue_length',
      'skanova_job_runs_total',
      'skanova_job_failures_total',
      'skanova_job_duration_seconds',
      'skanova_email_deliveries_total',
      'skanova_email_outbox_messages',
      'skanova_revenuecat_webhook_events_total',
      'skanova_db_pool_connections',
      'skanova_db_pool_max_connections',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    const now = parse(text);
    expect(valueOf(now, 'skanova_db_pool_max_connections')).toBe(TEST_DB === 'pglite' ? 1 : 20);
    expect(valueOf(now, 'skanova_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    if (TEST_DB === 'postgres') {
      expect(now.some((s) => s.name === 'skanova_db_pool_connections' && s.labels.state === 'idle')).toBe(true);
      expect(now.some((s) => s.name === 'skanova_db_pool_connections' && s.labels.state === 'waiting')).toBe(true);
    }
  });

  it('counts requests by route pattern and status, visits recorded and refused, and the writer’s batches', async () => {
    const before = await samples(t);
    const affiliate = await createTestAffiliate(t);
    const { code } = await insertCode(t, affiliate.affiliateId);
    const trackingId = await landingVisit(t, code, { ip: '10.88.0.1' });
    const withoutCode = createVisit({ code: null, sessionId: 'metrics-session-0123456789' });
    expect(await visit(t, withoutCode, '10.88.0.2')).toBe(200);
    const preview = createVisit({ code, sessionId: 'metrics-preview-0123456789' });
    expect(await visit(t, preview, '10.88.0.3', 'facebookexternalhit/1.1')).toBe(200);
    expect(await visit(t, { nothing: true }, '10.88.0.3')).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i <= CLICKS_PER_MINUTE; i++) {
      statuses.push(await visit(t, createVisit({ code, sessionId: `metrics-limit-${i}-0123456789` }), '10.88.0.4'));
    }
    expect(statuses).toEqual([...Array.from({ length: CLICKS_PER_MINUTE }, () => 200), 429]);
    const banner = await t.app.inject({ method: 'GET', url: `/api/marketing/banners/${code}/300x250-light.png` });
    const unknown = await t.app.inject({ method: 'GET', url: `/no/such/page/${code}` });
    expect(unknown.statusCode).toBe(404);

    const after = await samples(t);
    const moved = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    const click = { method: 'POST', route: '/api/fn/storePreInstallData' };
    const stored = 3 + CLICKS_PER_MINUTE;
    expect(moved('skanova_http_requests_total', { ...click, status_code: '200' })).toBe(stored);
    expect(moved('skanova_http_requests_total', { ...click, status_code: '400' })).toBe(1);
    expect(moved('skanova_http_requests_total', { ...click, status_code: '429' })).toBe(1);
    expect(moved('skanova_http_request_duration_seconds_count', { ...click, status_code: '200' })).toBe(stored);
    expect(
      moved('skanova_http_requests_total', {
        method: 'GET',
        route: '/api/marketing/banners/:code/:file',
        status_code: String(banner.statusCode),
      }),
    ).toBe(1);
    expect(moved('skanova_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(moved('skanova_clicks_recorded_total', { outcome: 'counted' })).toBe(1 + CLICKS_PER_MINUTE);
    expect(moved('skanova_clicks_recorded_total', { outcome: 'uncounted' })).toBe(1);
    expect(moved('skanova_clicks_recorded_total', { outcome: 'bot' })).toBe(1);
    expect(moved('skanova_clicks_refused_total', { reason: 'invalid' })).toBe(1);
    expect(moved('skanova_clicks_refused_total', { reason: 'rate-limited' })).toBe(1);
    expect(moved('skanova_click_batch_size_sum')).toBe(stored);
    expect(moved('skanova_click_batch_commit_seconds_count', { outcome: 'committed' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'skanova_click_queue_length')).toBe(0);

    // Labels are patterns: no referral code, tracking id or address anywhere in the text.
    const { text } = await scrape(t);
    for (const secret of [code, trackingId, '10.88.0.']) expect(text).not.toContain(secret);

    // The other app counted none of it.
    const others = await samples(other);
    expect(valueOf(others, 'skanova_clicks_recorded_total', { outcome: 'counted' })).toBe(0);
    expect(valueOf(others, 'skanova_http_requests_total', { ...click, status_code: '200' })).toBe(0);
  });

  it('counts RevenueCat webhook events by type and outcome, refused calls included', async () => {
    const before = await samples(t);
    const affiliate = await createTestAffiliate(t);
    const { code } = await insertCode(t, affiliate.affiliateId);
    const purchase = await postWebhook(t, purchaseEvent(await attributedUser(t, code)));
    expect(purchase.status).toBe(200);
    expect((await postWebhook(t, purchaseEvent('someone'), { auth: 'Bearer wrong-secret' })).status).toBe(401);
    expect((await postWebhook(t, '{"event": ')).status).toBe(400);
    const after = await samples(t);
    const moved = (labels: Record<string, string>) =>
      valueOf(after, 'skanova_revenuecat_webhook_events_total', labels) -
      valueOf(before, 'skanova_revenuecat_webhook_events_total', labels);
    expect(moved({ type: 'INITIAL_PURCHASE', outcome: purchase.body.outcome! })).toBe(1);
    expect(moved({ type: 'unknown', outcome: 'unauthorized' })).toBe(1);
    expect(moved({ type: 'unknown', outcome: 'malformed' })).toBe(1);
  });

  it('counts e-mail deliveries and failures and reports the outbox depth', async () => {
    // What earlier tests queued (the conversion's e-mail) goes first: the outbox starts empty.
    await outboxIdle(t.context);
    await deliverDueEmails(t.context);
    const before = await samples(t);
    expect(valueOf(before, 'skanova_email_outbox_messages', { state: 'pending' })).toBe(0);
    mail.state.failing = true;
    await createTestAffiliate(t);
    await outboxIdle(t.context);
    const failing = await samples(t);
    expect(
      valueOf(failing, 'skanova_email_deliveries_total', { kind: 'welcome', outcome: 'failed' }) -
        valueOf(before, 'skanova_email_deliveries_total', { kind: 'welcome', outcome: 'failed' }),
    ).toBe(1);
    expect(valueOf(failing, 'skanova_email_outbox_messages', { state: 'pending' })).toBe(1);

    mail.state.failing = false;
    t.clock.advance(10 * 60_000);
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 1, failed: 0 });
    const sent = await samples(t);
    expect(
      valueOf(sent, 'skanova_email_deliveries_total', { kind: 'welcome', outcome: 'sent' }) -
        valueOf(failing, 'skanova_email_deliveries_total', { kind: 'welcome', outcome: 'sent' }),
    ).toBe(1);
    expect(valueOf(sent, 'skanova_email_outbox_messages', { state: 'pending' })).toBe(0);
  });

  it('counts job runs by job and outcome, failures and their time', async () => {
    const before = await samples(t);
    const outcomes = await runDueJobs(t.context);
    await runDueJobs(t.context, [
      {
        name: 'metrics-failing',
        run: async () => {
          throw new Error('the job broke');
        },
      },
    ]);
    const after = await samples(t);
    const moved = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    for (const [job, outcome] of Object.entries(outcomes)) {
      expect(moved('skanova_job_runs_total', { job, outcome }), job).toBe(1);
      expect(moved('skanova_job_duration_seconds_count', { job }), job).toBe(1);
    }
    expect(moved('skanova_job_runs_total', { job: 'metrics-failing', outcome: 'failed' })).toBe(1);
    expect(moved('skanova_job_failures_total', { job: 'metrics-failing' })).toBe(1);
    expect(moved('skanova_job_failures_total', { job: 'commission-approval' })).toBe(0);
  });
});

describe('when the database does not answer', () => {
  it('a scrape still answers, without the figures read from the database', async () => {
    const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    await t.database.close();
    try {
      const { status, text } = await scrape(t);
      expect(status).toBe(200);
      const now = parse(text);
      expect(now.some((sample) => sample.name === 'skanova_email_outbox_messages')).toBe(false);
      expect(now.some((sample) => sample.name === 'skanova_db_pool_max_connections')).toBe(true);
      expect(now.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    } finally {
      await t.app.close();
    }
  });
});
