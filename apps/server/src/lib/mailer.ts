import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Real SMTP when SMTP_URL is set; otherwise each message is written as an .eml file into
 * DATA_DIR/outbox (development), rendered by nodemailer exactly as it would be sent.
 */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  outboxDir: string;
  log: (line: string) => void;
}): Mailer {
  const transport: Transporter = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      if (!options.smtpUrl) {
        mkdirSync(options.outboxDir, { recursive: true });
        const file = path.join(options.outboxDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`);
        writeFileSync(file, (info as unknown as { message: Buffer }).message);
        options.log(`e-mail to ${message.to} written to ${file}`);
      }
    },
    close: () => transport.close(),
  };
}
