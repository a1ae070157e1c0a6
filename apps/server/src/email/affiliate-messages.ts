import { AFFILIATE_DASHBOARD_PAGE, AFFILIATE_LOGIN_PAGE } from '@skanova/shared/affiliate/constants';
import { formatMoney } from '@skanova/shared/affiliate/money';
import { MINIMUM_PAYOUT_CENTS } from '@skanova/shared/affiliate/programme';
import { isLanguage, type Language } from '@skanova/shared/site/constants';
import type { AppServices } from '../services.ts';
import { affiliateEmail, type EmailRecipient } from './email-texts.ts';
import type { MailMessage } from '../lib/mailer.ts';
import { and, eq, isNull } from 'drizzle-orm';
import { affiliates } from '../db/schema/affiliates.ts';
import { authUsers } from '../db/schema/auth.ts';
import type { Tx } from '../db/transaction.ts';

// The programme's e-mails to affiliates (docs/product/rules-and-constants.md#e-mails): welcome, new commission, payout sent,
// application decision, inactivity warning. Built here and queued by the caller with
// `enqueueEmail`, in the transaction of the event they announce.

type Config = Pick<AppServices, 'config'>;

export interface AffiliateEmailRecipient extends EmailRecipient {
  notifyConversions: boolean;
  notifyPayments: boolean;
}

/**
 * The sign-in address, language, first name and notification choices of an affiliate; null when
 * the profile is deleted or purged, or has no sign-in account left (nobody to write to).
 */
export async function loadEmailRecipient(
  tx: Pick<Tx, 'db'>,
  affiliateId: string,
): Promise<AffiliateEmailRecipient | null> {
  const [row] = await tx.db
    .select({
      email: authUsers.email,
      language: affiliates.language,
      firstName: affiliates.firstName,
      notifyConversions: affiliates.notifyConversions,
      notifyPayments: affiliates.notifyPayments,
    })
    .from(affiliates)
    .innerJoin(authUsers, eq(authUsers.id, affiliates.userId))
    .where(and(eq(affiliates.id, affiliateId), isNull(affiliates.deletedAt), isNull(affiliates.personalDataPurgedAt)));
  if (!row) return null;
  return { ...row, language: isLanguage(row.language) ? row.language : 'fr' };
}

/** A UTC day ("2026-07-15") in the recipient's language: "July 15, 2026" (en), "15 juillet 2026", "1er août 2026" (fr). */
export function formatEmailDay(day: string, lang: Language): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  const text = new Intl.DateTimeFormat(lang, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
  return lang === 'fr' && date.getUTCDate() === 1 ? text.replace(/^1 /, '1er ') : text;
}

/** A page of the site in the recipient's language (the page keeps `?lang=` as the visitor's choice). */
function pageUrl(app: Config, page: string, lang: Language): string {
  return `${app.config.publicUrl}${page}?lang=${lang}`;
}

export function welcomeEmail(app: Config, to: EmailRecipient, input: { status: 'active' | 'pending' }): MailMessage {
  return affiliateEmail(app.config.BRAND_NAME, to, 'welcome', (text) =>
    input.status === 'pending'
      ? {
          paragraphs: [text('pendingIntro'), text('pendingNext')],
          action: { label: text('pendingAction'), url: pageUrl(app, AFFILIATE_LOGIN_PAGE, to.language) },
        }
      : {
          paragraphs: [
            text('intro'),
            text('activeNext'),
            text('payments', { minimum: formatMoney(MINIMUM_PAYOUT_CENTS, to.language) }),
          ],
          action: { label: text('action'), url: pageUrl(app, AFFILIATE_DASHBOARD_PAGE, to.language) },
        },
  );
}

export function conversionEmail(
  app: Config,
  to: EmailRecipient,
  input: {
    code: string;
    commissionCents: number;
    rateTier: 'standard' | 'premium' | 'percentage' | 'campaign';
    holdDays: number;
  },
): MailMessage {
  const amount = formatMoney(input.commissionCents, to.language);
  return affiliateEmail(app.config.BRAND_NAME, to, 'conversion', (text) => ({
    subjectValues: { amount },
    paragraphs: [
      text('intro', { code: input.code }),
      text('commission', { amount, days: input.holdDays }),
      ...(input.rateTier === 'premium' ? [text('premium')] : []),
      text('unsubscribe'),
    ],
    action: { label: text('action'), url: pageUrl(app, AFFILIATE_DASHBOARD_PAGE, to.language) },
  }));
}

export function payoutSentEmail(
  app: Config,
  to: EmailRecipient,
  input: {
    amountCents: number;
    currency: string;
    amountPaidCents: number | null;
    paidCurrency: string | null;
    method: 'paypal' | 'bank_transfer';
    payday: string;
  },
): MailMessage {
  const amount = formatMoney(input.amountCents, to.language, input.currency);
  // A SEPA payout is paid in euros: the e-mail shows both the earned and the paid amount.
  const converted =
    input.amountPaidCents !== null && input.paidCurrency !== null && input.paidCurrency !== input.currency;
  return affiliateEmail(app.config.BRAND_NAME, to, 'payoutSent', (text) => ({
    subjectValues: { amount },
    paragraphs: [
      text('intro', { payday: formatEmailDay(input.payday, to.language) }),
      converted
        ? text('converted', {
            amount,
            paid: formatMoney(input.amountPaidCents ?? 0, to.language, input.paidCurrency ?? input.currency),
          })
        : text('amount', { amount }),
      text(input.method === 'paypal' ? 'paypal' : 'bank'),
    ],
    action: { label: text('action'), url: pageUrl(app, AFFILIATE_DASHBOARD_PAGE, to.language) },
  }));
}

export function applicationDecisionEmail(
  app: Config,
  to: EmailRecipient,
  input: { decision: 'approved' | 'refused' },
): MailMessage {
  if (input.decision === 'refused') {
    return affiliateEmail(app.config.BRAND_NAME, to, 'applicationRefused', (text) => ({
      paragraphs: [text('intro'), text('questions', { support: app.config.SUPPORT_EMAIL })],
    }));
  }
  return affiliateEmail(app.config.BRAND_NAME, to, 'applicationApproved', (text) => ({
    paragraphs: [text('intro'), text('next')],
    action: { label: text('action'), url: pageUrl(app, AFFILIATE_DASHBOARD_PAGE, to.language) },
  }));
}

export function inactivityWarningEmail(app: Config, to: EmailRecipient, input: { deletionDate: string }): MailMessage {
  const date = formatEmailDay(input.deletionDate, to.language);
  return affiliateEmail(app.config.BRAND_NAME, to, 'inactivityWarning', (text) => ({
    subjectValues: { date },
    paragraphs: [text('intro'), text('deletion', { date }), text('keep')],
    action: { label: text('action'), url: pageUrl(app, AFFILIATE_LOGIN_PAGE, to.language) },
  }));
}
