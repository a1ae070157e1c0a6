import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { REVENUECAT_WEBHOOK_PATH } from '../src/http/revenuecat-webhook.ts';
import { TEST_PUBLIC_URL, memoryMailer, serveTestApp, testConfig } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';

// A client's mistake is not ours to debug (a hostile client's report: a 10 MB body was logged at
// warn with a stack trace). Each refused request — body too large, broken JSON, wrong media type —
// logs one line without a stack, read here from the server's own log stream (pino, JSON lines).
// Runs on PGlite and PostgreSQL.

const WEBHOOK_AUTH = 'Bearer client-error-logging-secret';
const TEN_MEGABYTES = 10 * 1024 * 1024;

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  [key: string]: unknown;
}

const lines: string[] = [];
let app: FastifyInstance;
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  ({ app } = await serveTestApp(database, testConfig({ LOG_LEVEL: 'info', REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH }), {
    mailer: memoryMailer().mailer,
    logger: { level: 'info', stream },
  }));
});
afterAll(async () => {
  await app.close();
  await database.close();
});

let requestCounter = 0;

/** Sends the request and answers its status and the log lines it wrote, request logging aside. */
async function logsOf(request: { url: string; contentType: string; payload: string; authorization?: string }) {
  const requestId = `client-error-${++requestCounter}-abcdef`;
  const response = await app.inject({
    method: 'POST',
    url: request.url,
    headers: {
      'content-type': request.contentType,
      origin: TEST_PUBLIC_URL,
      'x-request-id': requestId,
      ...(request.authorization ? { authorization: request.authorization } : {}),
    },
    remoteAddress: `10.69.0.${requestCounter}`,
    payload: request.payload,
  });
  const own = lines
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.reqId === requestId && line.msg !== 'incoming request' && line.msg !== 'request completed');
  return { status: response.statusCode, own };
}

const huge = JSON.stringify({ data: { message: 'x'.repeat(TEN_MEGABYTES) } });
const INFO = 30;
const WARN = 40;

describe('client errors are logged as one line, without a stack', () => {
  it.each([
    ['a 10 MB body to a function', '/api/fn/submitContactForm', 'application/json', huge],
    ['broken JSON to a function', '/api/fn/submitContactForm', 'application/json', '{"data": {'],
    ['a 10 MB body to web vitals', '/api/vitals', 'application/json', huge],
    ['broken JSON to web vitals (as a beacon)', '/api/vitals', 'text/plain', '{"page": '],
    ['a 10 MB body to sign-in', '/api/auth/sign-in/email', 'application/json', huge],
  ])('%s: 400, one info line', async (_label, url, contentType, payload) => {
    const { status, own } = await logsOf({ url, contentType, payload });
    expect(status).toBe(400);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ level: INFO, msg: expect.stringMatching(/^client error: /) });
    expect(JSON.stringify(own[0])).not.toMatch(/"stack"|"err"/);
  });

  it('a wrong media type to a function: answered before any parsing, nothing above info', async () => {
    const { status, own } = await logsOf({
      url: '/api/fn/submitContactForm',
      contentType: 'text/plain',
      payload: '{}',
    });
    expect(status).toBe(400);
    expect(own.filter((line) => line.level > INFO)).toEqual([]);
    expect(JSON.stringify(own)).not.toMatch(/"stack"/);
  });

  it('a 10 MB body to the RevenueCat webhook (the reported case): one warn line, no stack', async () => {
    const { status, own } = await logsOf({
      url: REVENUECAT_WEBHOOK_PATH,
      contentType: 'application/json',
      payload: huge,
      authorization: WEBHOOK_AUTH,
    });
    expect(status).toBe(400);
    expect(own).toHaveLength(1);
    // A warning still: it may be an event RevenueCat sent that will never be applied.
    expect(own[0]).toMatchObject({ level: WARN, msg: expect.stringMatching(/^malformed RevenueCat webhook/) });
    expect(JSON.stringify(own[0])).not.toMatch(/"stack"|"err"/);
  });
});
