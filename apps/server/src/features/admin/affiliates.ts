import type {
  AdminAffiliateAction,
  AdminListAffiliatesRequest,
  AdminSetAffiliateStatusRequest,
} from '@skanova/shared/admin/schemas';
import type {
  AdminAffiliateProfile,
  AdminAffiliateStatusResult,
  AdminAffiliateSummary,
  AdminPage,
} from '@skanova/shared/admin/responses';
import type { PaymentMethodType } from '@skanova/shared/affiliate/payment-method';
import { isLanguage } from '@skanova/shared/site/constants';
import type { AffiliateStatus } from '@skanova/shared/affiliate/schemas';
import { eq, sql } from 'drizzle-orm';
import type { AppContext, SignedInUser } from '../../context.ts';
import { jsonValue } from '../../db/rows.ts';
import { affiliates } from '../../db/schema/affiliates.ts';
import { authSessions, authUsers } from '../../db/schema/auth.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { applicationDecisionEmail, loadEmailRecipient } from '../../email/affiliate-messages.ts';
import { enqueueEmail } from '../../email/outbox.ts';
import { AFFILIATE_MONEY_COLUMNS, affiliateMoneyJoins } from '../../domain/money.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { affiliateApprovedEvent } from '../../webhooks/events.ts';
import { enqueueWebhookEvent } from '../../webhooks/outbox.ts';
import { Conditions, isoTime, likeLiteral, pageOf, paging } from './paging.ts';

// Affiliates in the operator console (docs/product/rules-and-constants.md#applications-and-disabled-accounts, docs/product/routes-and-screens.md#operator-console): find them, read one, and decide on them.
// An application is approved or refused (the profile's status, e-mailed to the affiliate); an
// account is disabled or enabled (the sign-in account's ban: refused at login, its sessions ended,
// its links no longer earning). Each decision is audit-logged with the operator and the reason.

/**
 * A page of the list with each affiliate's money (domain/money.ts: the same rules as the dashboard).
 * Newest first; profiles created at the same instant of the application's clock come in the order
 * their sign-in accounts were made.
 */
const LIST_SQL = (where: Conditions) => `
WITH page AS (
  SELECT a.id, u.email, a.first_name, a.last_name, a.company_name, a.status,
         coalesce(u.banned, false) AS disabled, a.deleted_at IS NOT NULL AS deleted, a.created_at,
         u.created_at AS account_created_at
  FROM affiliates a LEFT JOIN auth_users u ON u.id = a.user_id
  WHERE ${where}
  ORDER BY a.created_at DESC, u.created_at DESC NULLS LAST, a.id
  LIMIT $${where.next} OFFSET $${where.next + 1}
)
SELECT p.*,
       coalesce((SELECT json_agg(k.code ORDER BY k.created_at, k.id) FROM referral_codes k WHERE k.affiliate_id = p.id), '[]'::json) AS codes,
       ${AFFILIATE_MONEY_COLUMNS}
FROM page p
${affiliateMoneyJoins('p.id')}
ORDER BY p.created_at DESC, p.account_created_at DESC NULLS LAST, p.id`;

interface SummaryRow {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  status: AffiliateStatus;
  disabled: boolean;
  deleted: boolean;
  created_at: Date | string;
  codes: string[] | string;
  qualified: number;
  earnings_cents: number;
  unpaid_cents: number;
}

function listConditions(input: AdminListAffiliatesRequest): Conditions {
  const where = new Conditions();
  switch (input.status) {
    case undefined:
      where.add('a.deleted_at IS NULL');
      break;
    case 'deleted':
      where.add('a.deleted_at IS NOT NULL');
      break;
    case 'disabled':
      where.add('a.deleted_at IS NULL AND coalesce(u.banned, false)');
      break;
    default:
      // A disabled account is listed as disabled, whatever its application's status.
      where.add('a.deleted_at IS NULL AND NOT coalesce(u.banned, false) AND a.status = $?', input.status);
  }
  if (input.query) {
    where.add(
      `(concat_ws(' ', a.first_name, a.last_name) ILIKE $? ESCAPE '\\'
        OR concat_ws(' ', a.last_name, a.first_name) ILIKE $? ESCAPE '\\'
        OR u.email ILIKE $? ESCAPE '\\'
        OR a.company_name ILIKE $? ESCAPE '\\'
        OR EXISTS (SELECT 1 FROM referral_codes k WHERE k.affiliate_id = a.id AND k.code LIKE upper($?) ESCAPE '\\'))`,
      `%${likeLiteral(input.query)}%`,
    );
  }
  return where;
}

export async function listAffiliates(
  app: AppContext,
  input: AdminListAffiliatesRequest,
): Promise<AdminPage<AdminAffiliateSummary>> {
  const where = listConditions(input);
  return pageOf<SummaryRow, AdminAffiliateSummary>(
    app.database.sql,
    {
      select: LIST_SQL(where),
      count: `SELECT count(*)::int AS total FROM affiliates a LEFT JOIN auth_users u ON u.id = a.user_id WHERE ${where}`,
      params: where.params,
    },
    paging(input),
    (row) => ({
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      companyName: row.company_name,
      status: row.status,
      disabled: row.disabled,
      deleted: row.deleted,
      createdAt: isoTime(row.created_at),
      codes: jsonValue(row.codes),
      qualifiedConversions: row.qualified,
      earningsCents: row.earnings_cents,
      unpaidCents: row.unpaid_cents,
    }),
  );
}

interface ProfileRow {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  company_name: string | null;
  website: string | null;
  language: string;
  status: AffiliateStatus;
  disabled: boolean;
  ban_reason: string | null;
  deleted: boolean;
  payment_method: PaymentMethodType | null;
  group_id: string;
  group_name: string;
  created_at: Date | string;
  terms_accepted_at: Date | string | null;
  last_active_at: Date | string | null;
}

const PROFILE_SQL = `
SELECT a.id, u.email, a.first_name, a.last_name, a.phone, a.company_name, a.website, a.language, a.status,
       coalesce(u.banned, false) AS disabled, u.ban_reason, a.deleted_at IS NOT NULL AS deleted,
       (SELECT m.type FROM payment_methods m WHERE m.affiliate_id = a.id) AS payment_method,
       a.group_id, g.name AS group_name, a.created_at, a.terms_accepted_at, a.last_active_at
FROM affiliates a LEFT JOIN auth_users u ON u.id = a.user_id JOIN partner_groups g ON g.id = a.group_id
WHERE a.id = $1`;

async function loadProfile(app: AppContext, affiliateId: string): Promise<AdminAffiliateProfile | null> {
  const { rows } = await app.database.sql.query<ProfileRow>(PROFILE_SQL, [affiliateId]);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    companyName: row.company_name,
    website: row.website,
    language: isLanguage(row.language) ? row.language : 'fr',
    status: row.status,
    disabled: row.disabled,
    disabledReason: row.disabled ? row.ban_reason : null,
    deleted: row.deleted,
    paymentMethod: row.payment_method,
    groupId: row.group_id,
    groupName: row.group_name,
    createdAt: isoTime(row.created_at),
    termsAcceptedAt: isoTime(row.terms_accepted_at),
    lastActiveAt: isoTime(row.last_active_at),
  };
}

/**
 * One affiliate's profile and account state for the console; `not-found` for an unknown id. The
 * function adminGetAffiliate adds the dashboard's statistics and the payouts (features of their own).
 */
export async function getAffiliateProfile(app: AppContext, affiliateId: string): Promise<AdminAffiliateProfile> {
  const affiliate = await loadProfile(app, affiliateId);
  if (!affiliate) throw new CallableError('not-found', 'No such affiliate.', { code: 'not-found' });
  return affiliate;
}

/** What an action makes of the application and of the account. */
const AUDIT_ACTIONS: Record<AdminAffiliateAction, string> = {
  approve: 'affiliate.approved',
  refuse: 'affiliate.refused',
  disable: 'affiliate.disabled',
  enable: 'affiliate.enabled',
};

function noChange(message: string): CallableError {
  return new CallableError('failed-precondition', message, { code: 'no-change' });
}

export async function setAffiliateStatus(
  app: AppContext,
  operator: SignedInUser,
  input: AdminSetAffiliateStatusRequest,
): Promise<AdminAffiliateStatusResult> {
  return inTransaction(app, (tx) => setAffiliateStatusIn(tx, app, operator, input));
}

/** As setAffiliateStatus, in the caller's transaction (a review case's ban decides both in one). */
export async function setAffiliateStatusIn(
  tx: Tx,
  app: AppContext,
  operator: SignedInUser,
  input: AdminSetAffiliateStatusRequest,
): Promise<AdminAffiliateStatusResult> {
  const { affiliateId, action } = input;
  const reason = input.reason ?? null;
  const now = app.now();
  {
    // The profile's lock serialises two operators deciding on the same affiliate.
    const [current] = await tx.db
      .select({
        status: affiliates.status,
        userId: affiliates.userId,
        deleted: sql<boolean>`${affiliates.deletedAt} IS NOT NULL`,
        banned: sql<boolean>`coalesce(${authUsers.banned}, false)`,
      })
      .from(affiliates)
      .leftJoin(authUsers, eq(authUsers.id, affiliates.userId))
      .where(eq(affiliates.id, affiliateId))
      .for('update', { of: affiliates });
    if (!current) throw new CallableError('not-found', 'No such affiliate.', { code: 'not-found' });
    if (current.deleted || current.userId === null) {
      throw new CallableError('failed-precondition', 'This account was deleted.', { code: 'affiliate-deleted' });
    }
    const userId = current.userId;
    let status = current.status;
    let disabled = current.banned;

    switch (action) {
      case 'approve':
        if (status === 'active') throw noChange('This affiliate is already approved.');
        status = 'active';
        break;
      case 'refuse':
        if (status === 'refused') throw noChange('This application is already refused.');
        if (status !== 'pending') {
          throw new CallableError(
            'failed-precondition',
            'Only a pending application can be refused; disable an active account.',
            { code: 'not-pending' },
          );
        }
        status = 'refused';
        break;
      case 'disable':
        if (userId === operator.userId)
          throw new CallableError('failed-precondition', 'You cannot disable your own account.', {
            code: 'cannot-disable-self',
          });
        if (disabled) throw noChange('This account is already disabled.');
        disabled = true;
        break;
      case 'enable':
        if (!disabled) throw noChange('This account is not disabled.');
        disabled = false;
        break;
    }

    if (status !== current.status) {
      await tx.db.update(affiliates).set({ status, updatedAt: now }).where(eq(affiliates.id, affiliateId));
    }
    if (disabled && !current.banned) await banAccount(tx, userId, reason, now);
    if (!disabled && current.banned) await liftBan(tx, userId, now);

    const auditId = await recordAudit(tx, {
      actor: operator.userId,
      action: AUDIT_ACTIONS[action],
      subject: affiliateId,
      details: { reason, previousStatus: current.status, wasDisabled: current.banned },
      at: now,
    });
    if (action === 'approve') await enqueueWebhookEvent(tx, affiliateApprovedEvent(affiliateId, current.status), now);
    if (action === 'approve' || action === 'refuse') {
      const recipient = await loadEmailRecipient(tx, affiliateId);
      if (recipient) {
        const message = applicationDecisionEmail(app, recipient, {
          decision: action === 'approve' ? 'approved' : 'refused',
        });
        // One message per decision: a refused application approved later gets both.
        await enqueueEmail(tx, message, { kind: 'application-decision', dedupeKey: `application-decision:${auditId}` });
      }
    }
    return { affiliateId, status, disabled };
  }
}

/**
 * The auth library's ban (its admin plugin's columns), written in our transaction so that it commits
 * with its audit entry: a banned account is refused at sign-in, and ending its sessions signs it out
 * everywhere at once.
 */
async function banAccount(tx: Tx, userId: string, reason: string | null, now: Date): Promise<void> {
  await tx.db
    .update(authUsers)
    .set({ banned: true, banReason: reason, banExpires: null, updatedAt: now })
    .where(eq(authUsers.id, userId));
  await tx.db.delete(authSessions).where(eq(authSessions.userId, userId));
}

async function liftBan(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx.db
    .update(authUsers)
    .set({ banned: false, banReason: null, banExpires: null, updatedAt: now })
    .where(eq(authUsers.id, userId));
}
