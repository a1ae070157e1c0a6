import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Mailer, MailMessage } from '../../src/lib/mailer.ts';
import type { TestApp } from './app.ts';

// E-mail fixtures: a mailer that fails on demand, and the outbox as tests read it.

/** A mailer that refuses while `failing` is true (SMTP down), then keeps what it is sent. */
export function switchableMailer(options: { failing?: boolean; delayMs?: number } = {}) {
  const state = { failing: options.failing ?? false, attempts: 0, sent: [] as MailMessage[] };
  const mailer: Mailer = {
    async send(message) {
      state.attempts += 1;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (state.failing) throw new Error('421 Service not available');
      state.sent.push(message);
    },
    close() {},
  };
  return { mailer, state };
}

export interface OutboxRow {
  id: string;
  kind: string;
  dedupe_key: string | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  sent_at: Date | null;
  gave_up_at: Date | null;
}

/** The outbox rows (optionally of one kind or to one address), oldest first. */
export async function outboxRows(t: TestApp, filter: { kind?: string; to?: string } = {}): Promise<OutboxRow[]> {
  const { rows } = await t.database.sql.query<OutboxRow>(
    `SELECT id::text, kind, dedupe_key, to_address, subject, text_body, html_body, attempts, next_attempt_at, last_error, sent_at, gave_up_at
     FROM email_outbox WHERE ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR to_address = $2) ORDER BY id`,
    [filter.kind ?? null, filter.to ?? null],
  );
  return rows;
}

/** A local SMTP server that keeps the recipients of what it receives (real processes send to it). */
export async function startSmtpCapture() {
  const recipients: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) recipients.push(rcpt.address);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    recipients,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
