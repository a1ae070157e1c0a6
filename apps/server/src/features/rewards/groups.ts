import { DEFAULT_GROUP_ID } from '@skanova/shared/rewards/constants';
import type { AdminGroup, AdminGroupVersions, RewardRuleVersion, RewardTier } from '@skanova/shared/rewards/functions';
import type {
  AdminArchiveGroupRequest,
  AdminCreateGroupRequest,
  AdminRenameGroupRequest,
} from '@skanova/shared/rewards/schemas';
import { nextVersion, versionInForce } from '@skanova/shared/rewards/versions';
import type { AppContext, SignedInUser } from '../../context.ts';
import { type SqlBigint, centsValue, jsonValue } from '../../db/rows.ts';
import { type TransactionQuery, type Tx, inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { refusal } from './refusal.ts';

// Partner groups for the operators (docs/product/money.md#operators-groups-rules-and-campaigns): the list
// with each group's rule in force, its versions and its affiliates; create, rename, archive. Each change
// is written with its audit entry in one transaction, under the group row's lock where it depends on
// what the group holds.

interface GroupRow {
  id: string;
  name: string;
  archived_at: Date | string | null;
  created_at: Date | string;
  affiliate_count: number;
}

interface VersionRow {
  group_id: string;
  version: number;
  effective_from: Date | string;
  kind: 'flat' | 'percentage';
  tiers: RewardTier[] | string | null;
  percent_basis_points: number | null;
  recurring_months: number | null;
  hold_days: number;
  minimum_payout_cents: SqlBigint;
  created_at: Date | string;
  created_by: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function versionOf(row: VersionRow): RewardRuleVersion {
  return {
    version: row.version,
    effectiveFrom: iso(row.effective_from),
    kind: row.kind,
    tiers: row.tiers === null ? null : jsonValue(row.tiers),
    percentBasisPoints: row.percent_basis_points,
    recurringMonths: row.recurring_months,
    holdDays: row.hold_days,
    minimumPayoutCents: centsValue(row.minimum_payout_cents),
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
  };
}

/** Every version of the groups named (all when none is), newest first, by group. */
async function readVersions(db: TransactionQuery, groupId?: string): Promise<Map<string, RewardRuleVersion[]>> {
  const { rows } = await db.query<VersionRow>(
    `SELECT r.group_id, r.version, r.effective_from, r.kind, r.tiers, r.percent_basis_points, r.recurring_months,
            r.hold_days, r.minimum_payout_cents, r.created_at, u.email AS created_by
     FROM reward_rules r LEFT JOIN auth_users u ON u.id = r.created_by
     WHERE $1::text IS NULL OR r.group_id = $1
     ORDER BY r.group_id, r.version DESC`,
    [groupId ?? null],
  );
  const versions = new Map<string, RewardRuleVersion[]>();
  for (const row of rows) {
    const list = versions.get(row.group_id) ?? [];
    list.push(versionOf(row));
    versions.set(row.group_id, list);
  }
  return versions;
}

async function readGroups(db: TransactionQuery, now: Date, groupId?: string): Promise<AdminGroupVersions[]> {
  const { rows } = await db.query<GroupRow>(
    `SELECT g.id, g.name, g.archived_at, g.created_at,
            (SELECT count(*)::int FROM affiliates a WHERE a.group_id = g.id AND a.deleted_at IS NULL) AS affiliate_count
     FROM partner_groups g
     WHERE $1::text IS NULL OR g.id = $1
     ORDER BY g.id = '${DEFAULT_GROUP_ID}' DESC, g.archived_at IS NOT NULL, g.name, g.id`,
    [groupId ?? null],
  );
  const versions = await readVersions(db, groupId);
  return rows.map((row) => {
    const list = versions.get(row.id) ?? [];
    return {
      group: {
        id: row.id,
        name: row.name,
        isDefault: row.id === DEFAULT_GROUP_ID,
        archivedAt: row.archived_at === null ? null : iso(row.archived_at),
        createdAt: iso(row.created_at),
        current: versionInForce(list, now),
        upcoming: nextVersion(list, now),
        versionCount: list.length,
        affiliateCount: row.affiliate_count,
      },
      versions: list,
    };
  });
}

/** Every group, the default first, then the active ones by name, the archived last. */
export async function listGroups(app: AppContext): Promise<AdminGroup[]> {
  return (await readGroups(app.database.sql, app.now())).map((entry) => entry.group);
}

/** One group and its versions, newest first; `not-found` for an unknown id. */
export async function loadGroupVersions(db: TransactionQuery, now: Date, groupId: string): Promise<AdminGroupVersions> {
  const [found] = await readGroups(db, now, groupId);
  if (!found) throw new CallableError('not-found', 'No such group.', { code: 'not-found' });
  return found;
}

/** The group's row, locked until the transaction ends (its archive, its versions, its members wait). */
export async function lockGroup(
  tx: Tx,
  groupId: string,
  mode: 'UPDATE' | 'SHARE',
): Promise<{ archived: boolean } | null> {
  const { rows } = await tx.query<{ archived: boolean }>(
    `SELECT archived_at IS NOT NULL AS archived FROM partner_groups WHERE id = $1 FOR ${mode}`,
    [groupId],
  );
  return rows[0] ?? null;
}

export async function createGroup(
  app: AppContext,
  operator: SignedInUser,
  input: AdminCreateGroupRequest,
): Promise<AdminGroup> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO partner_groups (id, name, created_by, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [input.id, input.name, operator.userId, now.toISOString()],
    );
    if (rows.length === 0) throw refusal('idTaken');
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'group.created',
      subject: input.id,
      details: { name: input.name },
      at: now,
    });
    return (await loadGroupVersions(tx, now, input.id)).group;
  });
}

export async function renameGroup(
  app: AppContext,
  operator: SignedInUser,
  input: AdminRenameGroupRequest,
): Promise<AdminGroup> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ name: string }>(`SELECT name FROM partner_groups WHERE id = $1 FOR UPDATE`, [
      input.groupId,
    ]);
    const previous = rows[0]?.name;
    if (previous === undefined) throw refusal('groupUnknown');
    await tx.query(`UPDATE partner_groups SET name = $2 WHERE id = $1`, [input.groupId, input.name]);
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'group.renamed',
      subject: input.groupId,
      details: { from: previous, to: input.name },
      at: now,
    });
    return (await loadGroupVersions(tx, now, input.groupId)).group;
  });
}

/**
 * Archives a group that no affiliate is in (deleted accounts aside): it takes no new member and no new
 * version, and its versions keep pricing what they priced. The group's lock makes a simultaneous move
 * into it wait, then see it archived; a move that locked first is counted here.
 */
export async function archiveGroup(
  app: AppContext,
  operator: SignedInUser,
  input: AdminArchiveGroupRequest,
): Promise<AdminGroup> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    if (input.groupId === DEFAULT_GROUP_ID) throw refusal('defaultKept');
    const group = await lockGroup(tx, input.groupId, 'UPDATE');
    if (!group) throw refusal('groupUnknown');
    if (group.archived) throw refusal('groupArchived');
    const { rows } = await tx.query<{ members: number }>(
      `SELECT count(*)::int AS members FROM affiliates WHERE group_id = $1 AND deleted_at IS NULL`,
      [input.groupId],
    );
    if ((rows[0]?.members ?? 0) > 0) throw refusal('hasAffiliates');
    await tx.query(`UPDATE partner_groups SET archived_at = $2, archived_by = $3 WHERE id = $1`, [
      input.groupId,
      now.toISOString(),
      operator.userId,
    ]);
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'group.archived',
      subject: input.groupId,
      details: {},
      at: now,
    });
    return (await loadGroupVersions(tx, now, input.groupId)).group;
  });
}
