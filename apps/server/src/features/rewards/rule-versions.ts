import type { AdminGroupVersions } from '@skanova/shared/rewards/functions';
import type { AdminListRuleVersionsRequest, AdminPublishRuleVersionRequest } from '@skanova/shared/rewards/schemas';
import type { AppContext, SignedInUser } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { loadGroupVersions, lockGroup } from './groups.ts';
import { refusal } from './refusal.ts';

// A group's rule is versioned (docs/product/money.md#partner-groups-and-reward-rules): a new version
// applies to the events from its effective time on and never re-prices what was earned, since each
// commission keeps the version that priced it (domain/reward-rules.ts). Publishing takes the group's
// row lock, so two operators publishing at once get versions n + 1 and n + 2, never the same number.

export async function listRuleVersions(
  app: AppContext,
  input: AdminListRuleVersionsRequest,
): Promise<AdminGroupVersions> {
  return loadGroupVersions(app.database.sql, app.now(), input.groupId);
}

/**
 * The group's next version, in force from `effectiveFrom` (now when absent). Refused for an instant
 * already past (events already priced would change rule) or before the group's latest version (the
 * versions take effect in their order), and for an archived group.
 */
export async function publishRuleVersion(
  app: AppContext,
  operator: SignedInUser,
  input: AdminPublishRuleVersionRequest,
): Promise<AdminGroupVersions> {
  const now = app.now();
  const effectiveFrom = input.effectiveFrom === undefined ? now : new Date(input.effectiveFrom);
  return inTransaction(app, async (tx) => {
    const group = await lockGroup(tx, input.groupId, 'UPDATE');
    if (!group) throw refusal('groupUnknown');
    if (group.archived) throw refusal('groupArchived');
    if (effectiveFrom.getTime() < now.getTime()) throw refusal('effectiveInPast');
    const { rows } = await tx.query<{ version: number | null; effective_from: Date | string | null }>(
      `SELECT max(version) AS version, max(effective_from) AS effective_from FROM reward_rules WHERE group_id = $1`,
      [input.groupId],
    );
    const latest = rows[0];
    if (latest?.effective_from && effectiveFrom.getTime() < new Date(latest.effective_from).getTime())
      throw refusal('effectiveBeforePrevious');
    const version = (latest?.version ?? 0) + 1;
    const terms = {
      kind: input.kind,
      tiers: input.kind === 'flat' ? (input.tiers ?? null) : null,
      percentBasisPoints: input.kind === 'percentage' ? (input.percentBasisPoints ?? null) : null,
      recurringMonths: input.kind === 'percentage' ? (input.recurringMonths ?? null) : null,
      holdDays: input.holdDays,
      minimumPayoutCents: input.minimumPayoutCents,
    };
    await tx.query(
      `INSERT INTO reward_rules (group_id, version, effective_from, kind, tiers, percent_basis_points, recurring_months,
                                 hold_days, minimum_payout_cents, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
      [
        input.groupId,
        version,
        effectiveFrom.toISOString(),
        terms.kind,
        terms.tiers === null ? null : JSON.stringify(terms.tiers),
        terms.percentBasisPoints,
        terms.recurringMonths,
        terms.holdDays,
        terms.minimumPayoutCents,
        operator.userId,
        now.toISOString(),
      ],
    );
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'rule.published',
      subject: input.groupId,
      details: { version, effectiveFrom: effectiveFrom.toISOString(), ...terms },
      at: now,
    });
    return loadGroupVersions(tx, now, input.groupId);
  });
}
