import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverDueEmails, LEASE_MS, MAX_ATTEMPTS, outboxIdle, retryDelayMs } from '../src/email/outbox-worker.ts';
import { enqueueEmail, insertOutboxRow } from '../src/email/outbox.ts';
import { sendInBackground } from '../src/email/email-texts.ts';
import type { MailMessage } from '../src/lib/mailer.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { TEST_DB } from './helpers/database.ts';
import { outboxRows, switchableMailer } from './helpers/email.ts';

// The e-mail outbox (docs/product/rules-and-constants.md#e-mails): a queued message is sent once, retried with back-off while the
// mail server fails, given up after MAX_ATTEMPTS, and never sent twice by drains running together.

let counter = 0;
/** The context clock at the start of each test: a little ahead of the database's, which it then leads. */
let NOW: Date;

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  counter += 1;
  return {
    to: `person${counter}@example.com`,
    subject: `Subject ${counter}`,
    text: `Text ${counter}`,
    html: `<p>Text ${counter}</p>`,
    ...overrides,
  };
}

const mail = switchableMailer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());
beforeEach(async () => {
  await outboxIdle(t.context);
  // Each test starts with an empty outbox and a working mail server.
  await t.database.sql.query('DELETE FROM email_outbox');
  NOW = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
  t.clock.now = new Date(NOW);
  mail.state.failing = false;
  mail.state.attempts = 0;
  mail.state.sent.length = 0;
});

describe('deliverDueEmails', () => {
  it('sends a queued message once, with its text and HTML parts, and marks it sent', async () => {
    const queued = message({ replyTo: 'reply@example.com' });
    expect(await enqueueEmail(t.database.sql, queued, { kind: 'test' })).toBe(true);

    expect(await deliverDueEmails(t.context)).toEqual({ sent: 1, failed: 0 });
    expect(mail.state.sent).toEqual([queued]);
    const [row] = await outboxRows(t);
    expect(row).toMatchObject({ kind: 'test', attempts: 1, last_error: null, gave_up_at: null });
    expect(row?.sent_at?.getTime()).toBe(NOW.getTime());

    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 0 });
    expect(mail.state.sent).toHaveLength(1);
  });

  it('queues a message with a dedupe key once', async () => {
    expect(await enqueueEmail(t.database.sql, message(), { kind: 'test', dedupeKey: 'once' })).toBe(true);
    expect(await enqueueEmail(t.database.sql, message(), { kind: 'test', dedupeKey: 'once' })).toBe(false);
    expect(await outboxRows(t)).toHaveLength(1);
  });

  it('waits for notBefore on the context clock', async () => {
    await enqueueEmail(t.database.sql, message(), { kind: 'test', notBefore: new Date(NOW.getTime() + 60 * 60_000) });
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(60 * 60_000);
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 1, failed: 0 });
  });

  it('retries with exponential back-off while the mail server fails, then sends', async () => {
    const queued = message();
    await enqueueEmail(t.database.sql, queued, { kind: 'test' });
    mail.state.failing = true;

    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 1 });
    let [row] = await outboxRows(t);
    expect(row).toMatchObject({
      attempts: 1,
      last_error: '421 Service not available',
      sent_at: null,
      gave_up_at: null,
    });
    expect(row?.next_attempt_at.getTime()).toBe(NOW.getTime() + retryDelayMs(1));

    // Not due before its back-off is over.
    t.clock.advance(retryDelayMs(1) - 1000);
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(1000);
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 1 });
    [row] = await outboxRows(t);
    expect(row?.attempts).toBe(2);
    expect(row?.next_attempt_at.getTime()).toBe(t.clock.now.getTime() + retryDelayMs(2));
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));

    mail.state.failing = false;
    t.clock.advance(retryDelayMs(2));
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 1, failed: 0 });
    expect(mail.state.sent).toEqual([queued]);
    [row] = await outboxRows(t);
    expect(row).toMatchObject({ attempts: 3, last_error: null });
    expect(row?.sent_at).not.toBeNull();
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and never tries again`, async () => {
    await enqueueEmail(t.database.sql, message(), { kind: 'test' });
    mail.state.failing = true;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 1 });
      t.clock.advance(retryDelayMs(attempt));
    }
    const [row] = await outboxRows(t);
    expect(row).toMatchObject({ attempts: MAX_ATTEMPTS, sent_at: null });
    expect(row?.gave_up_at).not.toBeNull();

    mail.state.failing = false;
    t.clock.advance(7 * 24 * 60 * 60_000);
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 0 });
    expect(mail.state.attempts).toBe(MAX_ATTEMPTS);
  });

  it('leaves a claimed message to its sender until the lease is over (a process that died mid-send)', async () => {
    await insertOutboxRow(t.database.sql, message(), { kind: 'test' }, { now: t.clock.now, leaseMs: LEASE_MS });
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(LEASE_MS);
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 1, failed: 0 });
    expect((await outboxRows(t))[0]?.attempts).toBe(2);
  });

  it(`sends each message once when drains run in parallel (${TEST_DB})`, async () => {
    const slow = switchableMailer({ delayMs: 5 });
    const other = await createTestApp({ mailer: slow.mailer });
    try {
      const queued = Array.from({ length: 60 }, () => message());
      for (const item of queued) await enqueueEmail(other.database.sql, item, { kind: 'test' });

      const results = await Promise.all([
        deliverDueEmails(other.context),
        deliverDueEmails(other.context),
        deliverDueEmails(other.context, { limit: 7 }),
        deliverDueEmails(other.context),
      ]);
      expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(60);
      expect(slow.state.attempts).toBe(60);
      expect(slow.state.sent.map((sent) => sent.to).sort()).toEqual(queued.map((item) => item.to).sort());
      // The limit is a limit.
      expect(results[2]?.sent).toBeLessThanOrEqual(7);
    } finally {
      await other.close();
    }
  });
});

describe('sendInBackground', () => {
  it('queues the message and sends it at once, without waiting for SMTP', async () => {
    const queued = message();
    await sendInBackground(t.context, queued, 'test-background');
    // Handed to the mailer before the call resolved.
    expect(mail.state.sent).toEqual([queued]);
    await outboxIdle(t.context);
    const [row] = await outboxRows(t);
    expect(row).toMatchObject({ kind: 'test-background', attempts: 1 });
    expect(row?.sent_at).not.toBeNull();
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 0, failed: 0 });
  });

  it('retries through the outbox when the first attempt fails', async () => {
    mail.state.failing = true;
    await sendInBackground(t.context, message(), 'test-background');
    await outboxIdle(t.context);
    const [row] = await outboxRows(t);
    expect(row).toMatchObject({ attempts: 1, sent_at: null, last_error: '421 Service not available' });

    mail.state.failing = false;
    t.clock.advance(retryDelayMs(1));
    expect(await deliverDueEmails(t.context)).toEqual({ sent: 1, failed: 0 });
    expect(mail.state.sent).toHaveLength(1);
  });
});
