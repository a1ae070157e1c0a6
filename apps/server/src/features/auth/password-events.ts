import type { FastifyRequest } from 'fastify';
import type { AffiliateCaller, AppContext } from '../../context.ts';
import { auditLog } from '../../db/schema/audit-log.ts';
import { affiliateEmail, emailTime, sendInBackground } from '../../email/email-texts.ts';
import { resolveCaller } from './caller.ts';

// What follows a password change made through /api/auth/change-password: the account's reset links
// end (domain/reset-links.ts); for an affiliate, an audit entry and an e-mail to the account, so that
// its owner learns of a change they did not make.

/** Who changes their password: the signed-in account, with its affiliate profile (none for an operator). */
export interface PasswordChanger {
  userId: string;
  affiliate: AffiliateCaller | null;
}

/** The signed-in account behind the request (the session survives the change: other sessions are revoked). */
export async function passwordChanger(ctx: AppContext, request: FastifyRequest): Promise<PasswordChanger | null> {
  const caller = await resolveCaller(ctx, request);
  return caller ? { userId: caller.user.userId, affiliate: await caller.affiliate() } : null;
}

export async function auditPasswordChange(ctx: AppContext, affiliate: AffiliateCaller): Promise<void> {
  const now = ctx.now();
  await ctx.database.db
    .insert(auditLog)
    .values({ actor: affiliate.userId, action: 'password.changed', subject: affiliate.affiliateId, createdAt: now });
  await sendInBackground(
    ctx,
    affiliateEmail(ctx.config.BRAND_NAME, affiliate, 'passwordChanged', (text) => ({
      paragraphs: [text('intro', { date: emailTime(now) }), text('notYou', { support: ctx.config.SUPPORT_EMAIL })],
    })),
    'password-changed',
  );
}
