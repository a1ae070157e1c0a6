import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_ENDPOINTS_MAX } from '@skanova/shared/webhooks/constants';
import { inTransaction } from '../src/db/transaction.ts';
import { commissionCreatedEvent } from '../src/webhooks/events.ts';
import { enqueueWebhookEvents } from '../src/webhooks/outbox.ts';
import { deliverDueWebhooks } from '../src/webhooks/worker.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn } from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';
import { type WebhookReceiver, startWebhookReceiver } from './helpers/webhook-receiver.ts';

// The operators' webhook functions (docs/product/webhooks.md#endpoints): registering an endpoint
// answers its secret once; bad input is `invalid-argument` with a field message in both languages
// and writes nothing; the address guard refuses loopback, private, link-local and metadata
// addresses at registration (docs/product/webhooks.md#the-address-guard), and https is required in
// production; changes, deletion, the delivery log and its replay, each audited.

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
  await t.database.sql.query('DELETE FROM webhook_endpoints');
  await t.database.sql.query('DELETE FROM webhook_events');
});

async function count(app: TestApp, table: string): Promise<number> {
  const { rows } = await app.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

async function auditOf(app: TestApp, subject: string) {
  const { rows } = await app.database.sql.query<{ actor: string; action: string; details: Record<string, unknown> }>(
    'SELECT actor, action, details FROM audit_log WHERE subject = $1 ORDER BY id',
    [subject],
  );
  return rows;
}

/** The message of a namespaced key (`webhooks:form.errors.urlInvalid`) in a language. */
function message(lang: 'en' | 'fr', key: string): unknown {
  const [namespace, path] = key.split(':') as [string, string];
  const file = new URL(`../../../packages/shared/src/i18n/${lang}/${namespace}.json`, import.meta.url);
  const strings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return path
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings);
}

describe('registering an endpoint', () => {
  it('answers its secret once; the list, the audit log and the row never show it', async () => {
    const created = await callFn(
      t,
      'adminCreateWebhookEndpoint',
      {
        url: ` ${receiver.url} `,
        eventTypes: ['payout.paid', 'commission.created', 'payout.paid'],
        description: 'CRM',
      },
      operator.cookie,
    );
    expect(created.status).toBe(200);
    const { endpoint, secret } = created.body.result;
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(endpoint).toMatchObject({
      url: receiver.url,
      description: 'CRM',
      eventTypes: ['payout.paid', 'commission.created'],
      enabled: true,
      secretRotatedAt: null,
      previousSecretExpiresAt: null,
      pendingDeliveries: 0,
      failedDeliveries: 0,
    });
    const listed = await callFn(t, 'adminListWebhookEndpoints', {}, operator.cookie);
    expect(listed.body.result).toEqual([endpoint]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const audit = await auditOf(t, endpoint.id);
    expect(audit).toEqual([
      {
        actor: operator.userId,
        action: 'webhook.endpoint-created',
        details: { host: `127.0.0.1:${receiver.port}`, eventTypes: ['payout.paid', 'commission.created'] },
      },
    ]);
    const { rows } = await t.database.sql.query('SELECT * FROM webhook_endpoints');
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it.each([
    [
      'a URL that is not one',
      { url: 'not a url', eventTypes: ['payout.paid'] },
      'url',
      'webhooks:form.errors.urlInvalid',
    ],
    [
      'an ftp URL',
      { url: 'ftp://example.com/hook', eventTypes: ['payout.paid'] },
      'url',
      'webhooks:form.errors.urlInvalid',
    ],
    [
      'a URL with a password',
      { url: 'https://user:secret@example.com/hook', eventTypes: ['payout.paid'] },
      'url',
      'webhooks:form.errors.urlInvalid',
    ],
    ['no URL', { url: '  ', eventTypes: ['payout.paid'] }, 'url', 'webhooks:form.errors.urlRequired'],
    [
      'a URL too long',
      { url: `https://example.com/${'a'.repeat(2100)}`, eventTypes: ['payout.paid'] },
      'url',
      'webhooks:form.errors.urlTooLong',
    ],
    [
      'no event',
      { url: 'https://example.com/hook', eventTypes: [] },
      'eventTypes',
      'webhooks:form.errors.eventsRequired',
    ],
    ['events left out', { url: 'https://example.com/hook' }, 'eventTypes', 'webhooks:form.errors.eventsRequired'],
    [
      'an unknown event',
      { url: 'https://example.com/hook', eventTypes: ['payout.lost'] },
      'eventTypes.0',
      'webhooks:form.errors.eventsInvalid',
    ],
    [
      'a note too long',
      { url: 'https://example.com/hook', eventTypes: ['payout.paid'], description: 'x'.repeat(201) },
      'description',
      'webhooks:form.errors.descriptionTooLong',
    ],
  ])(
    'refuses %s with invalid-argument, a field message in both languages, and writes nothing',
    async (_, data, path, key) => {
      const auditBefore = await count(t, 'audit_log');
      const refused = await callFn(t, 'adminCreateWebhookEndpoint', data, operator.cookie);
      expect(refused.status).toBe(400);
      expect(refused.body.error?.status).toBe('INVALID_ARGUMENT');
      expect(refused.body.error?.details.fields).toContainEqual({ path, key });
      for (const lang of ['en', 'fr'] as const) expect(message(lang, key), `${lang} ${key}`).toMatch(/\S/);
      expect(await count(t, 'webhook_endpoints')).toBe(0);
      expect(await count(t, 'audit_log')).toBe(auditBefore);
    },
  );

  it(`refuses more than ${WEBHOOK_ENDPOINTS_MAX} endpoints`, async () => {
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) {
      const created = await callFn(
        t,
        'adminCreateWebhookEndpoint',
        { url: `${receiver.url}?n=${i}`, eventTypes: ['payout.paid'] },
        operator.cookie,
      );
      expect(created.status).toBe(200);
    }
    const refused = await callFn(
      t,
      'adminCreateWebhookEndpoint',
      { url: receiver.url, eventTypes: ['payout.paid'] },
      operator.cookie,
    );
    expect([refused.status, refused.body.error?.details.code]).toEqual([400, 'too-many-endpoints']);
    expect(await count(t, 'webhook_endpoints')).toBe(WEBHOOK_ENDPOINTS_MAX);
  });
});

describe('the address guard at registration', () => {
  let guarded: TestApp;
  let guardedOperator: TestOperator;

  beforeAll(async () => {
    guarded = await createTestApp();
    guardedOperator = await createTestOperator(guarded);
  });
  afterAll(() => guarded.close());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://127.1.2.3/hook',
    'http://10.0.0.5/hook',
    'http://172.16.4.4/hook',
    'http://192.168.1.10/hook',
    'http://100.64.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/hook',
    'http://224.0.0.1/hook',
    'http://[::1]/hook',
    'http://[::]/hook',
    'http://[fd00::1]/hook',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[fe80::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:169.254.169.254]/hook',
    'http://[64:ff9b::a9fe:a9fe]/hook',
    'http://2130706433/hook',
    'http://0x7f.0.0.1/hook',
    'http://localhost:3000/hook',
  ])('refuses %s (invalid-argument on the URL field, nothing written)', async (url) => {
    const auditBefore = await count(guarded, 'audit_log');
    const refused = await callFn(
      guarded,
      'adminCreateWebhookEndpoint',
      { url, eventTypes: ['payout.paid'] },
      guardedOperator.cookie,
    );
    expect([refused.status, refused.body.error?.status]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(refused.body.error?.details.fields).toEqual([{ path: 'url', key: 'webhooks:form.errors.urlPrivate' }]);
    expect(await count(guarded, 'webhook_endpoints')).toBe(0);
    expect(await count(guarded, 'audit_log')).toBe(auditBefore);
  });

  it('refuses a name that does not resolve', async () => {
    const refused = await callFn(
      guarded,
      'adminCreateWebhookEndpoint',
      { url: 'https://nowhere.invalid/hook', eventTypes: ['payout.paid'] },
      guardedOperator.cookie,
    );
    expect(refused.body.error?.details.fields).toEqual([{ path: 'url', key: 'webhooks:form.errors.urlUnresolvable' }]);
  });

  it('refuses a change of URL to a private address, and keeps the endpoint as it was', async () => {
    // Registered where the setting allows it, then checked as this app checks.
    await guarded.database.sql.query(
      `INSERT INTO webhook_endpoints (id, url, event_types, secret_sealed) VALUES ('00000000-0000-4000-8000-00000000e001', 'https://hooks.example.com/a', '{payout.paid}', 'sealed')`,
    );
    const refused = await callFn(
      guarded,
      'adminUpdateWebhookEndpoint',
      { endpointId: '00000000-0000-4000-8000-00000000e001', url: 'http://10.1.1.1/b' },
      guardedOperator.cookie,
    );
    expect(refused.body.error?.details.fields).toEqual([{ path: 'url', key: 'webhooks:form.errors.urlPrivate' }]);
    const { rows } = await guarded.database.sql.query<{ url: string }>('SELECT url FROM webhook_endpoints');
    expect(rows).toEqual([{ url: 'https://hooks.example.com/a' }]);
  });

  it('requires https in production', async () => {
    const production = await createTestApp({
      env: { NODE_ENV: 'production', WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' },
    });
    try {
      const productionOperator = await createTestOperator(production);
      const refused = await callFn(
        production,
        'adminCreateWebhookEndpoint',
        { url: receiver.url, eventTypes: ['payout.paid'] },
        productionOperator.cookie,
      );
      expect(refused.body.error?.details.fields).toEqual([{ path: 'url', key: 'webhooks:form.errors.urlNotHttps' }]);
      expect(await count(production, 'webhook_endpoints')).toBe(0);
    } finally {
      await production.close();
    }
  });
});

describe('changing and deleting an endpoint', () => {
  async function register(eventTypes = ['commission.created']) {
    const created = await callFn(t, 'adminCreateWebhookEndpoint', { url: receiver.url, eventTypes }, operator.cookie);
    return created.body.result.endpoint as { id: string };
  }

  it('changes its events and note, disables and enables it, each change audited', async () => {
    const { id } = await register();
    const changed = await callFn(
      t,
      'adminUpdateWebhookEndpoint',
      { endpointId: id, eventTypes: ['payout.sent'], description: 'Payouts' },
      operator.cookie,
    );
    expect(changed.body.result).toMatchObject({ eventTypes: ['payout.sent'], description: 'Payouts', enabled: true });
    const disabled = await callFn(t, 'adminUpdateWebhookEndpoint', { endpointId: id, enabled: false }, operator.cookie);
    expect(disabled.body.result).toMatchObject({ enabled: false, description: 'Payouts' });
    await callFn(t, 'adminUpdateWebhookEndpoint', { endpointId: id, enabled: true, description: '' }, operator.cookie);
    expect((await auditOf(t, id)).map((entry) => entry.action)).toEqual([
      'webhook.endpoint-created',
      'webhook.endpoint-updated',
      'webhook.endpoint-disabled',
      'webhook.endpoint-enabled',
    ]);
    const listed = await callFn(t, 'adminListWebhookEndpoints', null, operator.cookie);
    expect(listed.body.result[0]).toMatchObject({ description: null, enabled: true });
  });

  it('sends nothing to a disabled endpoint', async () => {
    const { id } = await register();
    await callFn(t, 'adminUpdateWebhookEndpoint', { endpointId: id, enabled: false }, operator.cookie);
    await inTransaction(t.context, (tx) => enqueueWebhookEvents(tx, [commission('aff-disabled', 1)], t.clock.now));
    expect(await deliverDueWebhooks(t.context)).toMatchObject({ delivered: 0 });
    expect(receiver.requests).toHaveLength(0);
    expect(await count(t, 'webhook_events')).toBe(0);
  });

  it('deletes it with its deliveries and their log', async () => {
    const { id } = await register();
    await inTransaction(t.context, (tx) => enqueueWebhookEvents(tx, [commission('aff-deleted', 2)], t.clock.now));
    await deliverDueWebhooks(t.context);
    expect(await count(t, 'webhook_delivery_attempts')).toBe(1);
    const deleted = await callFn(t, 'adminDeleteWebhookEndpoint', { endpointId: id }, operator.cookie);
    expect(deleted.body.result).toEqual({ deleted: true });
    expect(await count(t, 'webhook_deliveries')).toBe(0);
    expect(await count(t, 'webhook_delivery_attempts')).toBe(0);
    expect((await auditOf(t, id)).at(-1)?.action).toBe('webhook.endpoint-deleted');
    const again = await callFn(t, 'adminDeleteWebhookEndpoint', { endpointId: id }, operator.cookie);
    expect([again.status, again.body.error?.status]).toEqual([404, 'NOT_FOUND']);
  });
});

const commission = (affiliateId: string, conversionId: number) =>
  commissionCreatedEvent({
    conversionId,
    affiliateId,
    commissionCents: 400,
    rateTier: 'premium',
    occurredAt: new Date('2025-06-10T12:00:00Z'),
  });

describe('the delivery log', () => {
  it('lists each delivery with its attempts, filters it, and replays a delivered one (audited)', async () => {
    const created = await callFn(
      t,
      'adminCreateWebhookEndpoint',
      { url: receiver.url, eventTypes: ['commission.created'] },
      operator.cookie,
    );
    const endpointId: string = created.body.result.endpoint.id;
    const [eventId] = await inTransaction(t.context, (tx) =>
      enqueueWebhookEvents(tx, [commission('aff-log', 3)], t.clock.now),
    );
    await deliverDueWebhooks(t.context);

    const log = await callFn(t, 'adminListWebhookDeliveries', { endpointId }, operator.cookie);
    expect(log.body.result).toMatchObject({ total: 1, page: 1 });
    const [delivery] = log.body.result.items;
    expect(delivery).toMatchObject({
      endpointId,
      endpointUrl: receiver.url,
      eventId,
      eventType: 'commission.created',
      affiliateId: 'aff-log',
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(delivery.attemptLog).toEqual([
      { attempt: 1, at: expect.any(String), durationMs: expect.any(Number), statusCode: 200, error: null },
    ]);
    expect(
      (await callFn(t, 'adminListWebhookDeliveries', { status: 'failed' }, operator.cookie)).body.result.total,
    ).toBe(0);
    expect(
      (await callFn(t, 'adminListWebhookDeliveries', { eventType: 'commission.created' }, operator.cookie)).body.result
        .total,
    ).toBe(1);

    const replayed = await callFn(t, 'adminReplayWebhookDelivery', { deliveryId: delivery.id }, operator.cookie);
    expect(replayed.body.result).toMatchObject({ status: 'pending', attempts: 1, deliveredAt: null });
    const again = await callFn(t, 'adminReplayWebhookDelivery', { deliveryId: delivery.id }, operator.cookie);
    expect([again.status, again.body.error?.details.code]).toEqual([400, 'delivery-pending']);
    await deliverDueWebhooks(t.context);
    expect(receiver.requests.map((request) => request.event.id)).toEqual([eventId, eventId]);
    const after = await callFn(t, 'adminListWebhookDeliveries', {}, operator.cookie);
    expect(after.body.result.items[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(after.body.result.items[0].attemptLog.map((entry: { attempt: number }) => entry.attempt)).toEqual([2, 1]);
    expect(await auditOf(t, delivery.id)).toEqual([
      {
        actor: operator.userId,
        action: 'webhook.delivery-replayed',
        details: { eventId, endpointId, previousStatus: 'delivered' },
      },
    ]);

    const unknown = await callFn(t, 'adminReplayWebhookDelivery', { deliveryId: '999999' }, operator.cookie);
    expect([unknown.status, unknown.body.error?.status]).toEqual([404, 'NOT_FOUND']);
  });
});
