import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, callFn, createTestAffiliate, insertCode } from './helpers/affiliates.ts';
import {
  WEBHOOK_AUTH,
  anonymousId,
  attributeInstall,
  attributedUser,
  conversionsOf,
  postWebhook,
  purchaseEvent,
  storedEvent,
} from './helpers/revenuecat.ts';

// POST /api/webhooks/revenuecat (docs/product/attribution.md#conversions): authenticated by its secret,
// idempotent on event.id, tolerant of fields it does not read, strict about the ones it does.

const NOW = new Date('2025-06-10T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH } });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
  t.context.config.REVENUECAT_ACCEPT_SANDBOX = false;
});

async function affiliateWithCode(): Promise<{ affiliate: TestAffiliate; code: string }> {
  const affiliate = await createTestAffiliate(t);
  const { code } = await insertCode(t, affiliate.affiliateId);
  return { affiliate, code };
}

async function count(table: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

async function snapshot() {
  return {
    events: await count('revenuecat_events'),
    conversions: await count('conversions'),
    aliases: await count('app_user_aliases'),
    adjustments: await count('commission_adjustments'),
    outbox: await count('email_outbox'),
  };
}

describe('authentication', () => {
  it('refuses a missing or wrong Authorization header with 401 and stores nothing', async () => {
    const { code } = await affiliateWithCode();
    const event = purchaseEvent(await attributedUser(t, code));
    const before = await snapshot();
    for (const auth of [
      null,
      '',
      'Bearer wrong',
      `${WEBHOOK_AUTH} `,
      WEBHOOK_AUTH.toLowerCase(),
      WEBHOOK_AUTH.slice(0, -1),
      `${WEBHOOK_AUTH}x`,
    ]) {
      const response = await postWebhook(t, event, { auth });
      expect({ auth, status: response.status, error: response.body.error?.status }).toEqual({
        auth,
        status: 401,
        error: 'UNAUTHENTICATED',
      });
    }
    expect(await snapshot()).toEqual(before);
    expect((await postWebhook(t, event)).status).toBe(200);
  });

  it('answers 503 when no secret is configured', async () => {
    const unconfigured = await createTestApp();
    try {
      const response = await postWebhook(unconfigured, purchaseEvent(anonymousId()));
      expect(response.status).toBe(503);
      expect(response.body.error?.status).toBe('UNAVAILABLE');
      expect(await unconfigured.database.sql.query('SELECT * FROM revenuecat_events')).toEqual({ rows: [] });
    } finally {
      await unconfigured.close();
    }
  });
});

describe('conversions', () => {
  it('turns a first paid purchase into a pending $2 conversion, with the event recorded', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const appUserId = await attributedUser(t, code);
    const purchasedAt = new Date(NOW.getTime() - 60_000);
    const event = purchaseEvent(appUserId, {}, purchasedAt);
    const response = await postWebhook(t, event);
    expect(response).toEqual({ status: 200, body: { outcome: 'conversion' } });

    const [conversion] = await conversionsOf(t, affiliate.affiliateId);
    expect(conversion).toMatchObject({
      app_user_id: appUserId,
      commission_cents: 200,
      rate_tier: 'standard',
      status: 'pending',
      source_event_id: event.id,
    });
    expect(new Date(conversion!.occurred_at).toISOString()).toBe(purchasedAt.toISOString());
    const { rows } = await t.database.sql.query(
      'SELECT store, product_id, price_cents, price_currency, transaction_id, original_transaction_id, referral_code_id IS NOT NULL AS has_code FROM conversions WHERE id = $1',
      [conversion!.id],
    );
    expect(rows[0]).toEqual({
      store: 'APP_STORE',
      product_id: 'skanova_monthly',
      price_cents: 999,
      price_currency: 'USD',
      transaction_id: event.transaction_id,
      original_transaction_id: event.original_transaction_id,
      has_code: true,
    });
    expect(await storedEvent(t, event.id as string)).toEqual({
      outcome: 'conversion',
      conversion_id: conversion!.id,
      type: 'INITIAL_PURCHASE',
    });
    // The whole payload is kept, unknown fields included.
    const { rows: payload } = await t.database.sql.query<{ payload: { event: Record<string, unknown> } }>(
      'SELECT payload FROM revenuecat_events WHERE event_id = $1',
      [event.id],
    );
    expect(payload[0]!.payload.event.subscriber_attributes).toEqual(event.subscriber_attributes);

    const stats = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
    expect(stats.body.result).toMatchObject({ totalConversions: 1, totalEarningsCents: 200, unpaidEarningsCents: 200 });
  });

  it('counts an INTRO purchase; not a free one, a lifetime purchase or a plain renewal', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const ignored = [
      purchaseEvent(await attributedUser(t, code), { price: 0 }),
      purchaseEvent(await attributedUser(t, code), { period_type: 'PROMOTIONAL' }),
      purchaseEvent(await attributedUser(t, code), { type: 'NON_RENEWING_PURCHASE' }),
      purchaseEvent(await attributedUser(t, code), { type: 'RENEWAL' }),
      purchaseEvent(await attributedUser(t, code), { type: 'RENEWAL', is_trial_conversion: true, price: 0 }),
      purchaseEvent(await attributedUser(t, code), { type: 'CANCELLATION', cancel_reason: 'UNSUBSCRIBE' }),
      purchaseEvent(await attributedUser(t, code), { type: 'SOME_FUTURE_TYPE', brand_new_field: { nested: [1, 2] } }),
    ];
    for (const event of ignored) {
      expect(await postWebhook(t, event)).toEqual({ status: 200, body: { outcome: 'ignored' } });
      expect((await storedEvent(t, event.id as string))?.outcome).toBe('ignored');
    }
    expect(await conversionsOf(t, affiliate.affiliateId)).toEqual([]);
    const intro = purchaseEvent(await attributedUser(t, code), { period_type: 'INTRO', price: 0.99 });
    expect((await postWebhook(t, intro)).body.outcome).toBe('conversion');
  });

  it('the same event delivered 5 times at once pays once', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const event = purchaseEvent(await attributedUser(t, code));
    const answers = await Promise.all(Array.from({ length: 5 }, () => postWebhook(t, event)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((answer) => answer.body.outcome).sort()).toEqual([
      'conversion',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await conversionsOf(t, affiliate.affiliateId)).toHaveLength(1);
    expect((await postWebhook(t, event)).body.outcome).toBe('duplicate');
    const { rows } = await t.database.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM email_outbox WHERE kind = $1 AND to_address = $2',
      ['conversion', affiliate.email],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('a trial start pays nothing; its conversion pays once', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const appUserId = await attributedUser(t, code);
    const trial = purchaseEvent(appUserId, { period_type: 'TRIAL', price: 0 }, NOW);
    expect((await postWebhook(t, trial)).body.outcome).toBe('trial');
    expect(await conversionsOf(t, affiliate.affiliateId)).toEqual([]);

    const convertedAt = new Date(NOW.getTime() + 7 * DAY_MS);
    const renewal = purchaseEvent(
      appUserId,
      {
        type: 'RENEWAL',
        is_trial_conversion: true,
        period_type: 'NORMAL',
        original_transaction_id: trial.transaction_id,
      },
      convertedAt,
    );
    const [first, second] = await Promise.all([
      postWebhook(t, renewal),
      postWebhook(t, { ...renewal, id: `${renewal.id as string}-redelivered` }),
    ]);
    expect([first.body.outcome, second.body.outcome].sort()).toEqual(['already-converted', 'conversion']);
    // A later paid purchase of the same person is not a first one.
    expect((await postWebhook(t, purchaseEvent(appUserId))).body.outcome).toBe('already-converted');

    const conversions = await conversionsOf(t, affiliate.affiliateId);
    expect(conversions).toHaveLength(1);
    expect(conversions[0]).toMatchObject({ commission_cents: 200, status: 'pending' });
    expect(new Date(conversions[0]!.occurred_at).toISOString()).toBe(convertedAt.toISOString());
  });

  it('takes the event time, then the receipt time, when the purchase time is missing', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const eventAt = new Date(NOW.getTime() - 3_600_000);
    await postWebhook(
      t,
      purchaseEvent(await attributedUser(t, code), { purchased_at_ms: null, event_timestamp_ms: eventAt.getTime() }),
    );
    await postWebhook(
      t,
      purchaseEvent(await attributedUser(t, code), { purchased_at_ms: undefined, event_timestamp_ms: undefined }),
    );
    const times = (await conversionsOf(t, affiliate.affiliateId)).map((row) => new Date(row.occurred_at).toISOString());
    expect(times).toEqual([eventAt.toISOString(), NOW.toISOString()]);
  });

  it('records events of people nobody referred as unattributed', async () => {
    const before = await count('conversions');
    const stranger = purchaseEvent(anonymousId());
    expect(await postWebhook(t, stranger)).toEqual({ status: 200, body: { outcome: 'unattributed' } });
    const unattributedInstall = anonymousId();
    await attributeInstall(t, { appUserId: unattributedInstall, platform: 'ios' });
    expect((await postWebhook(t, purchaseEvent(unattributedInstall))).body.outcome).toBe('unattributed');
    expect(await count('conversions')).toBe(before);
    expect((await storedEvent(t, stranger.id as string))?.outcome).toBe('unattributed');
  });

  it('sends the affiliate an e-mail only when they want one', async () => {
    const wanting = await affiliateWithCode();
    const quiet = await affiliateWithCode();
    await callFn(
      t,
      'updateNotificationPreferences',
      { conversions: false, payments: true, news: true },
      quiet.affiliate.cookie,
    );
    await postWebhook(t, purchaseEvent(await attributedUser(t, wanting.code)));
    await postWebhook(t, purchaseEvent(await attributedUser(t, quiet.code)));
    const [conversion] = await conversionsOf(t, wanting.affiliate.affiliateId);
    const { rows } = await t.database.sql.query<{
      to_address: string;
      dedupe_key: string;
      subject: string;
      text_body: string;
    }>(
      "SELECT to_address, dedupe_key, subject, text_body FROM email_outbox WHERE kind = 'conversion' AND to_address = ANY(ARRAY[$1, $2])",
      [wanting.affiliate.email, quiet.affiliate.email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ to_address: wanting.affiliate.email, dedupe_key: `conversion:${conversion!.id}` });
    expect(`${rows[0]!.subject}\n${rows[0]!.text_body}`).toContain('$2.00');
    expect(rows[0]!.text_body).toContain(wanting.code);
  });
});

describe('identities', () => {
  it('finds the install through the original app user id or an alias, and links every id', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const anonymous = await attributedUser(t, code);
    // The person logged in: RevenueCat now names them by their own id, the anonymous one an alias.
    const event = purchaseEvent('user-4242', {
      original_app_user_id: 'user-4242',
      aliases: ['user-4242', anonymous, '$RCAnonymousID:other-device'],
    });
    expect((await postWebhook(t, event)).body.outcome).toBe('conversion');
    const { rows } = await t.database.sql.query<{ alias: string }>(
      'SELECT alias FROM app_user_aliases WHERE install_id = (SELECT install_id FROM app_user_aliases WHERE alias = $1) ORDER BY alias',
      [anonymous],
    );
    expect(rows.map((row) => row.alias)).toEqual(['$RCAnonymousID:other-device', anonymous, 'user-4242'].sort());
    // The app, now under the logged-in id, gets the same attribution back.
    expect((await attributeInstall(t, { appUserId: 'user-4242', platform: 'ios' })).body.result).toEqual({
      attributed: true,
      code,
      method: 'code_claim',
    });

    const other = await affiliateWithCode();
    const viaOriginal = await attributedUser(t, other.code);
    const second = purchaseEvent('user-5151', { original_app_user_id: viaOriginal, aliases: [] });
    expect((await postWebhook(t, second)).body.outcome).toBe('conversion');
    expect(await conversionsOf(t, other.affiliate.affiliateId)).toHaveLength(1);
    expect(await conversionsOf(t, affiliate.affiliateId)).toHaveLength(1);
  });

  it('keeps the attribution with the person across a TRANSFER', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const firstDevice = await attributedUser(t, code);
    const trial = purchaseEvent(firstDevice, { period_type: 'TRIAL', price: 0 });
    expect((await postWebhook(t, trial)).body.outcome).toBe('trial');
    // A new device, unattributed, restores the purchases: RevenueCat moves them to its id.
    const secondDevice = anonymousId();
    await attributeInstall(t, { appUserId: secondDevice, platform: 'android' });
    const transfer = {
      id: 'transfer-event-1',
      type: 'TRANSFER',
      app_id: 'app1234567890',
      event_timestamp_ms: NOW.getTime(),
      environment: 'PRODUCTION',
      store: 'APP_STORE',
      transferred_from: [firstDevice],
      transferred_to: [secondDevice, 'user-transfer-1'],
    };
    expect(await postWebhook(t, transfer)).toEqual({ status: 200, body: { outcome: 'transfer' } });
    const converted = purchaseEvent(secondDevice, {
      type: 'RENEWAL',
      is_trial_conversion: true,
      aliases: [secondDevice],
      original_app_user_id: secondDevice,
      original_transaction_id: trial.original_transaction_id,
    });
    expect((await postWebhook(t, converted)).body.outcome).toBe('conversion');
    expect(await conversionsOf(t, affiliate.affiliateId)).toHaveLength(1);
    expect((await attributeInstall(t, { appUserId: 'user-transfer-1', platform: 'ios' })).body.result.code).toBe(code);

    const unknown = {
      ...transfer,
      id: 'transfer-event-2',
      transferred_from: ['nobody-we-know'],
      transferred_to: ['someone-else'],
    };
    expect((await postWebhook(t, unknown)).body.outcome).toBe('unattributed');
  });
});

describe('what changes nothing', () => {
  it('answers TEST events 200 without recording them', async () => {
    const before = await snapshot();
    const response = await postWebhook(t, {
      id: 'test-event-1',
      type: 'TEST',
      app_user_id: 'test-user',
      event_timestamp_ms: NOW.getTime(),
      environment: 'SANDBOX',
    });
    expect(response).toEqual({ status: 200, body: { outcome: 'test' } });
    expect(await snapshot()).toEqual(before);
  });

  it('records sandbox events as such, and counts them only when configured to', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const sandbox = purchaseEvent(await attributedUser(t, code), { environment: 'SANDBOX' });
    expect(await postWebhook(t, sandbox)).toEqual({ status: 200, body: { outcome: 'sandbox' } });
    expect((await storedEvent(t, sandbox.id as string))?.outcome).toBe('sandbox');
    expect(await conversionsOf(t, affiliate.affiliateId)).toEqual([]);

    t.context.config.REVENUECAT_ACCEPT_SANDBOX = true;
    const accepted = purchaseEvent(await attributedUser(t, code), { environment: 'SANDBOX' });
    expect((await postWebhook(t, accepted)).body.outcome).toBe('conversion');
  });

  const states: [string, (affiliate: TestAffiliate) => Promise<unknown>][] = [
    [
      'disabled',
      (a) =>
        t.database.sql.query(
          'UPDATE auth_users SET banned = true WHERE id = (SELECT user_id FROM affiliates WHERE id = $1)',
          [a.affiliateId],
        ),
    ],
    ['refused', (a) => t.database.sql.query("UPDATE affiliates SET status = 'refused' WHERE id = $1", [a.affiliateId])],
    ['deleted', (a) => t.database.sql.query('UPDATE affiliates SET deleted_at = now() WHERE id = $1', [a.affiliateId])],
  ];
  it.each(states)('a %s affiliate earns nothing on new conversions, and the event says so', async (_state, disable) => {
    const { affiliate, code } = await affiliateWithCode();
    const appUserId = await attributedUser(t, code);
    await disable(affiliate);
    const event = purchaseEvent(appUserId);
    expect(await postWebhook(t, event)).toEqual({ status: 200, body: { outcome: 'affiliate-ineligible' } });
    expect(await conversionsOf(t, affiliate.affiliateId)).toEqual([]);
    expect((await storedEvent(t, event.id as string))?.outcome).toBe('affiliate-ineligible');
  });
});

describe('malformed bodies', () => {
  /** mulberry32, seeded: the same bodies on every run. */
  function createRandom(seed: number) {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let value = state;
      value = Math.imul(value ^ (value >>> 15), value | 1);
      value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
      return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** Values that no field we read accepts, whatever its type. */
  const BAD_VALUES: unknown[] = [
    { nested: true },
    [1, 2],
    'a\u0000b',
    'lone \uD800 surrogate',
    true,
    -1,
    1.5,
    1e300,
    'x'.repeat(5000),
    ['ok', 42],
    ['\u0000'],
    Array.from({ length: 1001 }, (_, i) => `id-${i}`),
  ];
  /** The fields we read, and which bad values suit each (a value of the right type is not a mistake). */
  const FIELDS: Record<string, 'id' | 'text' | 'ids' | 'number' | 'time' | 'bool'> = {
    id: 'id',
    type: 'id',
    app_user_id: 'text',
    original_app_user_id: 'text',
    aliases: 'ids',
    transferred_from: 'ids',
    transferred_to: 'ids',
    period_type: 'text',
    price: 'number',
    is_trial_conversion: 'bool',
    cancel_reason: 'text',
    environment: 'text',
    store: 'text',
    product_id: 'text',
    transaction_id: 'text',
    original_transaction_id: 'text',
    purchased_at_ms: 'time',
    event_timestamp_ms: 'time',
  };
  /** The two values the fuzzer plants that no text column accepts: NUL and a lone surrogate. */
  function hasUnstorable(text: string): boolean {
    return text.includes('\u0000') || text.includes('\uD800');
  }
  function wrongFor(kind: string, value: unknown): boolean {
    const isText = typeof value === 'string' && !hasUnstorable(value) && value.length <= 64;
    if (kind === 'number') return typeof value !== 'number';
    if (kind === 'time') return typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 7e12;
    if (kind === 'bool') return typeof value !== 'boolean';
    if (kind === 'ids')
      return !(
        Array.isArray(value) &&
        value.length <= 1000 &&
        value.every((item) => typeof item === 'string' && item !== '' && item.length <= 512 && !hasUnstorable(item))
      );
    return !isText;
  }

  it('answers ~100 malformed bodies with 400, stores nothing, never a 5xx', async () => {
    const { code } = await affiliateWithCode();
    const valid = purchaseEvent(await attributedUser(t, code));
    const random = createRandom(20250610);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const bodies: { label: string; body: string; contentType?: string | null }[] = [
      { label: 'empty', body: '' },
      { label: 'not JSON', body: 'event=INITIAL_PURCHASE' },
      { label: 'truncated', body: JSON.stringify({ event: valid }).slice(0, 120) },
      { label: 'JSON null', body: 'null' },
      { label: 'array', body: JSON.stringify([{ event: valid }]) },
      { label: 'string', body: '"event"' },
      { label: 'no event', body: JSON.stringify({ api_version: '1.0' }) },
      { label: 'event null', body: JSON.stringify({ api_version: '1.0', event: null }) },
      { label: 'event array', body: JSON.stringify({ api_version: '1.0', event: [valid] }) },
      { label: 'event unwrapped', body: JSON.stringify(valid) },
      { label: 'no id', body: JSON.stringify({ event: { ...valid, id: undefined } }) },
      { label: 'no type', body: JSON.stringify({ event: { ...valid, type: undefined } }) },
      { label: 'empty id', body: JSON.stringify({ event: { ...valid, id: '' } }) },
      {
        label: 'deep nesting',
        body: `{"event":${JSON.stringify({ ...valid, extra: 0 }).replace('"extra":0', `"extra":${'['.repeat(100)}1${']'.repeat(100)}`)}}`,
      },
      { label: 'NUL in an unknown field', body: JSON.stringify({ event: { ...valid, country_code: 'F\u0000R' } }) },
      { label: 'lone surrogate in a key', body: JSON.stringify({ event: { ...valid, ['k\uDC00']: 1 } }) },
      { label: 'text/plain junk', body: 'hello', contentType: 'text/plain' },
      { label: 'no content type', body: 'hello', contentType: null },
      { label: 'too large', body: JSON.stringify({ event: { ...valid, blob: 'x'.repeat(300 * 1024) } }) },
    ];
    while (bodies.length < 100) {
      const field = pick(Object.keys(FIELDS));
      const candidates = BAD_VALUES.filter((value) => wrongFor(FIELDS[field]!, value));
      const value = pick(candidates);
      bodies.push({
        label: `bad ${field}`,
        body: JSON.stringify({
          api_version: '1.0',
          event: { ...valid, id: `${valid.id as string}-${bodies.length}`, [field]: value },
        }),
      });
    }

    const before = await snapshot();
    const failures: string[] = [];
    for (const [index, { label, body, contentType }] of bodies.entries()) {
      const response = await postWebhook(t, body, {
        contentType: contentType === undefined ? 'application/json' : contentType,
      });
      if (response.status !== 400 || response.body.error?.status !== 'INVALID_ARGUMENT') {
        failures.push(`#${index} ${label}: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
    // The valid event still counts afterwards.
    expect((await postWebhook(t, valid)).body.outcome).toBe('conversion');
  });
});

describe('prices and money', () => {
  it('refuses a price out of bounds with 400 and its own code, records the event as refused, pays nothing', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const user = await attributedUser(t, code);
    for (const price of [21_474_836.48, 1e300, -21_474_836.48]) {
      const event = purchaseEvent(user, { price, price_in_purchased_currency: price });
      const response = await postWebhook(t, event);
      expect(response.status).toBe(400);
      expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
      expect((response.body.error?.details as { code?: string } | undefined)?.code).toBe('price-out-of-range');
      expect((await storedEvent(t, event.id as string))?.outcome).toBe('refused');
      // RevenueCat delivers it again: still refused, still recorded once.
      expect((await postWebhook(t, event)).status).toBe(400);
    }
    expect(await conversionsOf(t, affiliate.affiliateId)).toEqual([]);
  });

  it('applies a refused event delivered again with a price in bounds', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const event = purchaseEvent(await attributedUser(t, code), { price: 99_999_999 });
    expect((await postWebhook(t, event)).status).toBe(400);
    const corrected = { ...event, price: 9.99 };
    expect((await postWebhook(t, corrected)).body.outcome).toBe('conversion');
    expect((await storedEvent(t, event.id as string))?.outcome).toBe('conversion');
    expect(await conversionsOf(t, affiliate.affiliateId)).toHaveLength(1);
  });

  it('stores money in 64-bit columns', async () => {
    const { rows } = await t.database.sql.query<{ column: string; type: string }>(
      `SELECT table_name || '.' || column_name AS column, data_type AS type FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name LIKE '%cents' ORDER BY 1`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.filter((row) => row.type !== 'bigint')).toEqual([]);
  });
});
