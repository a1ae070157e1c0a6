import type { AdminMoveAffiliateToGroupRequest } from '@skanova/shared/rewards/schemas';
import type { AppContext, SignedInUser } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { lockGroup } from './groups.ts';
import { refusal } from './refusal.ts';

// Moving an affiliate between groups (docs/product/money.md#operators-groups-rules-and-campaigns): their
// events from now on are priced by the new group's rule; what they earned keeps its rule. Audited with
// both groups. The affiliate's row is locked as a conversion's pricing locks it, so a purchase being
// priced finishes under one group or starts under the other; the target group's row is locked for
// share, so it cannot be archived under the move.

export async function moveAffiliateToGroup(
  app: AppContext,
  operator: SignedInUser,
  input: AdminMoveAffiliateToGroupRequest,
): Promise<{ affiliateId: string; groupId: string; previousGroupId: string }> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ group_id: string; deleted: boolean }>(
      `SELECT group_id, deleted_at IS NOT NULL AS deleted FROM affiliates WHERE id = $1 FOR UPDATE`,
      [input.affiliateId],
    );
    const affiliate = rows[0];
    if (!affiliate) throw new CallableError('not-found', 'No such affiliate.', { code: 'not-found' });
    if (affiliate.deleted)
      throw new CallableError('failed-precondition', 'This account was deleted.', { code: 'affiliate-deleted' });
    if (affiliate.group_id === input.groupId) throw refusal('sameGroup');
    const group = await lockGroup(tx, input.groupId, 'SHARE');
    if (!group) throw refusal('groupUnknown');
    if (group.archived) throw refusal('groupArchived');
    // An affiliate's group always has a rule in force from now on: the figures and the payday read it.
    const { rows: inForce } = await tx.query(
      `SELECT 1 FROM reward_rules WHERE group_id = $1 AND effective_from <= $2 LIMIT 1`,
      [input.groupId, now.toISOString()],
    );
    if (inForce.length === 0) throw refusal('noRuleInForce');
    await tx.query(`UPDATE affiliates SET group_id = $2, updated_at = $3 WHERE id = $1`, [
      input.affiliateId,
      input.groupId,
      now.toISOString(),
    ]);
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'affiliate.group-changed',
      subject: input.affiliateId,
      details: { from: affiliate.group_id, to: input.groupId },
      at: now,
    });
    return { affiliateId: input.affiliateId, groupId: input.groupId, previousGroupId: affiliate.group_id };
  });
}
