import { createRequire } from 'node:module';
import type { Language } from '@skanova/shared/constants/site';
import { escapeHtml } from './html.ts';
import type { MailMessage } from './mailer.ts';

// E-mails to affiliates, in their language, from the shared `emails` translations. Every message
// has a text part and an HTML part with the same content.

const require = createRequire(import.meta.url);
type Tree = { [key: string]: string | Tree };
const TEXTS: Record<Language, Tree> = {
  fr: require('@skanova/shared/i18n/fr/emails.json') as Tree,
  en: require('@skanova/shared/i18n/en/emails.json') as Tree,
};

/** The `emails` translation at `key`, with `{{name}}` placeholders filled. */
export function emailText(lang: Language, key: string, values: Record<string, string | number> = {}): string {
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
export function renderEmail(content: EmailContent): MailMessage {
  const { lang, brand } = content;
  const greeting = content.name ? emailText(lang, 'greeting', { name: content.name }) : emailText(lang, 'greetingNoName');
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

/** Sends without making the request wait; a failure is logged (the action itself already happened). */
export function sendInBackground(app: { mailer: { send(message: MailMessage): Promise<void> }; log: { error(obj: object, msg: string): void } }, message: MailMessage, what: string): void {
  app.mailer.send(message).catch((error: unknown) => app.log.error({ err: error, what }, 'e-mail failed'));
}
