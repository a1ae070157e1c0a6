import type {
  AdminDecideReviewCaseRequest,
  AdminListReviewCasesRequest,
  AdminReviewCase,
  AdminReviewCaseSummary,
  AdminReviewCommission,
  AdminReviewDecisionResult,
  AdminReviewPolicies,
  AdminReviewSignal,
  AdminSetReviewPolicyRequest,
  ReviewAction,
  ReviewCaseStatus,
  ReviewEvidence,
  ReviewSignalKind,
} from '@skanova/shared/admin/review';
import { REVIEW_SIGNALS } from '@skanova/shared/admin/review';
import type { AdminPage } from '@skanova/shared/admin/responses';
import type { AppContext, SignedInUser } from '../../context.ts';
import { type SqlBigint, centsValue, jsonValue } from '../../db/rows.ts';
import { inTransaction, type TransactionQuery } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { heldCommissionIds, releaseHeldCommissions } from '../../domain/review.ts';
import { reverseConversionIn } from '../../domain/reverse-conversion.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { setAffiliateStatusIn } from './affiliates.ts';
import { isoTime, pageOf, paging } from './paging.ts';

// The review queue in the operators' console (docs/product/review.md#the-review-queue): open cases
// newest first, a case with its signals, evidence and commissions, the three decisions — approve
// (the held commissions are released to where their status puts them), reject (they are reversed),
// ban (they are reversed and the account is disabled with the reason) — each audited in its
// transaction, and each group's policy per signal.

const CASE_COLUMNS = `rc.id::text AS id, rc.affiliate_id, rc.status, rc.opened_at, rc.decided_at, rc.decided_by, rc.reason,
  nullif(concat_ws(' ', a.first_name, a.last_name), '') AS affiliate_name, a.group_id,
  (SELECT count(*)::int FROM review_signals s WHERE s.case_id = rc.id) AS signal_count,
  (SELECT coalesce(array_agg(DISTINCT s.kind), '{}') FROM review_signals s WHERE s.case_id = rc.id) AS kinds,
  (SELECT coalesce(sum(c.commission_cents), 0)::bigint FROM conversions c
    WHERE c.review_case_id = rc.id AND c.review_hold AND c.status <> 'reversed') AS held_cents`;

interface CaseRow {
  id: string;
  affiliate_id: string;
  status: ReviewCaseStatus;
  opened_at: Date | string;
  decided_at: Date | string | null;
  decided_by: string | null;
  reason: string | null;
  affiliate_name: string | null;
  group_id: string;
  signal_count: number;
  kinds: ReviewSignalKind[] | string;
  held_cents: SqlBigint;
}

function kindsOf(value: ReviewSignalKind[] | string): ReviewSignalKind[] {
  const kinds = Array.isArray(value)
    ? value
    : value
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);
  return REVIEW_SIGNALS.filter((kind) => (kinds as string[]).includes(kind));
}

function summaryOf(row: CaseRow): AdminReviewCaseSummary {
  return {
    id: row.id,
    affiliateId: row.affiliate_id,
    affiliateName: row.affiliate_name,
    status: row.status,
    openedAt: isoTime(row.opened_at),
    decidedAt: row.decided_at === null ? null : isoTime(row.decided_at),
    signalCount: row.signal_count,
    kinds: kindsOf(row.kinds),
    heldCents: centsValue(row.held_cents),
  };
}

export async function listReviewCases(
  app: AppContext,
  input: AdminListReviewCasesRequest,
): Promise<AdminPage<AdminReviewCaseSummary>> {
  const where = input.status === 'decided' ? "rc.status <> 'open'" : "rc.status = 'open'";
  const order = input.status === 'decided' ? 'rc.decided_at DESC, rc.id DESC' : 'rc.opened_at DESC, rc.id DESC';
  return pageOf<CaseRow, AdminReviewCaseSummary>(
    app.database.sql,
    {
      select: `SELECT ${CASE_COLUMNS} FROM review_cases rc JOIN affiliates a ON a.id = rc.affiliate_id
               WHERE ${where} ORDER BY ${order} LIMIT $1 OFFSET $2`,
      count: `SELECT count(*)::int AS total FROM review_cases rc WHERE ${where}`,
      params: [],
    },
    paging(input),
    summaryOf,
  );
}

async function loadCase(sql: TransactionQuery, caseId: string, lock = false): Promise<CaseRow> {
  const { rows } = await sql.query<CaseRow>(
    `SELECT ${CASE_COLUMNS} FROM review_cases rc JOIN affiliates a ON a.id = rc.affiliate_id WHERE rc.id = $1
     ${lock ? 'FOR UPDATE OF rc' : ''}`,
    [caseId],
  );
  const row = rows[0];
  if (!row) throw new CallableError('not-found', 'No such review case.', { code: 'not-found' });
  return row;
}

export async function getReviewCase(app: AppContext, caseId: string): Promise<AdminReviewCase> {
  const row = await loadCase(app.database.sql, caseId);
  const { rows: signals } = await app.database.sql.query<{
    id: string;
    kind: ReviewSignalKind;
    action: ReviewAction;
    detected_at: Date | string;
    evidence: ReviewEvidence | string;
  }>(
    `SELECT id::text AS id, kind, action, detected_at, evidence FROM review_signals WHERE case_id = $1
     ORDER BY detected_at DESC, id DESC`,
    [caseId],
  );
  const { rows: commissions } = await app.database.sql.query<{
    id: string;
    code: string | null;
    occurred_at: Date | string;
    commission_cents: SqlBigint;
    kind: 'first-purchase' | 'renewal';
    status: string;
    review_hold: boolean;
  }>(
    `SELECT c.id::text AS id, r.code, c.occurred_at, c.commission_cents, c.kind, c.status, c.review_hold
     FROM conversions c LEFT JOIN referral_codes r ON r.id = c.referral_code_id
     WHERE c.review_case_id = $1 ORDER BY c.occurred_at DESC, c.id DESC`,
    [caseId],
  );
  return {
    ...summaryOf(row),
    groupId: row.group_id,
    decidedBy: row.decided_by,
    reason: row.reason,
    signals: signals.map((signal): AdminReviewSignal => ({
      id: signal.id,
      kind: signal.kind,
      action: signal.action,
      detectedAt: isoTime(signal.detected_at),
      evidence: jsonValue(signal.evidence),
    })),
    commissions: commissions.map((commission): AdminReviewCommission => ({
      conversionId: commission.id,
      code: commission.code,
      occurredAt: isoTime(commission.occurred_at),
      commissionCents: centsValue(commission.commission_cents),
      kind: commission.kind,
      state: commission.status === 'reversed' ? 'reversed' : commission.review_hold ? 'held' : 'released',
    })),
  };
}

const DECIDED_STATUS = { approve: 'approved', reject: 'rejected', ban: 'banned' } as const;

/**
 * Decides an open case (docs/product/review.md#actions): approve releases its held commissions;
 * reject reverses them (domain/reverse-conversion.ts, each with the reason); ban reverses them and
 * disables the account with the reason (the console's own disable). The case's row is locked: two
 * operators deciding at once decide once; the second is told the case is decided.
 */
export async function decideReviewCase(
  app: AppContext,
  operator: SignedInUser,
  input: AdminDecideReviewCaseRequest,
): Promise<AdminReviewDecisionResult> {
  const reason = input.reason.trim();
  return inTransaction(app, async (tx) => {
    const now = app.now();
    const row = await loadCase(tx, input.caseId, true);
    if (row.status !== 'open')
      throw new CallableError('failed-precondition', 'This case is already decided.', { code: 'case-decided' });
    const caseId = Number(row.id);
    let moved = { count: 0, cents: 0 };
    if (input.decision === 'approve') {
      moved = await releaseHeldCommissions(tx, caseId, now);
    } else {
      for (const conversionId of await heldCommissionIds(tx, caseId)) {
        const { rows } = await tx.query<{ cents: SqlBigint }>(
          'SELECT commission_cents AS cents FROM conversions WHERE id = $1',
          [conversionId],
        );
        const reversed = await reverseConversionIn(tx, {
          conversionId,
          reason: `Review case ${caseId}: ${reason}`,
          actor: operator.userId,
          at: now,
        });
        if (reversed?.outcome === 'reversed') {
          moved = { count: moved.count + 1, cents: moved.cents + centsValue(rows[0]?.cents) };
        }
      }
      // Reversed rows are in the programme whatever their hold; the flag is cleared to say the review is over.
      await tx.query('UPDATE conversions SET review_hold = false WHERE review_case_id = $1 AND review_hold', [caseId]);
      if (input.decision === 'ban') {
        const banned = await tx.query<{ banned: boolean }>(
          `SELECT coalesce(u.banned, false) AS banned FROM affiliates a LEFT JOIN auth_users u ON u.id = a.user_id
           WHERE a.id = $1`,
          [row.affiliate_id],
        );
        if (!banned.rows[0]?.banned)
          await setAffiliateStatusIn(tx, app, operator, { affiliateId: row.affiliate_id, action: 'disable', reason });
      }
    }
    const status = DECIDED_STATUS[input.decision];
    await tx.query(`UPDATE review_cases SET status = $2, decided_at = $3, decided_by = $4, reason = $5 WHERE id = $1`, [
      caseId,
      status,
      now.toISOString(),
      operator.userId,
      reason,
    ]);
    await recordAudit(tx, {
      actor: operator.userId,
      action: `review.${status}`,
      subject: String(caseId),
      details: { affiliateId: row.affiliate_id, reason, commissions: moved.count, cents: moved.cents },
      at: now,
    });
    return { caseId: row.id, status, commissions: moved.count, cents: moved.cents };
  });
}

export async function getReviewPolicies(app: Pick<AppContext, 'database'>): Promise<AdminReviewPolicies> {
  const { rows } = await app.database.sql.query<{
    id: string;
    name: string;
    policies: { signal: ReviewSignalKind; action: ReviewAction }[] | string;
  }>(
    `SELECT g.id, g.name,
            coalesce((SELECT json_agg(json_build_object('signal', p.signal, 'action', p.action))
                      FROM review_policies p WHERE p.group_id = g.id), '[]'::json) AS policies
     FROM partner_groups g ORDER BY g.id = 'default' DESC, g.name, g.id`,
  );
  return {
    groups: rows.map((row) => {
      const set = new Map(jsonValue(row.policies).map((p) => [p.signal, p.action]));
      const actions = Object.fromEntries(REVIEW_SIGNALS.map((kind) => [kind, set.get(kind) ?? 'flag'])) as Record<
        ReviewSignalKind,
        ReviewAction
      >;
      return { groupId: row.id, name: row.name, actions };
    }),
  };
}

/** Sets one group's action for one signal, audited with the previous action; applies to signals raised from now on. */
export async function setReviewPolicy(
  app: AppContext,
  operator: SignedInUser,
  input: AdminSetReviewPolicyRequest,
): Promise<AdminReviewPolicies> {
  await inTransaction(app, async (tx) => {
    const now = app.now();
    const { rows: group } = await tx.query('SELECT 1 FROM partner_groups WHERE id = $1', [input.groupId]);
    if (group.length === 0) throw new CallableError('not-found', 'No such partner group.', { code: 'not-found' });
    const { rows: previous } = await tx.query<{ action: ReviewAction }>(
      'SELECT action FROM review_policies WHERE group_id = $1 AND signal = $2 FOR UPDATE',
      [input.groupId, input.signal],
    );
    await tx.query(
      `INSERT INTO review_policies (group_id, signal, action, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (group_id, signal) DO UPDATE SET action = EXCLUDED.action, updated_by = EXCLUDED.updated_by,
         updated_at = EXCLUDED.updated_at`,
      [input.groupId, input.signal, input.action, operator.userId, now.toISOString()],
    );
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'review.policy-changed',
      subject: input.groupId,
      details: { signal: input.signal, action: input.action, previousAction: previous[0]?.action ?? 'flag' },
      at: now,
    });
  });
  return getReviewPolicies(app);
}
