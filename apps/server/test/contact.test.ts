import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/lib/mailer.ts';
import { createHasher } from '../src/lib/secrets.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from './helpers/app.ts';

// The support contact form's server function (docs/product/routes-and-screens.md#support-page): a ticket is stored, support is e-mailed
// through real SMTP, bad input never reaches the database, and one IP is limited per hour.

const SUPPORT_EMAIL = 'help@support.example';

const validForm = {
  name: 'Jeanne <b>Dupont</b>',
  email: 'jeanne@example.com',
  subject: 'technical',
  message: 'The scan stops at 80 % <script>alert("x")</script> & never ends.',
  language: 'fr',
};

function submit(
  t: TestApp,
  payload: unknown,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/fn/submitContactForm',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, ...options.headers },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

async function tickets(t: TestApp) {
  const { rows } = await t.database.sql.query<Record<string, unknown>>(
    'SELECT * FROM support_tickets ORDER BY created_at',
  );
  return rows;
}

/** A local SMTP server that captures (or refuses) what it is sent. */
async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: ParsedMail[] = [];
  const waiters: (() => void)[] = [];
  let attempts = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      attempts += 1;
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
          for (const wake of waiters.splice(0)) wake();
        },
        (error: Error) => callback(error),
      );
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    attempts: () => attempts,
    /** Resolves once `count` messages have arrived. */
    async waitFor(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The app with the product's real nodemailer transport pointed at a local SMTP server. */
function createSmtpTestApp(smtpUrl: string, env: Record<string, string> = {}) {
  const mailer = createMailer({ smtpUrl, from: 'Skanova <no-reply@skanova.com>', outboxDir: 'unused', log: () => {} });
  return createTestApp({ env: { SMTP_URL: smtpUrl, ...env }, mailer });
}

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('submitContactForm: a valid submission', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createSmtpTestApp(smtp.url, { SUPPORT_EMAIL, RATE_LIMIT_CONTACT_PER_HOUR: '50' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('stores exactly one ticket with a hashed IP and answers its id', async () => {
    const response = await submit(t, { data: validForm }, { remoteAddress: '203.0.113.7' });
    expect(response.statusCode).toBe(200);
    const { ticketId } = response.json().result;
    expect(ticketId).toMatch(/^[0-9a-f-]{36}$/);

    const rows = await tickets(t);
    expect(rows).toHaveLength(1);
    const [ticket] = rows;
    expect(ticket).toMatchObject({
      id: ticketId,
      name: validForm.name,
      email: validForm.email,
      subject: 'technical',
      message: validForm.message,
      language: 'fr',
      status: 'open',
    });
    expect(ticket?.ip_hash).toBe(createHasher(t.config.IP_HASH_SECRET ?? '')('203.0.113.7'));
    expect(JSON.stringify(rows)).not.toContain('203.0.113.7');
  });

  it('e-mails the support address through SMTP, replying to the visitor, with the input escaped in HTML', async () => {
    await smtp.waitFor(1);
    const [mail] = smtp.received;
    const ticketId = (await tickets(t))[0]?.id as string;
    expect(mail?.to).toMatchObject({ value: [{ address: SUPPORT_EMAIL }] });
    expect(mail?.replyTo).toMatchObject({ value: [{ address: validForm.email }] });
    expect(mail?.subject).toBe('[Skanova support] Technical problem — Jeanne <b>Dupont</b>');
    expect(mail?.text).toContain(validForm.message);
    expect(mail?.text).toContain(`Ticket: ${ticketId}`);
    expect(mail?.text).toContain(`E-mail: ${validForm.email}`);
    const html = String(mail?.html);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; never ends.');
    expect(html).toContain('Jeanne &lt;b&gt;Dupont&lt;/b&gt;');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
  });

  it('trims the fields and defaults the language to French', async () => {
    const { language: _language, ...withoutLanguage } = validForm;
    const response = await submit(t, { data: { ...withoutLanguage, name: '  Ana  ', email: ' ana@example.com ' } });
    expect(response.statusCode).toBe(200);
    const { rows } = await t.database.sql.query('SELECT name, email, language FROM support_tickets WHERE id = $1', [
      response.json().result.ticketId,
    ]);
    expect(rows[0]).toEqual({ name: 'Ana', email: 'ana@example.com', language: 'fr' });
    await smtp.waitFor(2);
  });
});

describe('submitContactForm: a mail server that fails', () => {
  let refusing: Awaited<ReturnType<typeof startSmtp>>;
  let refused: TestApp;
  let unreachable: TestApp;
  beforeAll(async () => {
    refusing = await startSmtp({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      },
    });
    refused = await createSmtpTestApp(refusing.url);
    const closed = await startSmtp();
    await closed.close();
    unreachable = await createSmtpTestApp(closed.url);
  });
  afterAll(async () => {
    await refused.close();
    await unreachable.close();
    await refusing.close();
  });

  it('keeps the ticket and answers success when the SMTP server refuses the message', async () => {
    const response = await submit(refused, { data: { ...validForm, language: 'en' } });
    expect(response.statusCode).toBe(200);
    const rows = await tickets(refused);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: response.json().result.ticketId, language: 'en' });
    await until(() => refusing.attempts() === 1);
    expect(refusing.received).toHaveLength(0);
  });

  it('keeps the ticket and answers success when no SMTP server listens', async () => {
    const response = await submit(unreachable, { data: validForm });
    expect(response.statusCode).toBe(200);
    expect(await tickets(unreachable)).toHaveLength(1);
  });
});

describe('submitContactForm: malformed requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_CONTACT_PER_HOUR: '10000' } });
  });
  afterAll(() => t.close());

  const long = (length: number) => 'x'.repeat(length);
  const badBodies: [string, unknown][] = [
    ['no data field', {}],
    ['data null', { data: null }],
    ['data a string', { data: 'hello' }],
    ['data a number', { data: 42 }],
    ['data an array', { data: [validForm] }],
    ['data an empty object', { data: {} }],
    ['body an array', [{ data: validForm }]],
    ['body null', null],
    ['body a string', 'just text'],
    ['name missing', { data: { ...validForm, name: undefined } }],
    ['email missing', { data: { ...validForm, email: undefined } }],
    ['subject missing', { data: { ...validForm, subject: undefined } }],
    ['message missing', { data: { ...validForm, message: undefined } }],
    ['name a number', { data: { ...validForm, name: 42 } }],
    ['email a boolean', { data: { ...validForm, email: true } }],
    ['subject an array', { data: { ...validForm, subject: ['technical'] } }],
    ['message an object', { data: { ...validForm, message: { text: 'hello there' } } }],
    ['language a number', { data: { ...validForm, language: 1 } }],
    ['name too long', { data: { ...validForm, name: long(101) } }],
    ['email too long', { data: { ...validForm, email: `${long(250)}@example.com` } }],
    ['message too long', { data: { ...validForm, message: long(5001) } }],
    ['message too short', { data: { ...validForm, message: 'help' } }],
    ['invalid e-mail', { data: { ...validForm, email: 'not-an-email' } }],
    ['e-mail with a header break', { data: { ...validForm, email: 'a@example.com\r\nBcc: victim@example.com' } }],
    ['unknown subject', { data: { ...validForm, subject: 'billing' } }],
    ['unknown language', { data: { ...validForm, language: 'de' } }],
    ['empty name', { data: { ...validForm, name: '' } }],
    ['blank name', { data: { ...validForm, name: '   ' } }],
    ['empty e-mail', { data: { ...validForm, email: '' } }],
    ['empty subject', { data: { ...validForm, subject: '' } }],
    ['empty message', { data: { ...validForm, message: '' } }],
    ['all fields empty', { data: { name: '', email: '', subject: '', message: '' } }],
    ['payload over 64 KB', { data: { ...validForm, extra: long(70 * 1024) } }],
  ];

  it.each(badBodies)('answers 400 INVALID_ARGUMENT for %s and stores nothing', async (_label, body) => {
    const response = await submit(t, JSON.stringify(body));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.status).toBe('INVALID_ARGUMENT');
    expect(await tickets(t)).toHaveLength(0);
  });

  it('reports the invalid fields with their message keys', async () => {
    const response = await submit(t, { data: { name: '', email: 'nope', subject: 'billing', message: 'short' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues).toEqual([
      { path: 'name', message: 'form.errors.nameRequired' },
      { path: 'email', message: 'form.errors.emailInvalid' },
      { path: 'subject', message: 'form.errors.subjectRequired' },
      { path: 'message', message: 'form.errors.messageTooShort' },
    ]);
  });

  it.each([
    ['invalid JSON text', 'application/json', '{"data": {"name": '],
    ['an empty JSON body', 'application/json', ''],
    ['a text body', 'text/plain', JSON.stringify({ data: validForm })],
    ['a form-encoded body', 'application/x-www-form-urlencoded', 'name=a&email=b'],
    ['a multipart body', 'multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
  ])('answers 400 INVALID_ARGUMENT for %s and stores nothing', async (_label, contentType, payload) => {
    const response = await submit(t, payload, { headers: { 'content-type': contentType } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.status).toBe('INVALID_ARGUMENT');
    expect(await tickets(t)).toHaveLength(0);
  });

  it('accepts the valid form after all of them (nothing else was stored)', async () => {
    const response = await submit(t, { data: validForm });
    expect(response.statusCode).toBe(200);
    expect(await tickets(t)).toHaveLength(1);
  });
});

describe('submitContactForm: rate limit per client IP', () => {
  const LIMIT = 3;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_CONTACT_PER_HOUR: String(LIMIT) } });
  });
  afterAll(() => t.close());

  it(`answers 429 RESOURCE_EXHAUSTED to request ${LIMIT + 1} within the hour and stores nothing for it`, async () => {
    for (let i = 0; i < LIMIT; i += 1) {
      const response = await submit(t, { data: validForm }, { remoteAddress: '198.51.100.1' });
      expect(response.statusCode).toBe(200);
    }
    const limited = await submit(t, { data: validForm }, { remoteAddress: '198.51.100.1' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.status).toBe('RESOURCE_EXHAUSTED');
    expect(await tickets(t)).toHaveLength(LIMIT);
  });

  it('does not limit another IP', async () => {
    const response = await submit(t, { data: validForm }, { remoteAddress: '198.51.100.2' });
    expect(response.statusCode).toBe(200);
    expect(await tickets(t)).toHaveLength(LIMIT + 1);
  });
});
