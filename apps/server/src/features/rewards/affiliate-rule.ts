import { RECENT_COMMISSIONS_LIMIT } from '@skanova/shared/rewards/constants';
import type { AffiliateCommission, AffiliateRule, CommissionStatus } from '@skanova/shared/rewards/functions';
import { isSpecificationRule } from '@skanova/shared/rewards/specification-rule';
import type { AffiliateCaller, AppContext } from '../../context.ts';
import { type SqlBigint, centsValue } from '../../db/rows.ts';
import {
  COMMISSION_WHY_COLUMNS,
  COMMISSION_WHY_JOINS,
  type CommissionWhyRow,
  commissionWhy,
  ruleInForce,
} from '../../domain/reward-rules.ts';

// The affiliate's own rule and commissions (docs/product/money.md#operators-groups-rules-and-campaigns):
// the rule of their group in force now, for the dashboard and the terms page to write out, and their
// latest commissions with why each is that amount. Only the caller's rows; the group's name, the
// operators' label, is not part of it.

export async function loadAffiliateRule(app: AppContext, caller: AffiliateCaller): Promise<AffiliateRule> {
  const rule = await ruleInForce(app.database.sql, caller.affiliateId, app.now());
  const terms = {
    kind: rule.kind,
    tiers: rule.tiers,
    percentBasisPoints: rule.percentBasisPoints,
    recurringMonths: rule.recurringMonths,
    holdDays: rule.holdDays,
    minimumPayoutCents: rule.minimumPayoutCents,
  };
  return {
    specificationRule: isSpecificationRule(terms),
    rule: { ...terms, version: rule.version, effectiveFrom: rule.effectiveFrom.toISOString() },
  };
}

interface CommissionRow extends CommissionWhyRow {
  id: string;
  occurred_at: Date | string;
  commission_cents: SqlBigint;
  status: CommissionStatus;
}

export async function listAffiliateCommissions(
  app: AppContext,
  caller: AffiliateCaller,
): Promise<AffiliateCommission[]> {
  const { rows } = await app.database.sql.query<CommissionRow>(
    `SELECT c.id::text AS id, c.occurred_at, c.commission_cents, c.status, ${COMMISSION_WHY_COLUMNS}
     FROM conversions c ${COMMISSION_WHY_JOINS}
     WHERE c.affiliate_id = $1
     ORDER BY c.occurred_at DESC, c.id DESC LIMIT $2`,
    [caller.affiliateId, RECENT_COMMISSIONS_LIMIT],
  );
  return rows.map((row) => ({
    id: row.id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    amountCents: centsValue(row.commission_cents),
    status: row.status,
    why: commissionWhy(row, 'affiliate'),
  }));
}
