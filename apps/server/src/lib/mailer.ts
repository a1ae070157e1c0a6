import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, readdir, unlink } from 'node:fs/promises';
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
  /**
   * Deletes the copies this mailer kept of messages to (or replying to) `address`, answering how
   * many: the file transport's `.eml` files. A mailer that keeps nothing has no `forget`.
   */
  forget?(address: string): Promise<number>;
  /** Deletes the copies written before `before`, answering how many (the retention of sent e-mails). */
  prune?(before: Date): Promise<number>;
}

/** The files the file transport writes: `<milliseconds>-<random>.eml` (nothing else in the folder is touched). */
const COPY_FILE = /^(\d+)-[a-z0-9]+\.eml$/;

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
        // The file name only: the recipient is personal data and stays out of the log.
        options.log(`e-mail written to ${file}`);
      }
    },
    close: () => transport.close(),
    ...(options.smtpUrl
      ? {}
      : {
          forget: (address: string) =>
            removeCopies(options.outboxDir, async (file) => {
              const headers = await readFile(path.join(options.outboxDir, file), 'utf8').then(headerBlock);
              return addressesIn(headers).includes(address.trim().toLowerCase());
            }),
          prune: (before: Date) =>
            removeCopies(options.outboxDir, async (file) => Number(COPY_FILE.exec(file)?.[1]) < before.getTime()),
        }),
  };
}

/** Deletes the copies for which `matches` holds; answers how many. A missing folder holds none. */
async function removeCopies(dir: string, matches: (file: string) => Promise<boolean>): Promise<number> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => COPY_FILE.test(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const file of files) {
    try {
      if (!(await matches(file))) continue;
      await unlink(path.join(dir, file));
      removed += 1;
    } catch (error) {
      // Removed meanwhile (another process, or the other job): nothing left to do.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}

/** The header block of a message (up to the first empty line), folded lines joined. */
function headerBlock(message: string): string {
  const end = message.search(/\r?\n\r?\n/);
  return (end === -1 ? message : message.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
}

/** The lower-case addresses of the To, Cc and Reply-To headers. */
function addressesIn(headers: string): string[] {
  return headers
    .split(/\r?\n/)
    .filter((line) => /^(to|cc|reply-to):/i.test(line))
    .flatMap((line) => line.slice(line.indexOf(':') + 1).match(/[^\s<>,;"]+@[^\s<>,;"]+/g) ?? [])
    .map((address) => address.toLowerCase());
}
