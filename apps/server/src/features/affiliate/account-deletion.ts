import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AffiliateCaller, AppContext } from '../../context.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { affiliateEmail, type EmailRecipient } from '../../email/email-texts.ts';
import type { MailMessage } from '../../lib/mailer.ts';
import { giveBack, take, type LimitRule } from '../../lib/rate-limiter.ts';
import { deleteEmailsOf, enqueueEmail, forgetEmailCopies } from '../../email/outbox.ts';
import { sendQueuedNow } from '../../email/outbox-worker.ts';
import { approvedUnpaidCents } from '../../domain/money.ts';
import { minimumPayouts } from '../../domain/reward-rules.ts';
import { affiliates, paymentMethods, payouts } from '../../db/schema/affiliates.ts';
import { authAccounts, authUsers, authVerifications } from '../../db/schema/auth.ts';
import { referralCodes } from '../../db/schema/landing.ts';
import { supportTickets } from '../../db/schema/support-tickets.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';

// Deleting an affiliate account (docs/product/money.md#disabled-and-deleted-accounts): the password confirms it; it waits while money is
// on its way (a scheduled payout, or an approved balance at least the payout minimum, which would
// otherwise be owed to nobody). Then, in one transaction, the personal data goes (names, phone,
// company, website, payment method, code descriptions, support tickets, the e-mails to the address),
// the sign-in account goes with its sessions, and the anonymised profile stays with its conversions
// and payouts for the 5 years the retention rules require. The retention job anonymises inactive
// accounts the same way. The confirmation e-mail, queued last, is deleted in turn once sent.

const HOUR_SECONDS = 60 * 60;

/** Wrong passwords per account per hour: a stolen session must not become a password oracle. */
function passwordRule(app: AppContext, caller: AffiliateCaller): LimitRule {
  return {
    key: `delete-account:user:${caller.userId}`,
    max: app.config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR,
    windowSeconds: HOUR_SECONDS,
  };
}

async function requirePassword(app: AppContext, caller: AffiliateCaller, password: string): Promise<void> {
  // Counted before the password is checked, in the statement that checks the limit, so attempts sent
  // together cannot all be evaluated; the right password gives its place back (rate-limiter.ts, `take`).
  const attempt = await take(app, passwordRule(app, caller));
  if (!attempt.allowed) {
    throw new CallableError('resource-exhausted', 'Too many attempts. Please try again later.', {
      code: 'too-many-requests',
    });
  }
  const [account] = await app.database.db
    .select({ password: authAccounts.password })
    .from(authAccounts)
    .where(and(eq(authAccounts.userId, caller.userId), eq(authAccounts.providerId, 'credential')));
  const hash = account?.password;
  const context = await app.auth.$context;
  const valid = hash ? await context.password.verify({ hash, password }) : false;
  if (!valid) {
    throw new CallableError('permission-denied', 'The password is not correct.', {
      code: 'wrong-password',
      fields: [{ path: 'password', key: 'dashboard:settings.delete.errors.wrongPassword' }],
    });
  }
  await giveBack(app, attempt);
}

export async function deleteAffiliateAccount(
  app: AppContext,
  caller: AffiliateCaller,
  password: string,
): Promise<void> {
  await requirePassword(app, caller, password);
  const now = app.now();

  await inTransaction(app, async (tx) => {
    // The lock makes the checks below hold until the commit (a payout job locks the row too).
    const profile = await tx.db
      .select({ id: affiliates.id })
      .from(affiliates)
      .where(and(eq(affiliates.id, caller.affiliateId), isNull(affiliates.deletedAt)))
      .for('update');
    if (profile.length === 0)
      throw new CallableError('not-found', 'Your affiliate profile was not found.', { code: 'not-found' });
    const scheduled = await tx.db
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.affiliateId, caller.affiliateId), eq(payouts.status, 'scheduled')))
      .limit(1);
    if (scheduled.length > 0) {
      throw new CallableError(
        'failed-precondition',
        'A payout is scheduled: the account can be deleted once it has been paid.',
        { code: 'payout-scheduled' },
      );
    }
    const balanceCents = await approvedUnpaidCents(tx, caller.affiliateId, now);
    const minimumCents = (await minimumPayouts(tx, [caller.affiliateId], now)).get(caller.affiliateId) ?? 0;
    if (balanceCents > 0 && balanceCents >= minimumCents) {
      throw new CallableError(
        'failed-precondition',
        'Your approved balance will be paid first: the account can be deleted after that payout.',
        {
          code: 'balance-due',
          balanceCents,
          minimumCents,
        },
      );
    }
    await anonymiseAffiliate(tx, { affiliateId: caller.affiliateId, userId: caller.userId, email: caller.email }, now);
    await recordAudit(tx, {
      actor: caller.userId,
      action: 'affiliate.deleted',
      subject: caller.affiliateId,
      details: { balanceCents },
      at: now,
    });
    await enqueueEmail(tx, accountDeletedEmail(app, caller), {
      kind: 'account-deleted',
      dedupeKey: accountDeletedKey(caller.affiliateId),
    });
  });

  await forgetEmailCopies(app, caller.email);
  await sendQueuedNow(app, [accountDeletedKey(caller.affiliateId)]);
}

/**
 * Removes what identifies the affiliate, keeping the anonymised profile (its conversions and payouts
 * stay in the books): names, phone, company, website, payment method, code descriptions (free text),
 * the sign-in account with its sessions and unused reset tokens, and the support tickets filed from
 * its address and the e-mails to it (the address is known only here). Safe to run again on a
 * deleted profile.
 */
export async function anonymiseAffiliate(
  tx: Tx,
  target: { affiliateId: string; userId: string | null; email: string | null },
  now: Date,
): Promise<void> {
  await tx.db
    .update(affiliates)
    .set({
      firstName: null,
      lastName: null,
      phone: null,
      companyName: null,
      website: null,
      // The fraud review's keyed hashes are the person's too (docs/product/review.md#signals).
      emailHash: null,
      signupIpHash: null,
      signupDeviceHash: null,
      deletedAt: sql`coalesce(${affiliates.deletedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(eq(affiliates.id, target.affiliateId));
  await tx.db.delete(paymentMethods).where(eq(paymentMethods.affiliateId, target.affiliateId));
  await tx.db
    .update(referralCodes)
    .set({ description: null })
    .where(and(eq(referralCodes.affiliateId, target.affiliateId), isNotNull(referralCodes.description)));
  if (target.email) {
    await tx.db.delete(supportTickets).where(sql`lower(${supportTickets.email}) = lower(${target.email})`);
    // Its e-mails, sent or not, with their bodies (the caller then forgets the mailer's copies).
    await deleteEmailsOf(tx, target.email);
  }
  if (target.userId) {
    // Unused password-reset tokens name the user: they go too.
    await tx.db.delete(authVerifications).where(eq(authVerifications.value, target.userId));
    // Sessions and the password go with the user (ON DELETE CASCADE); the profile's user_id becomes null.
    await tx.db.delete(authUsers).where(eq(authUsers.id, target.userId));
  }
}

/** Queued with the deletion, to the address the account had (gone from the database once it commits). */
export function accountDeletedEmail(app: Pick<AppContext, 'config'>, to: EmailRecipient): MailMessage {
  return affiliateEmail(app.config.BRAND_NAME, to, 'accountDeleted', (text) => ({
    paragraphs: [text('intro'), text('records')],
  }));
}

export function accountDeletedKey(affiliateId: string): string {
  return `account-deleted:${affiliateId}`;
}
