import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueEmails, outboxIdle } from '../src/email/outbox-worker.ts';
import { FINISHED_EMAIL_DAYS, runRetention } from '../src/jobs/retention.ts';
import { type MailMessage, type Mailer, createMailer } from '../src/lib/mailer.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, callFn, createTestAffiliate } from './helpers/affiliates.ts';

// What a deleted account leaves in the e-mail outbox (a hostile client's report): nothing. Deleting
// an account removes its outbox rows (address and full bodies: welcome, reset link, what it wrote
// to support) and the file transport's `.eml` copies; the deletion confirmation goes in turn once
// sent. The retention job does the same for accounts it anonymises, and removes every sent e-mail,
// rows and copies, FINISHED_EMAIL_DAYS after it went. Runs on PGlite and PostgreSQL.

const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let outboxDir: string;
/** The real file transport (`.eml` files), recording what it is asked to send, and failing on demand. */
const transport = { failing: false, sent: [] as MailMessage[] };
let ipCounter = 0;
const nextIp = () => `10.67.0.${++ipCounter}`;

beforeAll(async () => {
  outboxDir = mkdtempSync(path.join(os.tmpdir(), 'skanova-outbox-'));
  const files = createMailer({ from: 'Skanova <no-reply@example.com>', outboxDir, log: () => {} });
  const mailer: Mailer = {
    ...files,
    async send(message) {
      if (transport.failing) throw new Error('421 Service not available');
      transport.sent.push(message);
      await files.send(message);
    },
  };
  t = await createTestApp({ mailer });
  t.clock.now = new Date();
});
afterAll(async () => {
  await t.close();
  rmSync(outboxDir, { recursive: true, force: true });
});

/** Sends whatever is due and waits for every outcome to be recorded. */
async function flush() {
  await outboxIdle(t.context);
  await deliverDueEmails(t.context);
  await outboxIdle(t.context);
}

async function rowsFor(address: string) {
  const { rows } = await t.database.sql.query<{ kind: string; sent: boolean }>(
    `SELECT kind, sent_at IS NOT NULL AS sent FROM email_outbox
     WHERE lower(to_address) = lower($1) OR lower(reply_to) = lower($1) ORDER BY id`,
    [address],
  );
  return rows;
}

/** The `.eml` files whose text names `address` anywhere (headers or body). */
function copiesNaming(address: string): string[] {
  return readdirSync(outboxDir).filter((file) =>
    readFileSync(path.join(outboxDir, file), 'utf8').toLowerCase().includes(address.toLowerCase()),
  );
}

async function requestReset(email: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
    remoteAddress: nextIp(),
    payload: { email, redirectTo: '/affiliate/reset-password' },
  });
  expect(response.statusCode).toBe(200);
}

async function writeToSupport(email: string) {
  const response = await callFn(
    t,
    'submitContactForm',
    // In capitals: the address is matched whatever its case.
    { name: 'Ada', email: email.toUpperCase(), subject: 'account', message: 'Please tell me about my account.' },
    undefined,
    nextIp(),
  );
  expect(response.status).toBe(200);
}

/**
 * An affiliate with a welcome e-mail and a reset e-mail (outbox rows), and a message to support
 * (e-mailed to the support address with the affiliate as reply-to, outside the outbox): all sent,
 * three `.eml` copies.
 */
async function affiliateWithEmails(): Promise<TestAffiliate> {
  const affiliate = await createTestAffiliate(t);
  await requestReset(affiliate.email);
  await writeToSupport(affiliate.email);
  await flush();
  expect((await rowsFor(affiliate.email)).map((row) => row.kind).sort()).toEqual(['password-reset', 'welcome']);
  // The support notification is sent in the background, not through the outbox.
  await expect.poll(() => copiesNaming(affiliate.email).length).toBe(3);
  return affiliate;
}

describe('deleting an account', () => {
  it('removes its outbox rows and .eml copies, then its confirmation once sent; others keep theirs', async () => {
    const other = await affiliateWithEmails();
    const leaving = await affiliateWithEmails();
    transport.sent.length = 0;

    const response = await callFn(t, 'deleteAffiliateAccount', { password: leaving.password }, leaving.cookie);
    expect(response.status).toBe(200);
    await flush();

    // The confirmation went out…
    expect(transport.sent.map((message) => message.to)).toEqual([leaving.email]);
    // …and nothing of the account's e-mails is left, in the database or on disk.
    expect(await rowsFor(leaving.email)).toEqual([]);
    expect(copiesNaming(leaving.email)).toEqual([]);
    // Another account's e-mails are untouched.
    expect(await rowsFor(other.email)).toHaveLength(2);
    expect(copiesNaming(other.email)).toHaveLength(3);
  });

  it('keeps a confirmation that could not be sent yet, then removes it once sent', async () => {
    const leaving = await affiliateWithEmails();
    transport.failing = true;
    try {
      const response = await callFn(t, 'deleteAffiliateAccount', { password: leaving.password }, leaving.cookie);
      expect(response.status).toBe(200);
      await flush();
      // Only the confirmation waits, unsent; the earlier e-mails and their copies are gone.
      expect(await rowsFor(leaving.email)).toEqual([{ kind: 'account-deleted', sent: false }]);
      expect(copiesNaming(leaving.email)).toEqual([]);
    } finally {
      transport.failing = false;
    }
    transport.sent.length = 0;
    t.clock.advance(DAY_MS); // past the retry delay
    await flush();
    expect(transport.sent.map((message) => message.to)).toEqual([leaving.email]);
    expect(await rowsFor(leaving.email)).toEqual([]);
    expect(copiesNaming(leaving.email)).toEqual([]);
  });

  it('the same when the retention job anonymises an inactive account', async () => {
    const inactive = await affiliateWithEmails();
    const now = t.clock.now.getTime();
    await t.database.sql.query(
      'UPDATE affiliates SET last_active_at = $2, created_at = $2, inactivity_warned_at = $3 WHERE id = $1',
      [inactive.affiliateId, new Date(now - 400 * DAY_MS).toISOString(), new Date(now - 31 * DAY_MS).toISOString()],
    );
    transport.sent.length = 0;
    expect((await runRetention(t.context)).affiliatesAnonymised).toBe(1);
    // Queued in the anonymising transaction: the confirmation alone remains, until it is sent.
    expect(await rowsFor(inactive.email)).toEqual([{ kind: 'account-deleted', sent: false }]);
    expect(copiesNaming(inactive.email)).toEqual([]);
    await flush();
    expect(transport.sent.map((message) => message.to)).toEqual([inactive.email]);
    expect(await rowsFor(inactive.email)).toEqual([]);
    expect(copiesNaming(inactive.email)).toEqual([]);
  });
});

describe(`the retention of sent e-mails (${FINISHED_EMAIL_DAYS} days)`, () => {
  it('removes rows and .eml copies sent more than the period ago, never those still to send', async () => {
    const affiliate = await affiliateWithEmails();
    // A message still to send (SMTP down): retention never takes it.
    transport.failing = true;
    try {
      await requestReset(affiliate.email);
      await outboxIdle(t.context);
    } finally {
      transport.failing = false;
    }
    const sentAt = t.clock.now.getTime();

    t.clock.now = new Date(sentAt + (FINISHED_EMAIL_DAYS - 1) * DAY_MS);
    await runRetention(t.context);
    expect((await rowsFor(affiliate.email)).filter((row) => row.sent)).toHaveLength(2);
    expect(copiesNaming(affiliate.email)).toHaveLength(3);

    t.clock.now = new Date(sentAt + (FINISHED_EMAIL_DAYS + 1) * DAY_MS);
    const result = await runRetention(t.context);
    expect(result.emailsDeleted).toBeGreaterThanOrEqual(2);
    expect(await rowsFor(affiliate.email)).toEqual([{ kind: 'password-reset', sent: false }]);
    expect(copiesNaming(affiliate.email)).toEqual([]);
    expect(readdirSync(outboxDir)).toEqual([]);
  });
});
