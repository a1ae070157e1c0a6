import { createRequire } from 'node:module';
import type { Language } from '@skanova/shared/site/constants';
import { escapeHtml } from '../lib/html.ts';
import { type OutboxApp, sendWithRetries } from './outbox-worker.ts';
import type { MailMessage } from '../lib/mailer.ts';

// E-mails to affiliates, in their language, from the shared `emails` translations. Every message
// has a text part and an HTML part with the same content.

const require = createRequire(import.meta.url);
type Tree = { [key: string]: string | Tree };
const TEXTS: Record<Language, Tree> = {
  fr: require('@skanova/shared/i18n/fr/emails.json') as Tree,
  en: require('@skanova/shared/i18n/en/emails.json') as Tree,
};

/** The `emails` translation at `key`, with `{{name}}` placeholders filled. */
function emailText(lang: Language, key: string, values: Record<string, string | number> = {}): string {
  let node: string | Tree | undefined = TEXTS[lang];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`missing e-mail text ${lang}:${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

export interface EmailContent {
  to: string;
  lang: Language;
  brand: string;
  subject: string;
  /** Recipient's first name, if known. */
  name?: string | null;
  paragraphs: string[];
  action?: { label: string; url: string };
}

/** A complete message: greeting, paragraphs, optional button (with the link in clear), signature. */
function renderEmail(content: EmailContent): MailMessage {
  const { lang, brand } = content;
  const greeting = content.name
    ? emailText(lang, 'greeting', { name: content.name })
    : emailText(lang, 'greetingNoName');
  const signature = emailText(lang, 'signature', { brand });
  const footer = emailText(lang, 'footer', { brand });
  const text = [
    greeting,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    signature,
    '',
    '--',
    footer,
    '',
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${lang}"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f1b3a;line-height:1.5">`,
    `<p>${escapeHtml(greeting)}</p>`,
    ...content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    content.action
      ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;background:#504099;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(content.action.label)}</a></p><p style="font-size:12px;color:#555">${escapeHtml(content.action.url)}</p>`
      : '',
    `<p>${escapeHtml(signature)}</p>`,
    `<hr><p style="font-size:12px;color:#555">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: content.to, subject: content.subject, text, html };
}

/** Who an affiliate e-mail goes to: the address, and the language and first name of the profile. */
export interface EmailRecipient {
  email: string;
  language: Language;
  firstName: string | null;
}

/** The `emails` translation `<key>.<name>` in one language; `{{brand}}` is always filled. */
export type EmailTexts = (name: string, values?: Record<string, string | number>) => string;

/**
 * A message to an affiliate from the translations under `key`: its `subject` (filled with
 * `subjectValues`), then the paragraphs (and button) the caller builds from the same texts,
 * greeting the recipient by first name.
 */
export function affiliateEmail(
  brand: string,
  to: EmailRecipient,
  key: string,
  body: (
    text: EmailTexts,
  ) => Pick<EmailContent, 'paragraphs' | 'action'> & { subjectValues?: Record<string, string | number> },
): MailMessage {
  const text: EmailTexts = (name, values = {}) => emailText(to.language, `${key}.${name}`, { brand, ...values });
  const { subjectValues, ...content } = body(text);
  return renderEmail({
    to: to.email,
    lang: to.language,
    brand,
    name: to.firstName,
    subject: text('subject', subjectValues),
    ...content,
  });
}

/** A time in an e-mail: UTC, to the minute ("2026-11-22 04:36"); the texts say "(UTC)". */
export function emailTime(at: Date): string {
  return at.toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * Sends without making the request wait for SMTP: the message goes through the e-mail outbox, so a
 * failure is retried. Resolves once it is queued; a failure to queue is logged (the action itself
 * already happened), never thrown.
 */
export function sendInBackground(app: OutboxApp, message: MailMessage, kind: string): Promise<void> {
  return sendWithRetries(app, message, kind);
}
