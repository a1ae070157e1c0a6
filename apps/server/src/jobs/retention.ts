import { and, asc, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { accountDeletedEmail, accountDeletedKey, anonymiseAffiliate } from '../features/affiliate/account-deletion.ts';
import { affiliates, payouts } from '../db/schema/affiliates.ts';
import { authUsers } from '../db/schema/auth.ts';
import { payoutExports } from '../db/schema/programme.ts';
import { inTransaction, type TransactionQuery, type Tx } from '../db/transaction.ts';
import { recordAudit } from '../domain/audit-log.ts';
import { inactivityWarningEmail, loadEmailRecipient } from '../email/affiliate-messages.ts';
import { enqueueEmail, forgetEmailCopies } from '../email/outbox.ts';
import { isOwedMoney } from '../domain/money.ts';

// The retention rules (docs/product/rules-and-constants.md#retention, docs/product/money.md#amounts-and-periods), run once a UTC day by the scheduler. Every step works in
// small batches (the embedded database keeps answering requests in between), is logged, and is
// safe to run twice: what it changed no longer matches its condition.
//
// What is personal, and how long it stays:
// - Clicks: after 90 days a click not attributed to an install loses every field that describes
//   the visitor (session, visitor key, IP hash, browser and device fields, referrer, query, client
//   time); the row stays (code, time, platform, bot and counted flags) so totals never shrink. Its
//   counted-click key keeps its row but trades the visitor key for the click id (the de-duplication
//   hour is long past). An attributed click is the evidence of a commission: it is cleared with
//   the payment records, after 5 years.
// - Installs: after 90 days the IP hash and device fields go; the attribution stays.
// - Deleted accounts: deletion removes the personal data at once (features/affiliate/account-deletion.ts);
//   this job completes it for any profile deleted without it and marks it `personal_data_purged_at`,
//   within a day. Deletion also removes the account's e-mails (outbox rows and the file transport's
//   copies); its deletion confirmation goes once sent.
// - E-mails: sent or given up, they leave the outbox (rows and `.eml` copies) after
//   FINISHED_EMAIL_DAYS: they hold addresses, names and full bodies.
//   The audit log holds ids, types, amounts and the last 4 IBAN characters, no contact data: it stays.
// - Inactive accounts: no sign-in, session in use or conversion for 12 months and nothing owed to
//   the affiliate: a warning e-mail 30 days before, then anonymised as a deletion is.
// - Payment records are kept 5 years: then a payout keeps its amounts and dates but not its payment
//   details, the export files (names, IBANs, PayPal addresses) are deleted, and RevenueCat events
//   are deleted (their full payload is trimmed after 90 days: id, type, user, outcome and times are
//   enough for idempotency and support). Conversions and adjustments stay: they are the commission
//   history that totals and the premium tier count, and hold nothing about the affiliate.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Visitor data of clicks and installs (docs/product/rules-and-constants.md#retention, privacy policy). */
const VISITOR_DATA_DAYS = 90;
const REVENUECAT_PAYLOAD_DAYS = 90;
/** Payment records (docs/product/rules-and-constants.md#retention). */
const PAYMENT_RECORD_YEARS = 5;
/** Inactivity before an account is anonymised (docs/product/rules-and-constants.md#retention), and the warning before it (docs/product/rules-and-constants.md#retention). */
const INACTIVITY_YEARS = 1;
const INACTIVITY_WARNING_DAYS = 30;
/**
 * Sent (or given up) e-mails stay this long, rows and `.eml` copies: long enough to answer "I did
 * not get the e-mail" (the row shows when it went, or the SMTP server's refusal) and to look into a
 * failed delivery, short because each holds an address and the whole message (reset links, names).
 */
export const FINISHED_EMAIL_DAYS = 7;
/** Rows per statement; accounts per transaction are one each. */
const BATCH = 1000;
const ACCOUNT_BATCH = 100;

export interface RetentionResult {
  clicksCleared: number;
  attributedClicksCleared: number;
  installsCleared: number;
  affiliatesWarned: number;
  affiliatesAnonymised: number;
  affiliatesPurged: number;
  revenuecatPayloadsTrimmed: number;
  revenuecatEventsDeleted: number;
  payoutsTrimmed: number;
  payoutExportsDeleted: number;
  emailsDeleted: number;
}

type RetentionApp = Pick<AppContext, 'config' | 'database' | 'now' | 'log' | 'mailer'>;

export async function runRetention(app: RetentionApp): Promise<RetentionResult> {
  const now = app.now();
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const paymentRecordsBefore = addYears(now, -PAYMENT_RECORD_YEARS);
  const step = async (name: keyof RetentionResult, work: () => Promise<number>) => {
    const count = await work();
    if (count > 0) app.log.info({ step: name, count }, 'retention step done');
    return count;
  };
  // Anonymised inactive accounts are purged by the step after, in the same run.
  const result: RetentionResult = {
    clicksCleared: await step('clicksCleared', () =>
      repeat(() => clearClicks(app, daysAgo(VISITOR_DATA_DAYS), 'not-attributed')),
    ),
    attributedClicksCleared: await step('attributedClicksCleared', () =>
      repeat(() => clearClicks(app, paymentRecordsBefore, 'attributed')),
    ),
    installsCleared: await step('installsCleared', () => repeat(() => clearInstalls(app, daysAgo(VISITOR_DATA_DAYS)))),
    affiliatesWarned: await step('affiliatesWarned', () => warnInactiveAffiliates(app)),
    affiliatesAnonymised: await step('affiliatesAnonymised', () => anonymiseInactiveAffiliates(app)),
    affiliatesPurged: await step('affiliatesPurged', () => purgeDeletedAffiliates(app)),
    revenuecatPayloadsTrimmed: await step('revenuecatPayloadsTrimmed', () =>
      repeat(() => trimRevenueCatPayloads(app, daysAgo(REVENUECAT_PAYLOAD_DAYS))),
    ),
    revenuecatEventsDeleted: await step('revenuecatEventsDeleted', () =>
      repeat(() => deleteRevenueCatEvents(app, paymentRecordsBefore)),
    ),
    payoutsTrimmed: await step('payoutsTrimmed', () => repeat(() => trimPayouts(app, paymentRecordsBefore))),
    payoutExportsDeleted: await step('payoutExportsDeleted', () => deletePayoutExports(app, paymentRecordsBefore)),
    emailsDeleted: await step('emailsDeleted', () =>
      repeat(() => deleteFinishedEmails(app, daysAgo(FINISHED_EMAIL_DAYS))),
    ),
  };
  // The file transport's copies of sent e-mails (none with SMTP) go with the rows: logged, not a
  // figure of the result.
  const copies = (await app.mailer.prune?.(daysAgo(FINISHED_EMAIL_DAYS))) ?? 0;
  if (copies > 0) app.log.info({ step: 'emailCopiesDeleted', count: copies }, 'retention step done');
  return result;
}

/** Runs a batch step until a batch is short; answers the rows changed. */
async function repeat(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const changed = await batch();
    total += changed;
    if (changed < BATCH) return total;
  }
}

function addYears(at: Date, years: number): Date {
  const date = new Date(at);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date;
}

async function clearClicks(app: RetentionApp, before: Date, which: 'attributed' | 'not-attributed'): Promise<number> {
  const { rows } = await app.database.sql.query(
    `WITH batch AS (
       SELECT c.id, c.referral_code_id, c.visitor_key, c.created_at, c.counted
       FROM clicks c
       WHERE c.personal_data_cleared_at IS NULL AND c.created_at < $1
         AND ${which === 'attributed' ? '' : 'NOT'} EXISTS (SELECT 1 FROM installs i WHERE i.click_id = c.id)
       ORDER BY c.created_at
       LIMIT $2
     ),
     counted_keys AS (
       UPDATE click_counts cc SET visitor_key = 'cleared:' || cc.click_id
       FROM batch b
       WHERE b.counted AND cc.referral_code_id = b.referral_code_id AND cc.visitor_key = b.visitor_key
         AND cc.hour_bucket = date_trunc('hour', b.created_at, 'UTC') AND cc.click_id = b.id
     )
     UPDATE clicks c
     SET session_id = NULL, visitor_key = NULL, ip_hash = NULL, user_agent = NULL, language = NULL, timezone = NULL,
         screen_resolution = NULL, color_depth = NULL, device_memory = NULL, hardware_concurrency = NULL,
         referrer = NULL, query = NULL, client_timestamp = NULL, personal_data_cleared_at = $3
     FROM batch b
     WHERE c.id = b.id
     RETURNING 1`,
    [before.toISOString(), BATCH, app.now().toISOString()],
  );
  return rows.length;
}

async function clearInstalls(app: RetentionApp, before: Date): Promise<number> {
  const { rows } = await app.database.sql.query(
    `UPDATE installs SET ip_hash = NULL, device = NULL, personal_data_cleared_at = $3
     WHERE id IN (SELECT id FROM installs WHERE personal_data_cleared_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2)
     RETURNING 1`,
    [before.toISOString(), BATCH, app.now().toISOString()],
  );
  return rows.length;
}

/** When the affiliate last used the account or earned: the latest of activity, signup and conversions. */
const LAST_ACTIVE_SQL = `greatest(coalesce(a.last_active_at, a.created_at), (SELECT max(c.occurred_at) FROM conversions c WHERE c.affiliate_id = a.id))`;

interface InactiveRow {
  id: string;
  user_id: string | null;
  active_at: Date | string;
}

interface CandidateQuery {
  /** Ids after this one, in id order (keyset paging). */
  after?: string;
  limit?: number;
  /** This affiliate only, locked: the transaction that acts on it checks the condition again. */
  lockId?: string;
}

interface InactivityRule {
  activeBefore: Date;
  /** Warned before this time; null: not warned yet. */
  warnedBefore: Date | null;
}

/** Live affiliates last active before the rule's time, and warned (or not) as it says. */
async function inactiveAffiliates(
  tx: TransactionQuery,
  rule: InactivityRule,
  query: CandidateQuery,
): Promise<InactiveRow[]> {
  const { rows } = await tx.query<InactiveRow>(
    `SELECT a.id, a.user_id, ${LAST_ACTIVE_SQL} AS active_at
     FROM affiliates a
     WHERE a.deleted_at IS NULL AND ${LAST_ACTIVE_SQL} < $1
       AND CASE WHEN $2::timestamptz IS NULL THEN a.inactivity_warned_at IS NULL ELSE a.inactivity_warned_at <= $2 END
       AND ($3::text IS NULL OR a.id = $3) AND a.id > $4
     ORDER BY a.id
     LIMIT $5
     ${query.lockId ? 'FOR UPDATE OF a' : ''}`,
    [
      rule.activeBefore.toISOString(),
      rule.warnedBefore?.toISOString() ?? null,
      query.lockId ?? null,
      query.after ?? '',
      query.limit ?? 1,
    ],
  );
  return rows;
}

/**
 * Acts on each affiliate matching `rule`, one transaction each, the profile locked and the rule
 * checked again inside (a sign-in or a conversion may have come in between); answers how many
 * `work` acted on.
 */
async function forEachInactive(
  app: RetentionApp,
  rule: InactivityRule,
  work: (tx: Tx, row: InactiveRow) => Promise<boolean>,
): Promise<number> {
  let acted = 0;
  let after = '';
  for (;;) {
    const batch = await inactiveAffiliates(app.database.sql, rule, { after, limit: ACCOUNT_BATCH });
    for (const candidate of batch) {
      const done = await inTransaction(app, async (tx) => {
        const [row] = await inactiveAffiliates(tx, rule, { lockId: candidate.id });
        return row ? work(tx, row) : false;
      });
      if (done) acted += 1;
    }
    if (batch.length < ACCOUNT_BATCH) return acted;
    after = batch[batch.length - 1]!.id;
  }
}

function inactivityLimit(now: Date): Date {
  return addYears(now, -INACTIVITY_YEARS);
}

/** The warning goes 30 days before the 12 months are over (or now, for an account already past them). */
async function warnInactiveAffiliates(app: RetentionApp): Promise<number> {
  const now = app.now();
  const warningWindow = INACTIVITY_WARNING_DAYS * DAY_MS;
  const rule = { activeBefore: new Date(inactivityLimit(now).getTime() + warningWindow), warnedBefore: null };
  return forEachInactive(app, rule, async (tx, row) => {
    if (await isOwedMoney(tx, row.id, now)) return false;
    const activeAt = new Date(row.active_at);
    const deletionAt = new Date(
      Math.max(addYears(activeAt, INACTIVITY_YEARS).getTime(), now.getTime() + warningWindow),
    );
    const recipient = await loadEmailRecipient(tx, row.id);
    // Without a sign-in address there is nobody to warn: the account cannot be used either.
    if (recipient) {
      await enqueueEmail(
        tx,
        inactivityWarningEmail(app, recipient, { deletionDate: deletionAt.toISOString().slice(0, 10) }),
        {
          kind: 'inactivity-warning',
          // One warning per period of inactivity: coming back and leaving again earns a new one.
          dedupeKey: `inactivity-warning:${row.id}:${activeAt.toISOString()}`,
        },
      );
    }
    await tx.db.update(affiliates).set({ inactivityWarnedAt: now }).where(eq(affiliates.id, row.id));
    return true;
  });
}

/** Anonymised once both the 12 months and the 30 days since the warning are over, if nothing is owed. */
async function anonymiseInactiveAffiliates(app: RetentionApp): Promise<number> {
  const now = app.now();
  const rule = {
    activeBefore: inactivityLimit(now),
    warnedBefore: new Date(now.getTime() - INACTIVITY_WARNING_DAYS * DAY_MS),
  };
  /** Addresses whose e-mail copies go once their accounts' transactions have committed. */
  const addresses: string[] = [];
  const anonymised = await forEachInactive(app, rule, async (tx, row) => {
    if (await isOwedMoney(tx, row.id, now)) return false;
    const recipient = await loadEmailRecipient(tx, row.id);
    if (recipient) addresses.push(recipient.email);
    await anonymiseAffiliate(tx, { affiliateId: row.id, userId: row.user_id, email: recipient?.email ?? null }, now);
    await recordAudit(tx, {
      actor: 'system',
      action: 'affiliate.deleted',
      subject: row.id,
      details: { reason: 'inactive', lastActiveAt: new Date(row.active_at).toISOString() },
      at: now,
    });
    if (recipient)
      await enqueueEmail(tx, accountDeletedEmail(app, recipient), {
        kind: 'account-deleted',
        dedupeKey: accountDeletedKey(row.id),
      });
    return true;
  });
  for (const address of addresses) await forgetEmailCopies(app, address);
  return anonymised;
}

/** Deleted profiles: whatever personal data is left goes, and the profile is marked purged. */
async function purgeDeletedAffiliates(app: RetentionApp): Promise<number> {
  const now = app.now();
  let purged = 0;
  /** Addresses whose e-mail copies go once their profiles' transactions have committed. */
  const addresses: string[] = [];
  for (;;) {
    const rows = await app.database.db
      .select({ id: affiliates.id })
      .from(affiliates)
      .where(and(isNotNull(affiliates.deletedAt), isNull(affiliates.personalDataPurgedAt)))
      .orderBy(asc(affiliates.id))
      .limit(ACCOUNT_BATCH);
    for (const { id } of rows) {
      await inTransaction(app, async (tx) => {
        const [profile] = await tx.db
          .select({ userId: affiliates.userId, email: authUsers.email })
          .from(affiliates)
          .leftJoin(authUsers, eq(authUsers.id, affiliates.userId))
          .where(and(eq(affiliates.id, id), isNull(affiliates.personalDataPurgedAt)))
          .for('update', { of: affiliates });
        if (!profile) return;
        await anonymiseAffiliate(tx, { affiliateId: id, userId: profile.userId, email: profile.email }, now);
        await tx.db.update(affiliates).set({ personalDataPurgedAt: now }).where(eq(affiliates.id, id));
        purged += 1;
        if (profile.email) addresses.push(profile.email);
      });
    }
    for (const address of addresses.splice(0)) await forgetEmailCopies(app, address);
    if (rows.length < ACCOUNT_BATCH) return purged;
  }
}

async function trimRevenueCatPayloads(app: RetentionApp, before: Date): Promise<number> {
  const { rows } = await app.database.sql.query(
    `UPDATE revenuecat_events SET payload = '{}'::jsonb
     WHERE event_id IN (SELECT event_id FROM revenuecat_events WHERE payload <> '{}'::jsonb AND received_at < $1 ORDER BY received_at LIMIT $2)
     RETURNING 1`,
    [before.toISOString(), BATCH],
  );
  return rows.length;
}

async function deleteRevenueCatEvents(app: RetentionApp, before: Date): Promise<number> {
  const { rows } = await app.database.sql.query(
    `DELETE FROM revenuecat_events
     WHERE event_id IN (SELECT event_id FROM revenuecat_events WHERE received_at < $1 ORDER BY received_at LIMIT $2)
     RETURNING 1`,
    [before.toISOString(), BATCH],
  );
  return rows.length;
}

/** A payout older than 5 years keeps its amounts, dates and reference; its payment details go. */
async function trimPayouts(app: RetentionApp, before: Date): Promise<number> {
  const { rows } = await app.database.sql.query(
    `UPDATE payouts SET method_snapshot = jsonb_build_object('type', method)
     WHERE id IN (
       SELECT id FROM payouts
       WHERE status <> 'scheduled' AND coalesce(paid_at, failed_at, sent_at, created_at) < $1
         AND method_snapshot <> jsonb_build_object('type', method)
       LIMIT $2)
     RETURNING 1`,
    [before.toISOString(), BATCH],
  );
  return rows.length;
}

/** Export files older than 5 years: their payouts forget them first (the key points at them). */
async function deletePayoutExports(app: RetentionApp, before: Date): Promise<number> {
  return inTransaction(app, async (tx) => {
    const old = tx.db.select({ id: payoutExports.id }).from(payoutExports).where(lt(payoutExports.createdAt, before));
    await tx.db.update(payouts).set({ exportId: null }).where(inArray(payouts.exportId, old));
    const deleted = await tx.db
      .delete(payoutExports)
      .where(lt(payoutExports.createdAt, before))
      .returning({ id: payoutExports.id });
    return deleted.length;
  });
}

async function deleteFinishedEmails(app: RetentionApp, before: Date): Promise<number> {
  const { rows } = await app.database.sql.query(
    `DELETE FROM email_outbox
     WHERE id IN (SELECT id FROM email_outbox
                  WHERE (sent_at IS NOT NULL OR gave_up_at IS NOT NULL) AND coalesce(sent_at, gave_up_at) < $1
                  LIMIT $2)
     RETURNING 1`,
    [before.toISOString(), BATCH],
  );
  return rows.length;
}
