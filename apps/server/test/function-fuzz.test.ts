import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callables } from '../src/functions/index.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, createTestAffiliate, signupPayload } from './helpers/affiliates.ts';
import { createVisit } from './helpers/visits.ts';

// Malformed requests to every registered function (BRIEF §6: "bad input never crashes"): broken
// JSON, wrong media types, missing or mistyped data, huge strings, NUL characters, nested junk and
// prototype-pollution keys. Every answer must be a 4xx in the protocol's shape, never a 500, and
// nothing may be stored. The bodies come from a seeded generator: a failure names its seed and
// case number, and the same seed produces the same bodies again.

const SEED = Number(process.env.FUZZ_SEED ?? 20250610);
const BODY_COUNT = 1200;
/** Bodies above the server's limit (64 KiB) are refused before parsing; these stay below it. */
const HUGE_STRING = { min: 6_000, max: 30_000 };

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
 * mistake for a number field, nor a boolean for a boolean. `secret` is text that may legitimately
 * hold a NUL character (a password is hashed, never stored as text).
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

let t: TestApp;
let affiliate: TestAffiliate;

beforeAll(async () => {
  t = await createTestApp();
  affiliate = await createTestAffiliate(t, { password: 'correct horse battery' });
});
afterAll(() => t.close());

async function count(table: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}

describe(`malformed requests to every function (seed ${SEED})`, () => {
  it(`answers ${BODY_COUNT} malformed bodies with 4xx, never 5xx, and stores nothing`, async () => {
    const random = createRandom(SEED);
    const before = {
      users: await count('auth_users'),
      tickets: await count('support_tickets'),
      clicks: await count('clicks'),
      codes: await count('referral_codes'),
    };
    const failures: string[] = [];
    const answered = new Map<string, number>();
    for (let index = 0; index < BODY_COUNT; index++) {
      const definition = callables[index % callables.length]!;
      const templates = TEMPLATES[definition.name];
      const template = templates ? random.pick(templates) : undefined;
      const fuzz = template && random.next() < 0.6 ? fieldCase(random, template) : structuralCase(random, template);
      const headers: Record<string, string> = { origin: TEST_PUBLIC_URL };
      if (fuzz.contentType !== '') headers['content-type'] = fuzz.contentType ?? 'application/json';
      // Signed in for the affiliate functions, so that validation (not the session check) answers.
      if (definition.access === 'affiliate') headers.cookie = affiliate.cookie;
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
      answered.set(definition.name, (answered.get(definition.name) ?? 0) + 1);
      if (status < 400 || status >= 500 || !shaped) {
        failures.push(
          `#${index} ${definition.name} ${fuzz.label}: HTTP ${status} ${response.body.slice(0, 200)} ← ${fuzz.payload.slice(0, 160)}`,
        );
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    // Every registered function was tried.
    expect([...answered.keys()].sort()).toEqual(callables.map((definition) => definition.name).sort());

    // Nothing was accepted: no account, ticket, visit or code, and the affiliate is still there.
    expect({
      users: await count('auth_users'),
      tickets: await count('support_tickets'),
      clicks: await count('clicks'),
      codes: await count('referral_codes'),
    }).toEqual(before);
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
  });
});
