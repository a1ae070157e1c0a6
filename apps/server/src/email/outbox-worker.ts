import type { AppServices } from '../services.ts';
import type { MailMessage } from '../lib/mailer.ts';
import { forgetEmailCopies, insertOutboxRow } from './outbox.ts';

// Sends the e-mail outbox (docs/product/rules-and-constants.md#e-mails). A message is sent once even with several server processes:
//
// - A worker claims due rows in one statement (`FOR UPDATE SKIP LOCKED`), counting the attempt and
//   pushing `next_attempt_at` a lease ahead; no other worker picks a row while its lease runs. It then
//   sends each message outside any transaction (no row lock is held while SMTP answers), and marks
//   it sent, or schedules the next attempt with exponential back-off, or gives up after
//   MAX_ATTEMPTS. Only a process that dies between the SMTP server's acceptance and the mark can
//   make a message go twice (after its lease): at-least-once is the best SMTP allows.
// - A message queued outside a transaction (`sendWithRetries`) is written already claimed by its
//   writer, which sends it at once: the request waits for one INSERT, never for SMTP.
// - Messages queued in a transaction are sent by the next drain (the scheduler's tick), or at once
//   by their writer after its commit (`sendQueuedNow`).
// - `next_attempt_at` defaults to the database's clock while jobs run on the context clock (tests
//   move it): a row is due when either clock has reached it.

export type OutboxApp = Pick<AppServices, 'database' | 'mailer' | 'log' | 'now' | 'metrics'>;

/** Attempts before a message is given up (about four hours of back-off in all). */
export const MAX_ATTEMPTS = 8;
/** Wait before attempt n + 1 is RETRY_BASE_MS × 2^n: 2, 4, 8 … 128 minutes. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 6 * 60 * 60_000;
/** How long a claimed row is left alone: longer than nodemailer's socket timeout (10 minutes). */
export const LEASE_MS = 15 * 60_000;
/** Rows claimed per statement: few, so that the last of them is sent well within its lease. */
const CLAIM_BATCH = 10;
/** Messages one drain sends at most (the next tick continues). */
const DEFAULT_DRAIN_LIMIT = 500;
/** Kept in `last_error` (the SMTP answer is enough to diagnose). */
const ERROR_TEXT_MAX = 1000;
/**
 * Messages to an account that no longer exists (the confirmation of its deletion): once sent, or
 * given up, nothing of them is kept — not the row, not the file transport's copy — instead of
 * waiting for the retention of sent e-mails.
 */
const FORGOTTEN_ONCE_DONE = new Set(['account-deleted']);

interface ClaimedRow {
  id: string;
  kind: string;
  attempts: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  reply_to: string | null;
}

const CLAIM_SQL = `
WITH due AS (
  SELECT id FROM email_outbox
  WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= greatest(now(), $1::timestamptz)
    AND ($4::text[] IS NULL OR dedupe_key = ANY($4::text[]))
  ORDER BY next_attempt_at, id
  LIMIT $2
  FOR UPDATE SKIP LOCKED
)
UPDATE email_outbox o
SET attempts = o.attempts + 1,
    next_attempt_at = greatest(now(), $1::timestamptz) + make_interval(secs => $3::double precision)
FROM due
WHERE o.id = due.id
RETURNING o.id::text AS id, o.kind, o.attempts, o.to_address, o.subject, o.text_body, o.html_body, o.reply_to`;

/** Sends the due messages (at most `limit`); answers how many were sent and how many failed this time. */
export async function deliverDueEmails(
  app: OutboxApp,
  options: { limit?: number } = {},
): Promise<{ sent: number; failed: number }> {
  const limit = options.limit ?? DEFAULT_DRAIN_LIMIT;
  const outcome = { sent: 0, failed: 0 };
  while (outcome.sent + outcome.failed < limit) {
    const batch = Math.min(CLAIM_BATCH, limit - outcome.sent - outcome.failed);
    const rows = await claimDue(app, batch);
    for (const row of rows) {
      if (await deliverClaimed(app, row)) outcome.sent += 1;
      else outcome.failed += 1;
    }
    if (rows.length < batch) break;
  }
  return outcome;
}

async function claimDue(app: OutboxApp, limit: number, dedupeKeys: string[] | null = null): Promise<ClaimedRow[]> {
  const { rows } = await app.database.sql.query<ClaimedRow>(CLAIM_SQL, [
    app.now().toISOString(),
    limit,
    LEASE_MS / 1000,
    dedupeKeys,
  ]);
  return rows;
}

/**
 * Sends the messages queued under `dedupeKeys` at once from this process (call it after the commit
 * that queued them). Resolves once they are handed to the mailer, never waiting for SMTP; never
 * rejects: a message not sent here is sent by the next drain.
 */
export async function sendQueuedNow(app: OutboxApp, dedupeKeys: string[]): Promise<void> {
  let rows: ClaimedRow[];
  try {
    rows = await claimDue(app, dedupeKeys.length, dedupeKeys);
  } catch (error) {
    app.log.error({ err: error }, 'queued e-mail could not be claimed');
    return;
  }
  for (const row of rows) track(app, deliverClaimed(app, row));
}

/**
 * Queues `message` outside any transaction and sends it at once from this process, with the
 * outbox's retries if that fails. Resolves once the message is queued and handed to the mailer
 * (never waiting for SMTP); never rejects: the action it reports has already happened. The whole
 * of it — queueing included — counts as sending for `outboxIdle`, so a message whose row is still
 * being written is waited for like one being delivered.
 */
export function sendWithRetries(app: OutboxApp, message: MailMessage, kind: string): Promise<void> {
  let markQueued: () => void = () => {};
  const queued = new Promise<void>((resolve) => (markQueued = resolve));
  track(
    app,
    (async () => {
      let id: string | null;
      try {
        id = await insertOutboxRow(app.database.sql, message, { kind }, { now: app.now(), leaseMs: LEASE_MS });
      } catch (error) {
        app.log.error({ err: error, kind }, 'e-mail could not be queued');
        return;
      } finally {
        markQueued();
      }
      if (id === null) return;
      await deliverClaimed(app, {
        id,
        kind,
        attempts: 1,
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? null,
        reply_to: message.replyTo ?? null,
      });
    })(),
  );
  return queued;
}

/** Sends one claimed row and records the outcome; answers whether it was sent. */
async function deliverClaimed(app: OutboxApp, row: ClaimedRow): Promise<boolean> {
  try {
    await app.mailer.send(messageOf(row));
  } catch (error) {
    await recordFailure(app, row, error);
    return false;
  }
  app.metrics.emailDelivery(row.kind, 'sent');
  try {
    if (FORGOTTEN_ONCE_DONE.has(row.kind)) await forgetDone(app, row);
    else
      await app.database.sql.query('UPDATE email_outbox SET sent_at = $2, last_error = NULL WHERE id = $1', [
        row.id,
        app.now().toISOString(),
      ]);
  } catch (error) {
    // Sent but not marked: it goes again when its lease ends (rare; see the header).
    app.log.error({ err: error, emailId: row.id, kind: row.kind }, 'e-mail sent but not marked as sent');
  }
  return true;
}

/** Deletes a finished message of a `FORGOTTEN_ONCE_DONE` kind, and the mailer's copies to its address. */
async function forgetDone(app: OutboxApp, row: ClaimedRow): Promise<void> {
  await app.database.sql.query('DELETE FROM email_outbox WHERE id = $1', [row.id]);
  await forgetEmailCopies(app, row.to_address);
}

function messageOf(row: ClaimedRow): MailMessage {
  return {
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    ...(row.html_body !== null ? { html: row.html_body } : {}),
    ...(row.reply_to !== null ? { replyTo: row.reply_to } : {}),
  };
}

/** The wait before the attempt after attempt number `attempts`. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** attempts, RETRY_MAX_MS);
}

async function recordFailure(app: OutboxApp, row: ClaimedRow, error: unknown): Promise<void> {
  const giveUp = row.attempts >= MAX_ATTEMPTS;
  app.metrics.emailDelivery(row.kind, giveUp ? 'given-up' : 'failed');
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_TEXT_MAX);
  const now = app.now().toISOString();
  try {
    if (giveUp && FORGOTTEN_ONCE_DONE.has(row.kind)) await forgetDone(app, row);
    else
      await app.database.sql.query(
        `UPDATE email_outbox
         SET last_error = $2,
             gave_up_at = CASE WHEN $3 THEN $4::timestamptz END,
             next_attempt_at = CASE WHEN $3 THEN next_attempt_at
                                    ELSE greatest(now(), $4::timestamptz) + make_interval(secs => $5::double precision) END
         WHERE id = $1 AND sent_at IS NULL`,
        [row.id, reason, giveUp, now, retryDelayMs(row.attempts) / 1000],
      );
  } catch (recordError) {
    // Unrecorded, the attempt is retried when its lease ends.
    app.log.error({ err: recordError, emailId: row.id }, 'e-mail failure not recorded');
  }
  if (giveUp) app.log.error({ err: error, emailId: row.id, kind: row.kind, attempts: row.attempts }, 'e-mail given up');
  else
    app.log.warn({ err: error, emailId: row.id, kind: row.kind, attempts: row.attempts }, 'e-mail failed, will retry');
}

// The messages this process is sending right after queueing them, per database (one per app), so
// that shutdown and tests can wait for their outcome to be recorded.

const sendingByDatabase = new WeakMap<object, Set<Promise<unknown>>>();

function track(app: Pick<AppServices, 'database'>, work: Promise<unknown>): void {
  let sending = sendingByDatabase.get(app.database);
  if (!sending) {
    sending = new Set();
    sendingByDatabase.set(app.database, sending);
  }
  const set = sending;
  set.add(work);
  void work.finally(() => set.delete(work));
}

/** Resolves when the messages this process started sending have their outcome recorded. */
export async function outboxIdle(app: Pick<AppServices, 'database'>): Promise<void> {
  const sending = sendingByDatabase.get(app.database);
  while (sending && sending.size > 0) await Promise.all(sending);
}
