import { pgTable, text } from 'drizzle-orm/pg-core';
import { or, sql } from 'drizzle-orm';
import { emailOutbox } from '../db/schema/programme.ts';
import type { TransactionQuery, Tx } from '../db/transaction.ts';
import type { MailMessage } from '../lib/mailer.ts';
import type { AppServices } from '../services.ts';

// The e-mail outbox (docs/product/rules-and-constants.md#e-mails): a message is written in the same transaction as the event it
// announces, so it exists exactly when the event does; the outbox worker sends it and retries.

export interface EnqueueOptions {
  /** What the message is (e.g. `welcome`, `conversion`, `payout-sent`), for logs and the console. */
  kind: string;
  /** Optional idempotency key: a second message with the same key is not queued. */
  dedupeKey?: string;
  /** Earliest sending time (default: now). */
  notBefore?: Date;
}

/** A row written already claimed by its writer, which sends it at once (see outbox-worker.ts). */
export interface OutboxClaim {
  /** The writer's clock. */
  now: Date;
  /** How long other workers leave the row alone. */
  leaseMs: number;
}

/** Queues `message`; with a `dedupeKey` already queued, does nothing. Answers whether it was queued. */
export async function enqueueEmail(
  tx: TransactionQuery,
  message: MailMessage,
  options: EnqueueOptions,
): Promise<boolean> {
  return (await insertOutboxRow(tx, message, options)) !== null;
}

/**
 * Writes one outbox row; answers its id, or null when its dedupe key is already queued. With a
 * claim, the row counts its first attempt and is due only when the claim's lease ends.
 */
export async function insertOutboxRow(
  tx: TransactionQuery,
  message: MailMessage,
  options: EnqueueOptions,
  claim?: OutboxClaim,
): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO email_outbox (kind, dedupe_key, to_address, subject, text_body, html_body, reply_to, attempts, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
             CASE WHEN $9::timestamptz IS NULL THEN coalesce($10::timestamptz, now())
                  ELSE greatest(now(), $9::timestamptz) + make_interval(secs => $11::double precision) END)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id::text`,
    [
      options.kind,
      options.dedupeKey ?? null,
      message.to,
      message.subject,
      message.text,
      message.html ?? null,
      message.replyTo ?? null,
      claim ? 1 : 0,
      claim?.now.toISOString() ?? null,
      options.notBefore?.toISOString() ?? null,
      claim ? claim.leaseMs / 1000 : 0,
    ],
  );
  return rows[0]?.id ?? null;
}

/**
 * Deletes every message to `address`, or replying to it (what it sent support), sent or still to
 * send: the rows hold the address and the full bodies (welcome, reset links, notifications). Run
 * when the account is deleted, before its deletion confirmation is queued; answers how many.
 */
export async function deleteEmailsOf(tx: Pick<Tx, 'db'>, address: string): Promise<number> {
  const to = address.trim();
  const deleted = await tx.db
    .delete(emailOutbox)
    .where(or(sql`lower(${emailOutbox.toAddress}) = lower(${to})`, sql`lower(${emailOutbox.replyTo}) = lower(${to})`))
    .returning({ id: emailOutbox.id });
  return deleted.length;
}

/** E-mails waiting to be sent (or retried), and given up: the outbox's depth for the metrics. */
export async function outboxDepth(app: Pick<AppServices, 'database'>): Promise<{ pending: number; givenUp: number }> {
  const { rows } = await app.database.sql.query<{ pending: number; given_up: number }>(
    `SELECT count(*) FILTER (WHERE sent_at IS NULL AND gave_up_at IS NULL)::int AS pending,
            count(*) FILTER (WHERE gave_up_at IS NOT NULL)::int AS given_up
     FROM email_outbox`,
  );
  return { pending: rows[0]?.pending ?? 0, givenUp: rows[0]?.given_up ?? 0 };
}

/**
 * Deletes the mailer's own copies of the e-mails to a deleted account's address (the file
 * transport's `.eml` files), after the commit; never throws: the account is deleted already.
 */
export async function forgetEmailCopies(app: Pick<AppServices, 'mailer' | 'log'>, address: string): Promise<void> {
  try {
    await app.mailer.forget?.(address);
  } catch (error) {
    app.log.error({ err: error }, 'copies of the e-mails to a deleted account not deleted');
  }
}

/**
 * `email_outbox` as the auth library's adapter sees it, so that signup can queue its welcome message
 * in the library's transaction (features/affiliate/signup.ts): the adapter insists on writing a
 * record id, and its id is the row's dedupe key; the real key and the sending state keep their
 * database defaults.
 */
export const outboxAuthTable = pgTable('email_outbox', {
  id: text('dedupe_key').primaryKey(),
  kind: text('kind').notNull(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body'),
  replyTo: text('reply_to'),
});

/** The adapter model of `outboxAuthTable` (declared with the auth library's other models). */
export const OUTBOX_AUTH_MODEL = {
  emailOutbox: {
    fields: {
      kind: { type: 'string', required: true },
      toAddress: { type: 'string', required: true },
      subject: { type: 'string', required: true },
      textBody: { type: 'string', required: true },
      htmlBody: { type: 'string', required: false },
      replyTo: { type: 'string', required: false },
    },
  },
} as const;

/** The part of the auth library's adapter that queues a message. */
interface AuthAdapter {
  create<T extends Record<string, unknown>, R = T>(input: {
    model: string;
    data: T;
    forceAllowId?: boolean;
  }): Promise<R>;
}

/** Queues `message` through the auth library's adapter (in its transaction); the dedupe key is required. */
export async function enqueueEmailThroughAuth(
  adapter: AuthAdapter,
  message: MailMessage,
  options: { kind: string; dedupeKey: string },
): Promise<void> {
  await adapter.create({
    model: 'emailOutbox',
    forceAllowId: true,
    data: {
      id: options.dedupeKey,
      kind: options.kind,
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html ?? null,
      replyTo: message.replyTo ?? null,
    },
  });
}
