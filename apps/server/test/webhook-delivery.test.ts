import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MINUTES } from '@skanova/shared/webhooks/constants';
import { inTransaction } from '../src/db/transaction.ts';
import { SCHEDULED_JOBS, startScheduler } from '../src/jobs/scheduler.ts';
import { createEndpoint } from '../src/features/webhooks/endpoints.ts';
import { type NewWebhookEvent, commissionCreatedEvent, payoutEvent } from '../src/webhooks/events.ts';
import { enqueueWebhookEvents } from '../src/webhooks/outbox.ts';
import { verifySignature } from '../src/webhooks/signature.ts';
import { deliverDueWebhooks, retryDelayMs } from '../src/webhooks/worker.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn } from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';
import { type WebhookReceiver, startWebhookReceiver } from './helpers/webhook-receiver.ts';

// Outgoing webhooks delivered (docs/product/webhooks.md): to a real HTTP receiver on this machine,
// signed as the documentation tells receivers to verify; a receiver that fails three times then
// succeeds gets the event once, and an affiliate's events in order; the signature with both secrets
// during a rotation's overlap, then the new one alone; the address guard at delivery time, on the
// addresses a name resolves to then, and the connection pinned to the address it checked.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const ALL_EVENTS = ['commission.created', 'payout.sent', 'payout.paid'];

let t: TestApp;
let operator: TestOperator;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  operator = await createTestOperator(t);
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
  await t.close();
});

afterEach(async () => {
  receiver.requests.length = 0;
  receiver.respond = () => 200;
  await t.database.sql.query('DELETE FROM webhook_endpoints');
  await t.database.sql.query('DELETE FROM webhook_events');
});

async function register(url = receiver.url, eventTypes = ALL_EVENTS): Promise<{ id: string; secret: string }> {
  const created = await callFn(t, 'adminCreateWebhookEndpoint', { url, eventTypes }, operator.cookie);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { id: created.body.result.endpoint.id, secret: created.body.result.secret };
}

async function emit(...events: NewWebhookEvent[]): Promise<string[]> {
  return inTransaction(t.context, (tx) => enqueueWebhookEvents(tx, events, t.clock.now));
}

const commission = (affiliateId: string, conversionId: number) =>
  commissionCreatedEvent({
    conversionId,
    affiliateId,
    commissionCents: 200,
    rateTier: 'standard',
    occurredAt: new Date('2025-06-10T12:00:00Z'),
  });

/** The recipe of docs/product/webhooks.md#signatures, written out as a receiver would. */
function receiverAccepts(header: string | undefined, body: string, secret: string): boolean {
  const items = (header ?? '').split(',').map((item) => item.split('='));
  const timestamp = items.find(([key]) => key === 't')?.[1];
  if (!timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return items
    .filter(([key]) => key === 'v1')
    .some(([, value]) => {
      const given = Buffer.from(value ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

async function deliveries(eventId: string) {
  const { rows } = await t.database.sql.query<{ status: string; attempts: number }>(
    'SELECT status, attempts FROM webhook_deliveries WHERE event_id = $1',
    [eventId],
  );
  return rows;
}

/** Past the longest wait (jitter included) before retry number `retry` (1-based). */
const pastRetry = (retry: number) => Math.ceil(WEBHOOK_RETRY_DELAYS_MINUTES[retry - 1]! * MINUTE_MS * 1.2) + 1000;

/**
 * Moves an app's clock `ms` past the later of its time and the wall clock's: a wait is counted from
 * the later of the app's clock and the database's (as the e-mail outbox counts it), and the wall
 * clock runs on while a test's clock stands still.
 */
function later(app: TestApp, ms: number) {
  app.clock.now = new Date(Math.max(app.clock.now.getTime(), Date.now()) + ms);
}

describe('a delivery', () => {
  it('is signed with the secret answered at registration, and a receiver following the documentation accepts it', async () => {
    const { secret } = await register();
    const [eventId] = await emit(commission('aff-sign', 1));
    expect(await deliverDueWebhooks(t.context)).toMatchObject({ dispatched: 1, delivered: 1, retrying: 0 });

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request!.path).toBe('/hooks');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['skanova-event-id']).toBe(eventId);
    expect(request!.headers['skanova-event-type']).toBe('commission.created');
    expect(request!.headers['skanova-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(receiverAccepts(request!.headers['skanova-signature'] as string, request!.body, secret)).toBe(true);
    expect(verifySignature(request!.headers['skanova-signature'] as string, request!.body, secret)).toBe(true);
    // A changed body, or another secret, is refused.
    expect(receiverAccepts(request!.headers['skanova-signature'] as string, `${request!.body} `, secret)).toBe(false);
    expect(receiverAccepts(request!.headers['skanova-signature'] as string, request!.body, `${secret}x`)).toBe(false);

    expect(JSON.parse(request!.body)).toEqual({
      id: eventId,
      type: 'commission.created',
      created: t.clock.now.toISOString(),
      data: {
        conversionId: '1',
        affiliateId: 'aff-sign',
        commissionCents: 200,
        currency: 'USD',
        rateTier: 'standard',
        occurredAt: '2025-06-10T12:00:00.000Z',
      },
    });
    expect(await deliveries(eventId!)).toEqual([{ status: 'delivered', attempts: 1 }]);
    const { rows: log } = await t.database.sql.query<{ attempt: number; status_code: number; error: string | null }>(
      'SELECT a.attempt, a.status_code, a.error FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1',
      [eventId],
    );
    expect(log).toEqual([{ attempt: 1, status_code: 200, error: null }]);
  });

  it('goes to every endpoint subscribed to its type, and to none other', async () => {
    const payouts = await register(`${receiver.url}?who=payouts`, ['payout.sent']);
    const commissions = await register(`${receiver.url}?who=commissions`, ['commission.created']);
    await emit(commission('aff-fan', 2));
    await deliverDueWebhooks(t.context);
    expect(receiver.requests.map((request) => request.path)).toEqual(['/hooks?who=commissions']);
    expect(payouts.id).not.toBe(commissions.id);
  });

  it('from a receiver that fails three times then succeeds: the event arrives once, and the affiliate’s later events after it, in order', async () => {
    await register();
    const [first, second, third] = await emit(
      commission('aff-order', 10),
      commission('aff-order', 11),
      commission('aff-other', 20),
    );
    let failures = 0;
    receiver.respond = ({ event }) => (event.id === first && failures++ < 3 ? 500 : 200);

    // The first attempt fails; the affiliate's second event waits; another affiliate's goes.
    expect(await deliverDueWebhooks(t.context)).toMatchObject({ delivered: 1, retrying: 1 });
    expect(await deliveries(second!)).toEqual([{ status: 'pending', attempts: 0 }]);
    expect(await deliveries(third!)).toEqual([{ status: 'delivered', attempts: 1 }]);

    // Nothing is due before the back-off ends.
    expect(await deliverDueWebhooks(t.context)).toMatchObject({ delivered: 0, retrying: 0 });
    for (const retry of [1, 2]) {
      later(t, pastRetry(retry));
      expect(await deliverDueWebhooks(t.context)).toMatchObject({ delivered: 0, retrying: 1 });
      expect(await deliveries(second!)).toEqual([{ status: 'pending', attempts: 0 }]);
    }
    later(t, pastRetry(3));
    expect(await deliverDueWebhooks(t.context)).toMatchObject({ delivered: 2, retrying: 0, failed: 0 });

    const accepted = receiver.requests.filter((request) => request.status === 200).map((request) => request.event.id);
    expect(accepted.slice(1)).toEqual([first, second]);
    expect(accepted[0]).toBe(third);
    // The first event: three refusals, then accepted; the second only after that.
    expect(receiver.requests.filter((r) => r.event.id === first).map((r) => r.status)).toEqual([500, 500, 500, 200]);
    expect(receiver.requests.filter((r) => r.event.id === second).map((r) => r.status)).toEqual([200]);
    expect(receiver.requests.findIndex((r) => r.event.id === second)).toBe(receiver.requests.length - 1);
    // Every attempt carries the same event id: receivers deduplicate on it.
    expect(
      new Set(receiver.requests.filter((r) => r.event.id === first).map((r) => r.headers['skanova-event-id'])),
    ).toEqual(new Set([first]));
    const { rows: log } = await t.database.sql.query<{ attempt: number; status_code: number; error: string | null }>(
      `SELECT a.attempt, a.status_code, a.error FROM webhook_delivery_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1 ORDER BY a.attempt`,
      [first],
    );
    expect(log).toEqual([
      { attempt: 1, status_code: 500, error: 'status' },
      { attempt: 2, status_code: 500, error: 'status' },
      { attempt: 3, status_code: 500, error: 'status' },
      { attempt: 4, status_code: 200, error: null },
    ]);
  });

  it('is given up after the last retry, and no longer holds the affiliate’s later events', async () => {
    await register();
    const [doomed, next] = await emit(commission('aff-doomed', 30), commission('aff-doomed', 31));
    receiver.respond = ({ event }) => (event.id === doomed ? 503 : 200);
    await deliverDueWebhooks(t.context);
    for (let retry = 1; retry < WEBHOOK_MAX_ATTEMPTS; retry++) {
      later(t, pastRetry(retry));
      await deliverDueWebhooks(t.context);
    }
    expect(await deliveries(doomed!)).toEqual([{ status: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS }]);
    expect(await deliveries(next!)).toEqual([{ status: 'delivered', attempts: 1 }]);
    expect(receiver.requests.filter((request) => request.event.id === doomed)).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
  });

  it('answered by a redirect is a failure; the redirect is not followed', async () => {
    await register();
    const [eventId] = await emit(commission('aff-redirect', 40));
    receiver.respond = () => 302;
    await deliverDueWebhooks(t.context);
    expect(receiver.requests).toHaveLength(1);
    const { rows } = await t.database.sql.query<{ last_error: string; last_status_code: number }>(
      'SELECT last_error, last_status_code FROM webhook_deliveries WHERE event_id = $1',
      [eventId],
    );
    expect(rows).toEqual([{ last_error: 'redirect', last_status_code: 302 }]);
  });

  it('times out on a receiver that does not answer', async () => {
    await register();
    const [eventId] = await emit(commission('aff-slow', 50));
    receiver.respond = () => new Promise((resolve) => setTimeout(() => resolve(200), 1_500));
    await deliverDueWebhooks(t.context, { timeoutMs: 200 });
    const { rows } = await t.database.sql.query<{ status: string; last_error: string }>(
      'SELECT status, last_error FROM webhook_deliveries WHERE event_id = $1',
      [eventId],
    );
    expect(rows).toEqual([{ status: 'pending', last_error: 'timeout' }]);
  });
});

describe('the worker', () => {
  it('is woken by the commit that wrote an event: delivered before any tick', async () => {
    await register();
    const webhookJob = SCHEDULED_JOBS.filter((job) => job.name === 'webhook-delivery');
    const scheduler = startScheduler(t.context, { jobs: webhookJob, tickMs: 3_600_000 });
    try {
      // The first tick runs at once: let it find nothing.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [eventId] = await emit(commission('aff-wake', 90));
      await expect
        .poll(() => receiver.requests.map((request) => request.event.id), { timeout: 5_000 })
        .toEqual([eventId]);
      // Nothing is sent for a transaction that rolls back.
      await expect(
        inTransaction(t.context, async (tx) => {
          await enqueueWebhookEvents(tx, [commission('aff-wake', 91)], t.clock.now);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await scheduler.stop();
    }
  });
});

describe('the retry schedule', () => {
  it('waits 1 min, 5 min, 30 min, 2 h … about three days in all, each wait with up to 20 % jitter', () => {
    expect(retryDelayMs(1, () => 0)).toBe(MINUTE_MS);
    expect(retryDelayMs(1, () => 0.999)).toBeLessThan(1.2 * MINUTE_MS);
    expect(retryDelayMs(2, () => 0)).toBe(5 * MINUTE_MS);
    expect(retryDelayMs(3, () => 0)).toBe(30 * MINUTE_MS);
    expect(retryDelayMs(4, () => 0)).toBe(2 * HOUR_MS);
    const total = WEBHOOK_RETRY_DELAYS_MINUTES.reduce((sum, minutes) => sum + minutes, 0) * MINUTE_MS;
    expect(total / HOUR_MS).toBeGreaterThan(70);
    expect(total / HOUR_MS).toBeLessThan(73);
  });
});

describe('a rotated secret', () => {
  it('signs beside the new one for 24 hours, then the new one signs alone', async () => {
    const { id, secret: old } = await register();
    const rotated = await callFn(t, 'adminRotateWebhookSecret', { endpointId: id }, operator.cookie);
    expect(rotated.status).toBe(200);
    const renewed: string = rotated.body.result.secret;
    expect(renewed).toMatch(/^whsec_/);
    expect(renewed).not.toBe(old);
    expect(rotated.body.result.endpoint.previousSecretExpiresAt).toBe(
      new Date(t.clock.now.getTime() + 24 * HOUR_MS).toISOString(),
    );

    await emit(commission('aff-rotate', 60));
    await deliverDueWebhooks(t.context);
    const during = receiver.requests.at(-1)!;
    expect(during.headers['skanova-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(receiverAccepts(during.headers['skanova-signature'] as string, during.body, renewed)).toBe(true);
    expect(receiverAccepts(during.headers['skanova-signature'] as string, during.body, old)).toBe(true);

    later(t, 24 * HOUR_MS + 1000);
    await emit(commission('aff-rotate', 61));
    await deliverDueWebhooks(t.context);
    const after = receiver.requests.at(-1)!;
    expect(after.headers['skanova-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(receiverAccepts(after.headers['skanova-signature'] as string, after.body, renewed)).toBe(true);
    expect(receiverAccepts(after.headers['skanova-signature'] as string, after.body, old)).toBe(false);

    // The secret is sealed at rest: neither secret is in the row as it is.
    const { rows } = await t.database.sql.query<Record<string, unknown>>(
      'SELECT * FROM webhook_endpoints WHERE id = $1',
      [id],
    );
    expect(JSON.stringify(rows)).not.toContain(renewed);
    expect(JSON.stringify(rows)).not.toContain(old);
  });
});

describe('the address guard at delivery', () => {
  it('checks the addresses the name resolves to at each delivery: a name that now resolves to a private address is refused, nothing is sent', async () => {
    const guarded = await createTestApp();
    const guardedOperator = await createTestOperator(guarded);
    try {
      // Registered while the name resolved to a public address (a documentation address stands in).
      const publicName = async () => [{ address: '203.0.114.10', family: 4 as const }];
      const { endpoint } = await createEndpoint(
        guarded.context,
        { userId: guardedOperator.userId, email: guardedOperator.email, role: 'admin' },
        { url: `http://hooks.example.test:${receiver.port}/hooks`, eventTypes: ['commission.created'] },
        publicName,
      );
      const [eventId] = await inTransaction(guarded.context, (tx) =>
        enqueueWebhookEvents(tx, [commission('aff-rebind', 70)], guarded.clock.now),
      );
      // The name now answers the loopback address (DNS rebinding), or a metadata one.
      for (const address of ['127.0.0.1', '169.254.169.254', '::ffff:10.0.0.1']) {
        const rebound = async () => [{ address, family: address.includes(':') ? (6 as const) : (4 as const) }];
        await deliverDueWebhooks(guarded.context, { resolve: rebound });
        later(guarded, pastRetry(WEBHOOK_RETRY_DELAYS_MINUTES.length));
      }
      expect(receiver.requests).toHaveLength(0);
      const { rows } = await guarded.database.sql.query<{ error: string; status_code: number | null }>(
        `SELECT a.error, a.status_code FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE d.event_id = $1 ORDER BY a.attempt`,
        [eventId],
      );
      expect(rows).toEqual(Array(3).fill({ error: 'address-refused', status_code: null }));
      expect(endpoint.url).toContain('hooks.example.test');
    } finally {
      await guarded.close();
    }
  });

  it('refuses a loopback URL at delivery when the setting is off, and delivers to it when it is on', async () => {
    const guarded = await createTestApp();
    try {
      // An endpoint written before the guard (or by hand): the delivery checks it all the same.
      await guarded.database.sql.query(
        `INSERT INTO webhook_endpoints (url, event_types, secret_sealed) VALUES ($1, '{commission.created}', $2)`,
        [receiver.url, guarded.context.cipher.encrypt('whsec_test')],
      );
      await inTransaction(guarded.context, (tx) =>
        enqueueWebhookEvents(tx, [commission('aff-loop', 80)], guarded.clock.now),
      );
      expect(await deliverDueWebhooks(guarded.context)).toMatchObject({ delivered: 0, retrying: 1 });
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await guarded.close();
    }
    // The same with the setting on (this file's app): delivered.
    await register();
    await emit(commission('aff-loop', 81));
    expect(await deliverDueWebhooks(t.context)).toMatchObject({ delivered: 1 });
    expect(receiver.requests).toHaveLength(1);
  });

  it('connects to the address it checked, not to a second answer of the name', async () => {
    // The name does not exist in any DNS: only the pinned address can reach the receiver.
    const { endpoint } = await createEndpoint(
      t.context,
      { userId: operator.userId, email: operator.email, role: 'admin' },
      { url: `http://pinned.invalid:${receiver.port}/hooks`, eventTypes: ['payout.sent'] },
      async () => [{ address: '127.0.0.1', family: 4 }],
    );
    await emit(
      payoutEvent('payout.sent', {
        id: '00000000-0000-4000-8000-000000000001',
        affiliateId: 'aff-pinned',
        amountCents: 2500,
        currency: 'USD',
        amountPaidCents: null,
        paidCurrency: null,
        method: 'paypal',
        scheduledFor: '2025-07-15',
      }),
    );
    await deliverDueWebhooks(t.context, { resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers.host).toBe(`pinned.invalid:${receiver.port}`);
    expect(endpoint.eventTypes).toEqual(['payout.sent']);
  });
});
