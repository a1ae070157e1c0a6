import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.ts';
import type { Database } from '../src/db/client.ts';
import { outboxIdle } from '../src/email/outbox-worker.ts';
import { loggableUrl, redactPersonalData } from '../src/lib/logging.ts';
import { TEST_PUBLIC_URL, memoryMailer, serveTestApp, testConfig } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';
import { WEBHOOK_AUTH, WEBHOOK_PATH } from './helpers/revenuecat.ts';

// The server's log carries no personal data (docs/product/rules-and-constants.md#security, docs/operations-observability.md#logs): requests
// from a client's address with an e-mail address, names, a phone number and an IBAN in their
// bodies — signup, a repeated signup, failed sign-ins, a reset, the contact form, broken and
// refused requests, database errors quoting the values they refused — leave none of it in the
// captured lines (pino JSON, at debug), while every request line still carries its request id.
// Runs on PGlite and PostgreSQL.

const EMAIL = 'camille.durandeau@example.com';
const UNKNOWN_EMAIL = 'nobody.here@example.org';
const FIRST_NAME = 'Camille';
const LAST_NAME = 'Durandeau';
const COMPANY = 'Peau Douce Conseil';
const PHONE = '+33 6 98 76 54 32';
const IBAN = 'FR76 3000 6000 0112 3456 7890 189';
const ACCOUNT_HOLDER = 'Camille Durandeau';
const IPV4 = '203.0.113.42';
const IPV6 = '2001:db8::4242';
const RESET_TOKEN = 'reset-token-value-0123456789';

/** Everything personal the requests carry, as it could appear in a line (IBAN with and without spaces). */
const PERSONAL = [
  EMAIL,
  UNKNOWN_EMAIL,
  FIRST_NAME,
  LAST_NAME,
  COMPANY,
  PHONE,
  IBAN,
  IBAN.replaceAll(' ', ''),
  IPV4,
  IPV6,
  RESET_TOKEN,
];

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  req?: Record<string, unknown>;
  [key: string]: unknown;
}

const raw: string[] = [];
const lines = () => raw.map((line) => JSON.parse(line) as LogLine);
let app: FastifyInstance;
let context: AppContext;
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  ({ app, context } = await serveTestApp(
    database,
    testConfig({ LOG_LEVEL: 'debug', REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH }),
    {
      mailer: memoryMailer().mailer,
      logger: { level: 'debug', stream },
    },
  ));
});
afterAll(async () => {
  await app.close();
  await database.close();
});

let requestCounter = 0;

async function send(options: {
  method?: 'GET' | 'POST';
  url: string;
  ip?: string;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}) {
  const requestId = `log-privacy-${++requestCounter}-abcdef`;
  const response = await app.inject({
    method: options.method ?? 'POST',
    url: options.url,
    remoteAddress: options.ip ?? IPV4,
    headers: {
      origin: TEST_PUBLIC_URL,
      'x-request-id': requestId,
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
      'x-forwarded-for': IPV4,
      ...(options.body !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined
      ? { payload: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
  return { status: response.statusCode, requestId };
}

const signup = {
  email: EMAIL,
  password: 'correct horse battery',
  firstName: FIRST_NAME,
  lastName: LAST_NAME,
  phone: PHONE,
  companyName: COMPANY,
  website: '',
  paymentMethod: 'bank_transfer',
  paymentDetails: { bankName: 'BNP Paribas', bankIban: IBAN, bic: 'BNPAFRPP', accountHolder: ACCOUNT_HOLDER },
  termsAccepted: true,
  language: 'fr',
};

describe('a request from an address with personal data in its body leaves none in the log', () => {
  const requestIds: Record<string, string> = {};

  beforeAll(async () => {
    const first = await send({ url: '/api/fn/createAffiliate', body: { data: signup } });
    expect(first.status).toBe(200);
    // The same address again (already exists), from an IPv6 client.
    expect((await send({ url: '/api/fn/createAffiliate', ip: IPV6, body: { data: signup } })).status).toBe(409);
    for (const email of [EMAIL, UNKNOWN_EMAIL]) {
      const signIn = await send({ url: '/api/auth/sign-in/email', body: { email, password: 'not the password' } });
      expect(signIn.status).toBe(401);
    }
    expect((await send({ url: '/api/auth/request-password-reset', body: { email: EMAIL } })).status).toBe(200);
    const contact = await send({
      url: '/api/fn/submitContactForm',
      ip: IPV6,
      body: {
        data: {
          name: `${FIRST_NAME} ${LAST_NAME}`,
          email: EMAIL,
          subject: 'technical',
          message: `Call me on ${PHONE}, my IBAN is ${IBAN}.`,
          language: 'fr',
        },
      },
    });
    expect(contact.status).toBe(200);
    requestIds.contact = contact.requestId;
    // An address and a token in the path and the query; broken and refused bodies quoting them.
    const lost = await send({ method: 'GET', url: `/api/${EMAIL}/${IPV4}?email=${EMAIL}&token=${RESET_TOKEN}` });
    expect(lost.status).toBe(404);
    expect((await send({ url: '/api/fn/submitContactForm', body: `{"data": {"email": ${EMAIL}` })).status).toBe(400);
    expect((await send({ url: '/api/vitals', contentType: `application/x-${EMAIL}`, body: '{}' })).status).toBe(400);
    const webhook = await send({
      url: WEBHOOK_PATH,
      headers: { authorization: WEBHOOK_AUTH },
      body: { api_version: '1.0', event: { [EMAIL]: IBAN, id: 42 } },
    });
    expect(webhook.status).toBe(400);
    await outboxIdle(context);
  });

  it('no e-mail address, IP address, name, phone number, IBAN or token in any line', () => {
    expect(raw.length).toBeGreaterThan(20);
    const everything = raw.join('\n');
    for (const value of PERSONAL) expect(everything, value).not.toContain(value);
    expect(everything.toLowerCase()).not.toContain(EMAIL.split('@')[0]);
    expect(everything).not.toMatch(/@example\.(com|org)/);
  });

  it('request lines carry the request id, the method and the path, without the address or headers', () => {
    const requestLines = lines().filter((line) => line.msg === 'incoming request' || line.msg === 'request completed');
    expect(requestLines.length).toBeGreaterThanOrEqual(2 * requestCounter);
    for (const line of requestLines) expect(line.reqId).toMatch(/^log-privacy-\d+-abcdef$/);
    for (const line of requestLines.filter((each) => each.msg === 'incoming request')) {
      expect(Object.keys(line.req ?? {}).sort()).toEqual(['method', 'url']);
    }
    const lost = requestLines.find((line) => String(line.req?.url).startsWith('/api/[redacted]'));
    expect(lost?.req?.url).toBe('/api/[redacted]/[redacted]?email&token');
  });

  it("lines logged through the app's services while a request is served carry its id", () => {
    const ticket = lines().find((line) => line.msg === 'support ticket e-mailed');
    expect(ticket?.reqId).toBe(requestIds.contact);
    expect(ticket?.ticketId).toEqual(expect.any(String));
  });

  it('refused requests and failed sign-ins still say why, with their request id', () => {
    const clientErrors = lines().filter((line) => line.msg?.startsWith('client error: '));
    expect(clientErrors.map((line) => line.code)).toEqual([
      'FST_ERR_CTP_INVALID_JSON_BODY',
      'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    ]);
    const signIns = lines().filter(
      (line) => line.msg === 'auth: Invalid password' || line.msg === 'auth: User not found',
    );
    expect(signIns).toHaveLength(2);
    for (const line of [...clientErrors, ...signIns]) expect(line.reqId).toMatch(/^log-privacy-\d+-abcdef$/);
    const malformed = lines().find((line) => line.msg === 'malformed RevenueCat webhook');
    expect(malformed?.reason).toEqual(expect.stringContaining('event.id'));
  });
});

describe('database errors quoting the values they refused', () => {
  async function logged(work: () => Promise<unknown>): Promise<string> {
    const from = raw.length;
    let caught: unknown;
    try {
      await work();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    context.log.error({ err: caught }, 'query failed');
    const line = raw.slice(from).join('\n');
    expect(line).toContain('query failed');
    return line;
  }

  it('a data exception (class 22) keeps its message without the value', async () => {
    const line = await logged(() => database.sql.query('SELECT $1::uuid', [`${FIRST_NAME} ${EMAIL}`]));
    expect(line).toContain('invalid input syntax for type uuid');
    for (const value of [EMAIL, FIRST_NAME]) expect(line).not.toContain(value);
  });

  it('a unique violation loses its detail ("Key (email)=(…) already exists")', async () => {
    await database.sql.withConnection(async (conn) => {
      await conn.query('CREATE TABLE IF NOT EXISTS log_privacy_people (email text UNIQUE)');
      await conn.query('INSERT INTO log_privacy_people (email) VALUES ($1)', [EMAIL]);
    });
    const line = await logged(() => database.sql.query('INSERT INTO log_privacy_people (email) VALUES ($1)', [EMAIL]));
    expect(line).toContain('duplicate key value violates unique constraint');
    expect(line).not.toContain(EMAIL);
    expect(line).not.toContain('"detail"');
  });

  it("a query builder's error loses the parameters it lists", async () => {
    const line = await logged(() => database.db.execute(sql`SELECT ${LAST_NAME}::int + ${EMAIL}::int`));
    expect(line).toContain('Failed query');
    for (const value of [EMAIL, LAST_NAME]) expect(line).not.toContain(value);
  });
});

describe('the masks', () => {
  it('mask e-mail addresses, IPv4 and IPv6 addresses (with ports) and IBANs, and nothing else', () => {
    expect(
      redactPersonalData(
        `to ${EMAIL} from ${IPV4}:443 and [${IPV6}]:8080, ::ffff:10.1.2.3, IBAN ${IBAN} / DE89370400440532013000`,
      ),
    ).toBe('to [redacted] from [redacted] and [[redacted]]:8080, [redacted], IBAN [redacted] / [redacted]');
    const harmless = 'job done at 2026-05-01T10:00:00.000Z in 12.5 ms (v1.2.3, request 0f6e-4b1c, code SUMMER2026)';
    expect(redactPersonalData(harmless)).toBe(harmless);
  });

  it('log a URL by its path and the names of its query parameters', () => {
    expect(loggableUrl('/download?ref=SUMMER2026&lang=fr')).toBe('/download?ref&lang');
    expect(loggableUrl('/affiliate/reset-password?token=abc')).toBe('/affiliate/reset-password?token');
    expect(loggableUrl('/ref/SUMMER2026')).toBe('/ref/SUMMER2026');
    expect(loggableUrl(`/x/${encodeURIComponent(EMAIL)}`)).toBe('/x/[redacted]');
  });
});
