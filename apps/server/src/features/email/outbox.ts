import type { TransactionQuery } from '../affiliates/transaction.ts';
import type { MailMessage } from '../../lib/mailer.ts';

// The e-mail outbox (BRIEF §2): a message is written in the same transaction as the event it
// announces, so it exists exactly when the event does; the outbox worker sends it and retries.

export interface EnqueueOptions {
  /** What the message is (e.g. `welcome`, `conversion`, `payout-sent`), for logs and the console. */
  kind: string;
  /** Optional idempotency key: a second message with the same key is not queued. */
  dedupeKey?: string;
  /** Earliest sending time (default: now). */
  notBefore?: Date;
}

/** Queues `message`; with a `dedupeKey` already queued, does nothing. Answers whether it was queued. */
export async function enqueueEmail(tx: TransactionQuery, message: MailMessage, options: EnqueueOptions): Promise<boolean> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO email_outbox (kind, dedupe_key, to_address, subject, text_body, html_body, reply_to, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()))
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
      options.notBefore?.toISOString() ?? null,
    ],
  );
  return rows.length > 0;
}
