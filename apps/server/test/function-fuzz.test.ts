import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callables } from '../src/functions/index.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, createTestAffiliate, signupPayload } from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';
import { createVisit } from './helpers/visits.ts';

// Malformed requests to every registered function (docs/product/rules-and-constants.md#security: "bad input never crashes"): broken
// JSON, wrong media types, missing or mistyped data, huge strings, NUL characters and lone UTF-16
// surrogates (the storable-text rule) in values and in keys, 60 KB strings, 5,000-deep nesting,
// nested junk and prototype-pollution keys — each signed out, as an affiliate and as an operator.
// The functions are read from the registry, so a new one is fuzzed the day it is registered. Every
// answer must be a 4xx in the protocol's shape, never a 500, and nothing may be stored. The bodies
// come from a seeded generator: a failure names its seed and case number, and the same seed
// produces the same bodies again.

const SEED = Number(process.env.FUZZ_SEED ?? 20250610);
const BODY_COUNT = 2400;
/** Bodies above the server's limit (64 KiB) are refused before parsing; these stay below it. */
const HUGE_STRING = { min: 6_000, max: 30_000 };
/** "60 KB": the largest string a body under the limit carries (in UTF-8 bytes). */
const SIXTY_KB = 60_000;
/** Nesting far beyond any schema's (and the storable-text rule's 32 levels). */
const DEEP_NESTING = 5_000;
/** Who calls: every function is fuzzed by each (the access check must not answer 500 either). */
const SESSIONS = ['signed out', 'affiliate', 'operator'] as const;
type Session = (typeof SESSIONS)[number];
/** The storable-text rule's refusals: a NUL and lone surrogates, high and low. */
const UNSTORABLE = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff'];
/** Keys no function may accept, whatever its schema: unstorable text, and what the parser refuses. */
const BAD_KEYS = ['\ud800', 'utm_\udc00', 'a\udbff', '\u0000', 'k\u0000', '__proto__'];

/** mulberry32: a small, fast, seedable generator. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  return { next, int, pick };
}
type Random = ReturnType<typeof createRandom>;

/**
 * What a field holds, so that the replacement chosen is surely invalid for it: a number is not a
 * mistake for a number field, nor a boolean for a boolean. `secret` is text never stored as text (a
 * password is hashed); the storable-text rule refuses a NUL in it all the same.
 */
type FieldKind = 'text' | 'secret' | 'number' | 'bool' | 'object' | 'any';

interface Template {
  data: Record<string, unknown>;
  /** Dot paths into `data` and what they hold. */
  fields: Record<string, FieldKind>;
  /** Extra keys alone make the data invalid (functions without a payload). */
  strict?: boolean;
}

const BANK = {
  bankName: 'BNP Paribas',
  bankIban: 'FR76 3000 6000 0112 3456 7890 189',
  bic: 'BNPAFRPP',
  accountHolder: 'Ada Lovelace',
};
const NO_PAYLOAD: Template[] = [{ data: {}, fields: {}, strict: true }];

/** A valid request of each function, and its fields. Functions not listed get structural mistakes only. */
const TEMPLATES: Record<string, Template[]> = {
  submitContactForm: [
    {
      data: {
        name: 'Ada',
        email: 'ada@example.com',
        subject: 'technical',
        message: 'The app does not open on my phone.',
        language: 'en',
      },
      fields: { name: 'text', email: 'text', subject: 'text', message: 'text', language: 'text' },
    },
  ],
  storePreInstallData: [
    {
      data: createVisit({
        code: 'K7M2QX4P',
        sessionId: 'fuzz-session-abcdefgh',
        timestamp: '2025-06-10T12:00:00.000Z',
        query: { utm_source: 'fuzz' },
      }),
      fields: {
        fingerprint: 'object',
        deeplink: 'object',
        path: 'text',
        query: 'object',
        'fingerprint.userAgent': 'text',
        'fingerprint.language': 'text',
        'fingerprint.platform': 'text',
        'fingerprint.colorDepth': 'number',
        'fingerprint.hardwareConcurrency': 'number',
        'fingerprint.sessionId': 'text',
        'fingerprint.timestamp': 'text',
        'fingerprint.referrer': 'text',
        'deeplink.type': 'text',
        'deeplink.code': 'text',
        'deeplink.fullPath': 'text',
        'query.utm_source': 'text',
      },
    },
  ],
  createAffiliate: [
    {
      data: signupPayload({
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'ada@paypal.example' },
        phone: '+33 6 12 34 56 78',
        companyName: 'Engines',
        website: 'https://ada.example',
      }),
      fields: {
        email: 'text',
        password: 'secret',
        firstName: 'text',
        lastName: 'text',
        phone: 'text',
        companyName: 'text',
        website: 'text',
        paymentMethod: 'text',
        paymentDetails: 'object',
        'paymentDetails.paypalEmail': 'text',
        termsAccepted: 'bool',
        language: 'text',
      },
    },
    {
      data: signupPayload({ paymentMethod: 'bank_transfer', paymentDetails: BANK }),
      fields: {
        'paymentDetails.bankName': 'text',
        'paymentDetails.bankIban': 'text',
        'paymentDetails.bic': 'text',
        'paymentDetails.accountHolder': 'text',
      },
    },
  ],
  generateReferralCode: [{ data: { description: 'Instagram bio' }, fields: { description: 'text' } }],
  getAffiliateStats: NO_PAYLOAD,
  getActiveVisitors: NO_PAYLOAD,
  getAffiliateTimeline: NO_PAYLOAD,
  getAffiliatePaymentMethod: NO_PAYLOAD,
  getAffiliatePayouts: NO_PAYLOAD,
  getAffiliateUnpaidEarnings: NO_PAYLOAD,
  getAffiliateSettings: NO_PAYLOAD,
  updateAffiliatePaymentMethod: [
    {
      data: { paymentMethod: 'paypal', paymentDetails: { paypalEmail: 'ada@paypal.example' } },
      fields: { paymentMethod: 'any', paymentDetails: 'any', 'paymentDetails.paypalEmail': 'text' },
    },
    {
      data: { paymentMethod: 'bank_transfer', paymentDetails: BANK },
      fields: {
        'paymentDetails.bankName': 'text',
        'paymentDetails.bankIban': 'text',
        'paymentDetails.bic': 'text',
        'paymentDetails.accountHolder': 'text',
      },
    },
  ],
  updateNotificationPreferences: [
    {
      data: { conversions: true, payments: false, news: true },
      fields: { conversions: 'bool', payments: 'bool', news: 'bool' },
    },
  ],
  deleteAffiliateAccount: [{ data: { password: 'correct horse battery' }, fields: { password: 'secret' } }],
  attributeInstall: [
    {
      data: {
        appUserId: '$RCAnonymousID:fuzz',
        platform: 'ios',
        trackingId: 'sk-tid:abcdefghijklmnop',
        referralCode: 'K7M2QX4P',
        device: { userAgent: 'Skanova/1.0', language: 'fr-FR', colorDepth: 24, timestamp: '2025-06-10T12:00:00.000Z' },
      },
      // `device` is a lenient object of optional fields (junk in it is ignored): only its fields are fuzzed.
      fields: {
        appUserId: 'text',
        platform: 'text',
        trackingId: 'text',
        referralCode: 'text',
        'device.userAgent': 'text',
        'device.language': 'text',
        'device.colorDepth': 'number',
        'device.timestamp': 'text',
      },
    },
  ],
  adminListAffiliates: [
    {
      data: { query: 'ada', status: 'active', page: 1, pageSize: 25 },
      fields: { query: 'text', status: 'text', page: 'number', pageSize: 'number' },
    },
  ],
  adminGetAffiliate: [{ data: { affiliateId: 'fuzz-affiliate-id' }, fields: { affiliateId: 'text' } }],
  adminSetAffiliateStatus: [
    {
      data: { affiliateId: 'fuzz-affiliate-id', action: 'disable', reason: 'spam' },
      fields: { affiliateId: 'text', action: 'text', reason: 'text' },
    },
  ],
  adminListConversions: [
    {
      data: { status: 'pending', code: 'K7M2QX4P', from: '2025-01-01', to: '2025-06-30', page: 1 },
      fields: { status: 'text', code: 'text', from: 'text', to: 'text', page: 'number' },
    },
  ],
  adminReverseConversion: [
    { data: { conversionId: '1', reason: 'refunded by hand' }, fields: { conversionId: 'text', reason: 'text' } },
  ],
  adminListTickets: [{ data: { status: 'open', page: 1 }, fields: { status: 'text', page: 'number' } }],
  adminMarkTicketHandled: [
    { data: { ticketId: '00000000-0000-4000-8000-000000000000' }, fields: { ticketId: 'text' } },
  ],
  adminGetWebVitals: [{ data: { days: 7 }, fields: { days: 'number' } }],
  adminListAuditLog: [{ data: { action: 'affiliate.', page: 1 }, fields: { action: 'text', page: 'number' } }],
  adminListReviewCases: [{ data: { status: 'open', page: 1 }, fields: { status: 'text', page: 'number' } }],
  adminGetReviewCase: [{ data: { caseId: '1' }, fields: { caseId: 'text' } }],
  adminDecideReviewCase: [
    {
      data: { caseId: '1', decision: 'approve', reason: 'checked by hand' },
      fields: { caseId: 'text', decision: 'text', reason: 'text' },
    },
  ],
  adminGetReviewPolicies: NO_PAYLOAD,
  adminSetReviewPolicy: [
    {
      data: { groupId: 'default', signal: 'click-burst', action: 'hold' },
      fields: { groupId: 'text', signal: 'text', action: 'text' },
    },
  ],
  adminListPayouts: [
    { data: { status: 'scheduled', payday: '2025-06-15' }, fields: { status: 'text', payday: 'text' } },
  ],
  adminRunPayouts: [{ data: { payday: '2025-06-15' }, fields: { payday: 'text' } }],
  adminExportPayouts: [
    {
      data: { kind: 'sepa', payday: '2025-06-15', exchangeRate: '0.923100', painVersion: 'pain.001.001.09' },
      fields: { kind: 'text', payday: 'text', exchangeRate: 'text', painVersion: 'text' },
    },
  ],
  adminListWebhookEndpoints: NO_PAYLOAD,
  adminCreateWebhookEndpoint: [
    {
      data: { url: 'https://hooks.example.com/skanova', eventTypes: ['payout.paid'], description: 'CRM' },
      fields: { url: 'text', eventTypes: 'object', description: 'text' },
    },
  ],
  adminUpdateWebhookEndpoint: [
    {
      data: { endpointId: '00000000-0000-4000-8000-000000000000', url: 'https://hooks.example.com/b', enabled: false },
      fields: { endpointId: 'text', url: 'text', enabled: 'bool' },
    },
  ],
  adminDeleteWebhookEndpoint: [
    { data: { endpointId: '00000000-0000-4000-8000-000000000000' }, fields: { endpointId: 'text' } },
  ],
  adminRotateWebhookSecret: [
    { data: { endpointId: '00000000-0000-4000-8000-000000000000' }, fields: { endpointId: 'text' } },
  ],
  adminListWebhookDeliveries: [
    {
      data: { status: 'failed', eventType: 'payout.paid', page: 1 },
      fields: { status: 'text', eventType: 'text', page: 'number' },
    },
  ],
  adminReplayWebhookDelivery: [{ data: { deliveryId: '1' }, fields: { deliveryId: 'text' } }],
  adminMarkPayouts: [
    {
      data: { payoutIds: ['00000000-0000-4000-8000-000000000000'], status: 'sent', reference: 'BATCH-1' },
      fields: { payoutIds: 'object', status: 'text', reference: 'text' },
    },
    {
      data: { payoutIds: ['00000000-0000-4000-8000-000000000000'], status: 'failed', reason: 'account closed' },
      fields: { reason: 'text' },
    },
  ],
  adminReconcileLedger: NO_PAYLOAD,
  adminExportLedger: [{ data: { from: '2025-01', to: '2025-06' }, fields: { from: 'text', to: 'text' } }],
  adminListGroups: NO_PAYLOAD,
  adminCreateGroup: [{ data: { id: 'fuzz-group', name: 'Fuzz' }, fields: { id: 'text', name: 'text' } }],
  adminRenameGroup: [{ data: { groupId: 'default', name: 'Fuzz' }, fields: { groupId: 'text', name: 'text' } }],
  adminArchiveGroup: [{ data: { groupId: 'fuzz-group' }, fields: { groupId: 'text' } }],
  adminListRuleVersions: [{ data: { groupId: 'default' }, fields: { groupId: 'text' } }],
  adminPublishRuleVersion: [
    {
      data: {
        groupId: 'default',
        kind: 'flat',
        tiers: [
          { from: 0, cents: 200 },
          { from: 100, cents: 400 },
        ],
        holdDays: 30,
        minimumPayoutCents: 2000,
        effectiveFrom: '2099-01-01T00:00:00.000Z',
      },
      fields: {
        groupId: 'text',
        kind: 'text',
        tiers: 'object',
        'tiers.0.from': 'number',
        'tiers.1.cents': 'number',
        holdDays: 'number',
        minimumPayoutCents: 'number',
        effectiveFrom: 'text',
      },
    },
    {
      data: {
        groupId: 'default',
        kind: 'percentage',
        percentBasisPoints: 3000,
        recurringMonths: 12,
        holdDays: 30,
        minimumPayoutCents: 2000,
      },
      fields: { percentBasisPoints: 'number', recurringMonths: 'number' },
    },
  ],
  adminMoveAffiliateToGroup: [
    {
      data: { affiliateId: 'fuzz-affiliate-id', groupId: 'default' },
      fields: { affiliateId: 'text', groupId: 'text' },
    },
  ],
  adminListCampaignRates: [{ data: { affiliateId: 'fuzz-affiliate-id' }, fields: { affiliateId: 'text' } }],
  adminCreateCampaignRate: [
    {
      data: { code: 'K7M2QX4P', from: '2099-01-01', until: '2099-01-31', kind: 'flat', amountCents: 1000 },
      fields: { code: 'text', from: 'text', until: 'text', kind: 'text', amountCents: 'number' },
    },
    {
      data: { code: 'K7M2QX4P', from: '2099-01-01', until: '2099-01-31', kind: 'percentage', percentBasisPoints: 5000 },
      fields: { percentBasisPoints: 'number' },
    },
  ],
  adminDeleteCampaignRate: [{ data: { campaignRateId: '1' }, fields: { campaignRateId: 'text' } }],
  getAffiliateRule: NO_PAYLOAD,
  getAffiliateCommissions: NO_PAYLOAD,
};

const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
];
const WORDS = ['data', 'result', 'id', 'affiliateId', 'admin', 'role', 'status', 'x', '', ' ', '$where', '0', 'length'];

function hugeString(random: Random): string {
  const unit = random.pick(['a', 'é', '𝔘', '<script>', "'; DROP TABLE affiliates; --", '\u202e', '%00', '\\u0000']);
  return unit.repeat(Math.ceil(random.int(HUGE_STRING.min, HUGE_STRING.max) / unit.length));
}

/** Nested objects and arrays of random depth; always holds at least one non-string value. */
function junk(random: Random, depth = random.int(1, 4)): unknown {
  if (depth <= 0) return random.pick<unknown>([random.int(-1e9, 1e9), random.next(), true, false, null, 'x', [], {}]);
  if (random.next() < 0.4) return Array.from({ length: random.int(1, 4) }, () => junk(random, depth - 1));
  const value: Record<string, unknown> = { [random.pick(WORDS)]: { nested: random.int(0, 9) } };
  for (let i = random.int(0, 3); i > 0; i--) value[random.pick(WORDS)] = junk(random, depth - 1);
  return value;
}

function pollution(random: Random): Record<string, unknown> {
  const key = random.pick(POLLUTION_KEYS);
  return key === 'constructor'
    ? { constructor: { prototype: { polluted: true } } }
    : { [key]: { polluted: true, isAdmin: true } };
}

/** A value that no field of `kind` accepts. */
function badValue(random: Random, kind: FieldKind): unknown {
  const choices: (() => unknown)[] = [
    () => [random.pick(['a', 1, null])],
    () => junk(random),
    () => pollution(random),
    () => hugeString(random),
  ];
  if (kind !== 'number') choices.push(() => random.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1]));
  if (kind !== 'bool') choices.push(() => random.next() < 0.5);
  if (kind === 'text')
    choices.push(
      () => `${random.pick(['Ada', 'ada@example.com', 'K7M2QX4P', 'BNP'])}\u0000${random.pick(['', 'x', '\u0000'])}`,
    );
  if (kind === 'object') choices.push(() => random.pick(['{}', '[object Object]', 'null']));
  return random.pick(choices)();
}

function withField(data: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(data);
  const parts = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts.at(-1) as string] = value;
  return copy;
}

interface FuzzCase {
  label: string;
  payload: string;
  contentType?: string | undefined;
}

/** `{"data": …}` as JSON text, with raw keys (`__proto__`) written as keys, not as a prototype. */
function envelope(data: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ data, ...extra });
}

function structuralCase(random: Random, template: Template | undefined): FuzzCase {
  const valid = envelope(template?.data ?? null);
  const kind = random.int(0, 7);
  switch (kind) {
    case 0: {
      const cut = random.int(1, Math.max(1, valid.length - 1));
      return { label: 'truncated JSON', payload: valid.slice(0, cut) };
    }
    case 1:
      return {
        label: 'invalid JSON',
        payload: random.pick([
          '{data: 1}',
          "{'data': 1}",
          '{"data": undefined}',
          '{"data": NaN}',
          '{"data":1,}',
          '{"data":"\u0000',
          '\u0000',
          '{{}}',
          '{"data": 0x10}',
          '[',
          '',
        ]),
      };
    case 2:
      return {
        label: 'wrong content type',
        payload: valid,
        contentType: random.pick([
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/jsonp',
          'application/xml',
          '',
        ]),
      };
    case 3:
      return {
        label: 'missing data',
        payload: random.pick(['{}', '{"dat":1}', '{"result":{}}', '{"DATA":{}}', envelope(undefined)]),
      };
    case 4:
      return {
        label: 'body not an object',
        payload: random.pick(['[]', '[{"data":{}}]', '42', '"data"', 'null', 'true', '-0', '1e400']),
      };
    case 5:
      return {
        label: 'data not an object',
        payload: envelope(
          random.pick<unknown>([0, -1, 3.14, 'data', '', true, false, [], [template?.data ?? {}], hugeString(random)]),
        ),
      };
    case 6: {
      const depth = random.int(200, 3000);
      const array = random.next() < 0.5;
      const open = array ? '[' : '{"a":';
      const close = array ? ']' : '}';
      // Inside an array: a deep object alone could be a valid (ignored) extra key of a lenient schema.
      return { label: `nested ${depth} deep`, payload: `{"data":[${open.repeat(depth)}1${close.repeat(depth)}]}` };
    }
    default: {
      // Beside valid data: only the parser's prototype-poisoning check can refuse these.
      const poison =
        random.next() < 0.5 ? '{"__proto__":{"polluted":true}}' : '{"constructor":{"prototype":{"polluted":true}}}';
      return {
        label: 'pollution at the top level',
        payload: poison.replace(/^\{/, `{"data":${JSON.stringify(template?.data ?? null)},`),
      };
    }
  }
}

function fieldCase(random: Random, template: Template): FuzzCase {
  if (template.strict || Object.keys(template.fields).length === 0) {
    const key = random.pick([...WORDS, ...POLLUTION_KEYS].filter(Boolean));
    const data = { ...template.data, [key]: badValue(random, 'any') };
    return { label: `unexpected key "${key}"`, payload: JSON.stringify({ data }) };
  }
  const path = random.pick(Object.keys(template.fields));
  const kind = template.fields[path] as FieldKind;
  let data = withField(template.data, path, badValue(random, kind));
  // Sometimes with junk or pollution keys beside it: harmless on their own, they must not rescue the body.
  if (random.next() < 0.3) data = { ...data, ...pollution(random) };
  if (random.next() < 0.3) data = { ...data, [random.pick(WORDS)]: junk(random) };
  return { label: `bad ${path} (${kind})`, payload: JSON.stringify({ data }) };
}

/** Stands for a value in JSON text, then replaced by raw JSON (a key `__proto__`, 5,000-deep nesting). */
const PLACEHOLDER = '"\u2063fuzz-placeholder\u2063"';

/** `data` with `path` (dot path; '' = data itself) set to the raw JSON text `json`, as a request body. */
function bodyWith(data: unknown, path: string, json: string): string {
  const marker = JSON.parse(PLACEHOLDER) as string;
  const withMarker = path === '' ? marker : withField(data as Record<string, unknown>, path, marker);
  return envelope(withMarker).replace(PLACEHOLDER, () => json);
}

/** `data` with a key `key` (raw, whatever it is) added at `path` ('' = data itself) with a plain value. */
function bodyWithKey(data: unknown, path: string, key: string): string {
  const marker = JSON.parse(PLACEHOLDER) as string;
  const target = path === '' ? data : path.split('.').reduce<unknown>((node, part) => (node as never)[part], data);
  const inner = JSON.stringify({ ...(target as Record<string, unknown>), [marker]: 'x' });
  return bodyWith(
    data,
    path,
    inner.replace(PLACEHOLDER, () => JSON.stringify(key)),
  );
}

function deepNesting(random: Random): string {
  const array = random.next() < 0.5;
  const open = array ? '[' : '{"a":';
  const close = array ? ']' : '}';
  return `${open.repeat(DEEP_NESTING)}${random.pick(['1', '"x"', '"\\ud800"'])}${close.repeat(DEEP_NESTING)}`;
}

function sixtyKilobytes(random: Random): string {
  const unit = random.pick(['a', 'é', '😀']);
  return unit.repeat(Math.floor(SIXTY_KB / Buffer.byteLength(unit)));
}

/** `text` with an unstorable character put at a random place. */
function withUnstorable(random: Random, text: string): string {
  const at = random.int(0, text.length);
  return `${text.slice(0, at)}${random.pick(UNSTORABLE)}${text.slice(at)}`;
}

/**
 * The hostile client's cases, in values and in keys: a NUL or a lone surrogate, a 60 KB string,
 * 5,000-deep nesting, a bad key. Without a template, in the data itself.
 */
function hostileCase(random: Random, template: Template | undefined): FuzzCase {
  const data: unknown = template?.data ?? {};
  const paths = template ? Object.keys(template.fields) : [];
  const textPaths = paths.filter((path) => ['text', 'secret'].includes(template?.fields[path] ?? ''));
  const objectPaths = ['', ...paths.filter((path) => template?.fields[path] === 'object')];
  const path = paths.length > 0 && random.next() < 0.8 ? random.pick(paths) : '';
  switch (random.int(0, 3)) {
    case 0: {
      const textPath = textPaths.length > 0 ? random.pick(textPaths) : '';
      const original =
        textPath === ''
          ? 'text'
          : String(textPath.split('.').reduce<unknown>((node, part) => (node as never)[part], data));
      const value = withUnstorable(random, original);
      return {
        label: `unstorable text in ${textPath || 'data'}`,
        payload: bodyWith(data, textPath, JSON.stringify(value)),
      };
    }
    case 1: {
      const objectPath = random.pick(objectPaths);
      const key = random.pick(BAD_KEYS);
      return {
        label: `bad key ${JSON.stringify(key)} in ${objectPath || 'data'}`,
        payload: bodyWithKey(data, objectPath, key),
      };
    }
    case 2:
      return {
        label: `60 KB string in ${path || 'data'}`,
        payload: bodyWith(data, path, JSON.stringify(sixtyKilobytes(random))),
      };
    default:
      return {
        label: `${DEEP_NESTING}-deep nesting in ${path || 'data'}`,
        payload: bodyWith(data, path, deepNesting(random)),
      };
  }
}

let t: TestApp;
let affiliate: TestAffiliate;
let operator: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  affiliate = await createTestAffiliate(t, { password: 'correct horse battery' });
  operator = await createTestOperator(t);
});
afterAll(() => t.close());

async function count(table: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}

/** What the fuzzing must leave as it found it. */
async function storedCounts() {
  return {
    users: await count('auth_users'),
    tickets: await count('support_tickets'),
    clicks: await count('clicks'),
    codes: await count('referral_codes'),
    installs: await count('installs'),
    paymentMethods: await count('payment_methods'),
    payouts: await count('payouts'),
    groups: await count('partner_groups'),
    ruleVersions: await count('reward_rules'),
    campaignRates: await count('campaign_rates'),
    auditLog: await count('audit_log'),
    webhookEndpoints: await count('webhook_endpoints'),
  };
}

describe(`malformed requests to every function (seed ${SEED})`, () => {
  it(`answers ${BODY_COUNT} malformed bodies with 4xx, never 5xx, and stores nothing`, async () => {
    const random = createRandom(SEED);
    const before = await storedCounts();
    const failures: string[] = [];
    const answered = new Map<string, number>();
    const cookies: Record<Session, string | undefined> = {
      'signed out': undefined,
      affiliate: affiliate.cookie,
      operator: operator.cookie,
    };
    for (let index = 0; index < BODY_COUNT; index++) {
      const definition = callables[index % callables.length]!;
      // Each function in turn under each session: signed in, validation (not the session check) answers.
      const session = SESSIONS[Math.floor(index / callables.length) % SESSIONS.length]!;
      const templates = TEMPLATES[definition.name];
      const template = templates ? random.pick(templates) : undefined;
      const draw = random.next();
      const fuzz =
        draw < 0.35
          ? hostileCase(random, template)
          : template && draw < 0.75
            ? fieldCase(random, template)
            : structuralCase(random, template);
      const headers: Record<string, string> = { origin: TEST_PUBLIC_URL };
      if (fuzz.contentType !== '') headers['content-type'] = fuzz.contentType ?? 'application/json';
      const cookie = cookies[session];
      if (cookie) headers.cookie = cookie;
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/fn/${definition.name}`,
        headers,
        // Each body from its own address: the per-IP limits must not answer in validation's place.
        remoteAddress: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
        payload: fuzz.payload,
      });
      const status = response.statusCode;
      let shaped: boolean;
      try {
        shaped = typeof (response.json() as { error?: { status?: unknown } }).error?.status === 'string';
      } catch {
        shaped = false;
      }
      answered.set(`${definition.name} ${session}`, (answered.get(`${definition.name} ${session}`) ?? 0) + 1);
      if (status < 400 || status >= 500 || !shaped) {
        failures.push(
          `#${index} ${definition.name} (${session}) ${fuzz.label}: HTTP ${status} ${response.body.slice(0, 200)} ← ${fuzz.payload.slice(0, 160)}`,
        );
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    // Every registered function was tried under every session.
    expect([...answered.keys()].sort()).toEqual(
      callables.flatMap((definition) => SESSIONS.map((session) => `${definition.name} ${session}`)).sort(),
    );

    // Nothing was accepted: no account, ticket, visit, code, install, payment method, payout or
    // audited action, and the affiliate is still there.
    expect(await storedCounts()).toEqual(before);
    const settings = await t.app.inject({
      method: 'POST',
      url: '/api/fn/getAffiliateSettings',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, cookie: affiliate.cookie },
      payload: '{"data":null}',
    });
    expect(settings.statusCode).toBe(200);
    // No prototype was polluted.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    // 2,400 requests take about 10 s alone; the limit leaves room for a busy machine, not a figure.
  }, 120_000);
});
