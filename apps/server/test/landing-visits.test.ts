import { TRACKING_ID_COOKIE, VISITOR_SESSION_COOKIE } from '@skanova/shared/site/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHasher } from '../src/lib/secrets.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from './helpers/app.ts';
import { IPHONE_USER_AGENT, createVisit } from './helpers/visits.ts';

// storePreInstallData (docs/product/calls-and-data.md#visit-record, docs/product/calls-and-data.md#server-functions, docs/product/attribution.md#visits-and-counted-clicks): every visit is stored with hashed identifiers;
// a known code counts once per visitor per UTC hour; unknown codes and bots never count.

const HOUR_MS = 3_600_000;
const IPHONE = IPHONE_USER_AGENT;
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const KNOWN_CODE = 'K7M2QX4P';
const IP = '203.0.113.7';

let sessionCounter = 0;
/** A fresh page-generated session id (what the landing page sends in its fingerprint). */
const newSession = () => `session-${String(++sessionCounter).padStart(4, '0')}-abcdefgh`;

function visitData(overrides: { code?: string | null; sessionId?: string; userAgent?: string } = {}) {
  const data = createVisit({
    code: overrides.code === undefined ? KNOWN_CODE : overrides.code,
    sessionId: overrides.sessionId ?? newSession(),
    userAgent: overrides.userAgent ?? IPHONE,
    timestamp: '2026-11-22T10:15:00.000Z',
    query: { utm_source: 'instagram' },
  });
  // A referral visit without a code still came through a /ref/… link.
  return { ...data, deeplink: { ...data.deeplink, type: 'ref' } };
}

interface VisitOptions {
  ip?: string;
  userAgent?: string | null;
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
}

function post(t: TestApp, body: string, options: VisitOptions = {}) {
  const userAgent = options.userAgent === undefined ? IPHONE : options.userAgent;
  const cookie = Object.entries(options.cookies ?? {})
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return t.app.inject({
    method: 'POST',
    url: '/api/fn/storePreInstallData',
    remoteAddress: options.ip ?? IP,
    headers: {
      'content-type': 'application/json',
      origin: TEST_PUBLIC_URL,
      // light-my-request sends its own user agent unless told otherwise; null sends none.
      'user-agent': userAgent ?? '',
      ...(cookie ? { cookie } : {}),
      ...options.headers,
    },
    payload: body,
  });
}

function visit(t: TestApp, data: unknown, options: VisitOptions = {}) {
  return post(t, JSON.stringify({ data }), options);
}

async function visitRows(t: TestApp, where = 'TRUE', params: unknown[] = []) {
  const { rows } = await t.database.sql.query<Record<string, unknown>>(
    `SELECT * FROM clicks WHERE ${where} ORDER BY id`,
    params,
  );
  return rows;
}

/** The code's counted clicks as the dashboard reads them (referral_code_click_totals). */
async function countedTotal(t: TestApp, code: string) {
  const { rows } = await t.database.sql.query<{ n: number }>(
    `SELECT coalesce((SELECT c.counted_clicks::int FROM referral_code_click_totals c WHERE c.referral_code_id = rc.id), 0) AS n
     FROM referral_codes rc WHERE rc.code = $1`,
    [code],
  );
  return rows[0]?.n;
}

async function countedFor(t: TestApp, code: string) {
  const { rows } = await t.database.sql.query<{ counted: number; total: number }>(
    `SELECT count(*) FILTER (WHERE counted)::int AS counted, count(*)::int AS total FROM clicks WHERE code = $1`,
    [code],
  );
  const { rows: keys } = await t.database.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM click_counts cc JOIN referral_codes rc ON rc.id = cc.referral_code_id WHERE rc.code = $1`,
    [code],
  );
  // The counted flag, the de-duplication keys and the code's total (what the dashboard shows) always agree.
  expect(keys[0]?.n).toBe(rows[0]?.counted);
  expect(await countedTotal(t, code)).toBe(rows[0]?.counted);
  return rows[0] ?? { counted: 0, total: 0 };
}

let codeCounter = 0;
async function createCode(t: TestApp): Promise<string> {
  const code = `TESTC${String(++codeCounter).padStart(3, '0')}`;
  await t.database.sql.query(
    `WITH owner AS (INSERT INTO affiliates (id) VALUES ('affiliate-1') ON CONFLICT DO NOTHING) INSERT INTO referral_codes (code, affiliate_id) VALUES ($1, 'affiliate-1')`,
    [code],
  );
  return code;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_CLICKS_DISABLED: 'true' } });
  await t.database.sql.query(
    `WITH owner AS (INSERT INTO affiliates (id) VALUES ('affiliate-1') ON CONFLICT DO NOTHING) INSERT INTO referral_codes (code, affiliate_id) VALUES ($1, 'affiliate-1')`,
    [KNOWN_CODE],
  );
});
afterAll(() => t.close());

describe('recording a visit', () => {
  it('answers a tracking id, sets both cookies and stores the visit with the IP hashed', async () => {
    const data = visitData();
    const response = await visit(t, data);
    expect(response.statusCode).toBe(200);
    const { trackingId } = response.json().result as { trackingId: string };
    expect(trackingId).toMatch(/^[A-Za-z0-9_-]{22,}$/); // ≥ 128 bits, URL-safe

    const setCookies = [response.headers['set-cookie']].flat().map(String);
    const tracking = setCookies.find((c) => c.startsWith(`${TRACKING_ID_COOKIE}=`));
    const session = setCookies.find((c) => c.startsWith(`${VISITOR_SESSION_COOKIE}=`));
    expect(tracking).toBe(`${TRACKING_ID_COOKIE}=${trackingId}; Max-Age=7776000; Path=/; SameSite=Lax`);
    expect(session).toBe(
      `${VISITOR_SESSION_COOKIE}=${data.fingerprint.sessionId}; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax`,
    );

    const rows = await visitRows(t, 'tracking_id = $1', [trackingId]);
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    const hash = createHasher(t.config.IP_HASH_SECRET as string);
    expect(row).toMatchObject({
      type: 'ref',
      code: KNOWN_CODE,
      session_id: data.fingerprint.sessionId,
      visitor_key: hash(`session:${data.fingerprint.sessionId}`),
      ip_hash: hash(IP),
      user_agent: IPHONE,
      language: 'fr-FR',
      timezone: 'Europe/Paris',
      screen_resolution: '390x844',
      platform: 'ios',
      color_depth: 24,
      device_memory: null,
      hardware_concurrency: 6,
      referrer: 'direct',
      path: `/ref/${KNOWN_CODE}`,
      query: { utm_source: 'instagram' },
      is_bot: false,
      counted: true,
    });
    expect(row.referral_code_id).not.toBeNull();
    expect(new Date(row.client_timestamp as string).toISOString()).toBe('2026-11-22T10:15:00.000Z');
    expect(new Date(row.created_at as string).getTime()).toBe(t.clock.now.getTime());
    expect(JSON.stringify(row)).not.toContain(IP);
  });

  it('keeps the session of the cookie and does not set it again', async () => {
    const cookieSession = 'cookie-session-0123456789';
    const response = await visit(t, visitData({ sessionId: 'page-session-0123456789' }), {
      cookies: { [VISITOR_SESSION_COOKIE]: cookieSession },
    });
    expect(response.statusCode).toBe(200);
    const names = [response.headers['set-cookie']].flat().map((c) => String(c).split('=')[0]);
    expect(names).toEqual([TRACKING_ID_COOKIE]);
    const [row] = await visitRows(t, 'tracking_id = $1', [response.json().result.trackingId]);
    expect(row?.session_id).toBe(cookieSession);
  });

  it('issues a session id of its own when neither the cookie nor the page has a usable one', async () => {
    const response = await visit(t, visitData({ sessionId: '' }), { cookies: { [VISITOR_SESSION_COOKIE]: 'x' } });
    expect(response.statusCode).toBe(200);
    const session = response.cookies.find((c) => c.name === VISITOR_SESSION_COOKIE);
    expect(session?.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const [row] = await visitRows(t, 'tracking_id = $1', [response.json().result.trackingId]);
    expect(row?.session_id).toBeNull();
  });

  it('gives every visit its own tracking id', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => visit(t, visitData()).then((r) => r.json().result.trackingId)),
    );
    expect(new Set(ids).size).toBe(20);
  });
});

describe('over HTTPS', () => {
  // A fresh app takes a while to migrate on PGlite: it is built in a hook, whose time limit is longer.
  let https: TestApp;
  beforeAll(async () => {
    https = await createTestApp({ env: { PUBLIC_URL: 'https://www.example.com' } });
  });
  afterAll(() => https.close());

  it('marks the cookies Secure', async () => {
    const response = await https.app.inject({
      method: 'POST',
      url: '/api/fn/storePreInstallData',
      headers: { 'content-type': 'application/json', origin: 'https://www.example.com', 'user-agent': IPHONE },
      payload: { data: visitData() },
    });
    expect(response.statusCode).toBe(200);
    const cookies = [response.headers['set-cookie']].flat().map(String);
    expect(cookies).toHaveLength(2);
    for (const cookie of cookies) expect(cookie).toContain('; Secure');
  });
});

describe('malformed requests', () => {
  const valid = visitData();
  const withFingerprint = (patch: Record<string, unknown>) => ({
    ...valid,
    fingerprint: { ...valid.fingerprint, ...patch },
  });
  const withoutFingerprint = (field: string) => {
    const fingerprint: Record<string, unknown> = { ...valid.fingerprint };
    delete fingerprint[field];
    return { ...valid, fingerprint };
  };
  const cases: [string, unknown][] = [
    ['data null', null],
    ['data a string', 'hello'],
    ['data an array', [valid]],
    ['empty data', {}],
    ['missing fingerprint', { ...valid, fingerprint: undefined }],
    ['missing deeplink', { ...valid, deeplink: undefined }],
    ['missing path', { ...valid, path: undefined }],
    ['missing query', { ...valid, query: undefined }],
    ['missing userAgent', withoutFingerprint('userAgent')],
    ['missing sessionId', withoutFingerprint('sessionId')],
    ['missing timestamp', withoutFingerprint('timestamp')],
    ['platform not in the enum', withFingerprint({ platform: 'windows' })],
    ['platform of the wrong case', withFingerprint({ platform: 'IOS' })],
    ['colorDepth a string', withFingerprint({ colorDepth: '24' })],
    ['colorDepth a fraction', withFingerprint({ colorDepth: 24.5 })],
    ['hardwareConcurrency negative', withFingerprint({ hardwareConcurrency: -1 })],
    ['deviceMemory huge', withFingerprint({ deviceMemory: 1e12 })],
    ['userAgent a number', withFingerprint({ userAgent: 42 })],
    ['userAgent oversize', withFingerprint({ userAgent: 'a'.repeat(1025) })],
    ['referrer oversize', withFingerprint({ referrer: 'r'.repeat(2049) })],
    ['userAgent with a NUL character', withFingerprint({ userAgent: 'Mozilla\u0000' })],
    ['timestamp not a date', withFingerprint({ timestamp: 'yesterday' })],
    ['timestamp impossible', withFingerprint({ timestamp: '2026-02-30T10:00:00Z' })],
    ['timestamp in year zero', withFingerprint({ timestamp: '0000-01-01T00:00:00Z' })],
    ['timestamp a number', withFingerprint({ timestamp: 1_790_000_000_000 })],
    ['deeplink type unknown', { ...valid, deeplink: { ...valid.deeplink, type: 'promo' } }],
    ['deeplink code a number', { ...valid, deeplink: { ...valid.deeplink, code: 1234 } }],
    ['deeplink code oversize', { ...valid, deeplink: { ...valid.deeplink, code: 'C'.repeat(65) } }],
    ['deeplink code with a NUL character', { ...valid, deeplink: { ...valid.deeplink, code: 'AB\u0000CD' } }],
    ['path oversize', { ...valid, path: `/${'p'.repeat(2048)}` }],
    ['path an object', { ...valid, path: { a: 1 } }],
    ['query with a number', { ...valid, query: { ref: 5 } }],
    ['query with an array', { ...valid, query: { ref: ['A', 'B'] } }],
    ['query with null', { ...valid, query: { ref: null } }],
    ['query an array', { ...valid, query: ['ref'] }],
    ['query value oversize', { ...valid, query: { ref: 'q'.repeat(513) } }],
    [
      'query with too many keys',
      { ...valid, query: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v'])) },
    ],
    ['query value with a NUL character', { ...valid, query: { ref: 'a\u0000' } }],
  ];

  it.each(cases)('refuses %s with invalid-argument', async (_name, data) => {
    const response = await visit(t, data);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.status).toBe('INVALID_ARGUMENT');
  });

  const rawBodies: [string, string, Record<string, string>?][] = [
    ['invalid JSON', '{"data": {'],
    ['an empty body', ''],
    ['an array body', JSON.stringify([{ data: valid }])],
    ['a body without data', JSON.stringify({ fingerprint: valid.fingerprint })],
    ['JSON null', 'null'],
    ['a JSON string', '"data"'],
    ['a body above the size limit', JSON.stringify({ data: valid, padding: 'x'.repeat(70_000) })],
    ['the wrong content type', JSON.stringify({ data: valid }), { 'content-type': 'text/plain' }],
    ['a form content type', 'data=1', { 'content-type': 'application/x-www-form-urlencoded' }],
  ];

  it.each(rawBodies)('refuses %s with invalid-argument', async (_name, body, headers) => {
    const response = await post(t, body, headers ? { headers } : {});
    expect(response.statusCode).toBe(400);
    expect(response.json().error.status).toBe('INVALID_ARGUMENT');
  });

  it('stores nothing for a refused request', async () => {
    const before = (await visitRows(t)).length;
    for (const [, data] of cases) await visit(t, data);
    for (const [, body, headers] of rawBodies) await post(t, body, headers ? { headers } : {});
    expect((await visitRows(t)).length).toBe(before);
  });
});

describe('click counting', () => {
  it('records an unknown code for nobody', async () => {
    const response = await visit(t, visitData({ code: 'nosuchcode' }));
    expect(response.statusCode).toBe(200);
    const [row] = await visitRows(t, 'tracking_id = $1', [response.json().result.trackingId]);
    expect(row).toMatchObject({ code: 'NOSUCHCODE', referral_code_id: null, counted: false });
  });

  it('records a plain download visit without a code', async () => {
    const data = { ...visitData({ code: null }), deeplink: { type: 'download', code: null, fullPath: '/download' } };
    const response = await visit(t, data);
    expect(response.statusCode).toBe(200);
    const [row] = await visitRows(t, 'tracking_id = $1', [response.json().result.trackingId]);
    expect(row).toMatchObject({ type: 'download', code: null, referral_code_id: null, counted: false });
  });

  it('counts a visitor once per code per UTC hour', async () => {
    const code = await createCode(t);
    const sessionId = newSession();
    expect((await visit(t, visitData({ code, sessionId }))).statusCode).toBe(200);
    expect((await visit(t, visitData({ code, sessionId }))).statusCode).toBe(200);
    expect(await countedFor(t, code)).toEqual({ counted: 1, total: 2 });

    t.clock.advance(HOUR_MS);
    expect((await visit(t, visitData({ code, sessionId }))).statusCode).toBe(200);
    expect(await countedFor(t, code)).toEqual({ counted: 2, total: 3 });

    // Another visitor in the same hour counts too.
    expect((await visit(t, visitData({ code }))).statusCode).toBe(200);
    expect(await countedFor(t, code)).toEqual({ counted: 3, total: 4 });
  });

  it('counts the same visitor separately for two codes', async () => {
    const [first, second] = [await createCode(t), await createCode(t)];
    const sessionId = newSession();
    await visit(t, visitData({ code: first, sessionId }));
    await visit(t, visitData({ code: second, sessionId }));
    expect(await countedFor(t, first)).toEqual({ counted: 1, total: 1 });
    expect(await countedFor(t, second)).toEqual({ counted: 1, total: 1 });
  });

  it('identifies the visitor by the session cookie before the page session id', async () => {
    const code = await createCode(t);
    const cookies = { [VISITOR_SESSION_COOKIE]: 'cookie-session-for-dedup-1' };
    await visit(t, visitData({ code }), { cookies });
    await visit(t, visitData({ code }), { cookies });
    expect(await countedFor(t, code)).toEqual({ counted: 1, total: 2 });
  });

  it('identifies a visitor without a session by IP and user agent', async () => {
    const code = await createCode(t);
    await visit(t, visitData({ code, sessionId: '' }), { ip: '198.51.100.1' });
    await visit(t, visitData({ code, sessionId: '' }), { ip: '198.51.100.1' });
    expect(await countedFor(t, code)).toEqual({ counted: 1, total: 2 });
    await visit(t, visitData({ code, sessionId: '' }), { ip: '198.51.100.2' });
    await visit(t, visitData({ code, sessionId: '' }), { ip: '198.51.100.1', userAgent: ANDROID });
    expect(await countedFor(t, code)).toEqual({ counted: 3, total: 4 });
  });

  it('matches codes case-insensitively', async () => {
    const code = await createCode(t);
    const sessionId = newSession();
    const response = await visit(t, visitData({ code: code.toLowerCase(), sessionId }));
    const [row] = await visitRows(t, 'tracking_id = $1', [response.json().result.trackingId]);
    expect(row).toMatchObject({ code, counted: true });
    expect(row?.referral_code_id).not.toBeNull();
    // Mixed case is the same code for the de-duplication too.
    await visit(t, visitData({ code: `${code.slice(0, 3).toLowerCase()}${code.slice(3)}`, sessionId }));
    expect(await countedFor(t, code)).toEqual({ counted: 1, total: 2 });
  });
});

describe('bots', () => {
  const botAgents = [
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Twitterbot/1.0',
    'WhatsApp/2.23.20.0',
    'TelegramBot (like TwitterBot)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
    'curl/8.5.0',
  ];

  it.each(botAgents)('records %s as a bot and never counts it', async (userAgent) => {
    const code = await createCode(t);
    const response = await visit(t, visitData({ code, userAgent }), { userAgent });
    expect(response.statusCode).toBe(200);
    const [row] = await visitRows(t, 'tracking_id = $1', [response.json().result.trackingId]);
    expect(row).toMatchObject({ is_bot: true, counted: false, user_agent: userAgent });
    expect(await countedFor(t, code)).toEqual({ counted: 0, total: 1 });
  });

  it('treats a visit as a bot when only the page reports a bot user agent', async () => {
    const code = await createCode(t);
    await visit(t, visitData({ code, userAgent: 'Mozilla/5.0 HeadlessChrome/126.0.0.0' }), { userAgent: IPHONE });
    expect(await countedFor(t, code)).toEqual({ counted: 0, total: 1 });
  });

  it('treats a request without a User-Agent header as a bot', async () => {
    const code = await createCode(t);
    await visit(t, visitData({ code }), { userAgent: null });
    expect(await countedFor(t, code)).toEqual({ counted: 0, total: 1 });
  });

  it('lets a person count after a link previewer fetched the same link', async () => {
    const code = await createCode(t);
    const sessionId = newSession();
    await visit(t, visitData({ code, sessionId }), { userAgent: 'facebookexternalhit/1.1' });
    await visit(t, visitData({ code, sessionId }), { userAgent: ANDROID });
    expect(await countedFor(t, code)).toEqual({ counted: 1, total: 2 });
  });
});

describe('concurrency', () => {
  it('counts 50 concurrent visits of one visitor to one code exactly once', async () => {
    const code = await createCode(t);
    const sessionId = newSession();
    const responses = await Promise.all(Array.from({ length: 50 }, () => visit(t, visitData({ code, sessionId }))));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(await countedFor(t, code)).toEqual({ counted: 1, total: 50 });
  });

  it('stores and counts 200 concurrent distinct visitors', async () => {
    const code = await createCode(t);
    const responses = await Promise.all(Array.from({ length: 200 }, () => visit(t, visitData({ code }))));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(200).fill(200));
    const ids = new Set(responses.map((r) => r.json().result.trackingId as string));
    expect(ids.size).toBe(200);
    const rows = await visitRows(t, 'code = $1', [code]);
    expect(new Set(rows.map((row) => row.tracking_id))).toEqual(ids);
    expect(await countedFor(t, code)).toEqual({ counted: 200, total: 200 });
  });

  it('counts one per visitor when many visitors repeat themselves concurrently', async () => {
    const code = await createCode(t);
    const sessions = Array.from({ length: 20 }, () => newSession());
    const visits = sessions.flatMap((sessionId) => Array.from({ length: 5 }, () => visitData({ code, sessionId })));
    const responses = await Promise.all(visits.map((data) => visit(t, data)));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(await countedFor(t, code)).toEqual({ counted: 20, total: 100 });
  });

  it("keeps every code's total exact when concurrent batches share codes", async () => {
    // Batches in flight together (two connections on PostgreSQL) each update the totals of the codes
    // they hold; visits to four codes in shifting order put the same codes in several batches.
    const codes = [await createCode(t), await createCode(t), await createCode(t), await createCode(t)];
    const visits = Array.from({ length: 240 }, (_, i) => visitData({ code: codes[(i * 7 + (i >> 3)) % codes.length] }));
    const responses = await Promise.all(visits.map((data) => visit(t, data)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(240).fill(200));
    for (const code of codes) expect(await countedFor(t, code)).toEqual({ counted: 60, total: 60 });
  });

  it("takes removed keys off the code's total", async () => {
    const code = await createCode(t);
    await Promise.all(Array.from({ length: 5 }, () => visit(t, visitData({ code }))));
    await t.database.sql.query(
      `DELETE FROM click_counts WHERE click_id IN (SELECT id FROM clicks WHERE code = $1 ORDER BY id LIMIT 2)`,
      [code],
    );
    expect(await countedTotal(t, code)).toBe(3);
  });
});

describe('rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { RATE_LIMIT_CLICKS_PER_MINUTE: '3' } });
  });
  afterAll(() => limited.close());

  it('answers resource-exhausted once an IP exceeds its budget', async () => {
    for (let i = 0; i < 3; i += 1) expect((await visit(limited, visitData())).statusCode).toBe(200);
    const refused = await visit(limited, visitData());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.status).toBe('RESOURCE_EXHAUSTED');
    // Another IP has its own budget.
    expect((await visit(limited, visitData(), { ip: '198.51.100.9' })).statusCode).toBe(200);
  });
});
