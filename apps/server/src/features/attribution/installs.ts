import type { AttributionMethod } from '@skanova/shared/attribution/schemas';
import type { TransactionQuery } from '../../db/transaction.ts';

// An install and the identities of its user (docs/product/attribution.md#conversions): RevenueCat may name one person by their
// anonymous id, their own app user id, an original id or aliases, and moves ids on a TRANSFER.
// Every id we learn becomes an alias of one install, so any later event finds it.

export interface InstallRow {
  id: string;
  appUserId: string;
  affiliateId: string | null;
  referralCodeId: string | null;
  code: string | null;
  method: AttributionMethod | null;
}

/** The install's columns under InstallRow's names (ids as text): the statements' rows are InstallRows. */
const INSTALL_COLUMNS = `i.id::text AS "id", i.app_user_id AS "appUserId", i.affiliate_id AS "affiliateId",
  i.referral_code_id::text AS "referralCodeId", r.code AS "code", i.method AS "method"`;

/**
 * A list as one parameter: a JSON array, read in SQL with `textList('$n')`. (Statements in a
 * transaction go through Drizzle, which would spread a JavaScript array into several parameters.)
 */
export function listParam(values: readonly string[]): string {
  return JSON.stringify(values);
}

/** SQL array of the texts in the JSON list parameter `param` (see listParam). */
export function textList(param: string): string {
  return `ARRAY(SELECT jsonb_array_elements_text(${param}::jsonb))`;
}

/** Distinct non-empty ids, sorted: rows are then always locked in the same order (no deadlock). */
export function distinctIds(ids: readonly (string | null | undefined)[]): string[] {
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))].sort();
}

/**
 * The install one of `ids` belongs to. When they name several (one person, two devices), the
 * attributed one wins, then the oldest: a person is attributed once, to their first attribution.
 * `lock` holds the install's row until the transaction ends.
 */
export async function findInstall(
  tx: TransactionQuery,
  ids: readonly string[],
  options: { lock?: boolean } = {},
): Promise<InstallRow | null> {
  if (ids.length === 0) return null;
  const { rows } = await tx.query<InstallRow>(
    `SELECT ${INSTALL_COLUMNS}
     FROM installs i LEFT JOIN referral_codes r ON r.id = i.referral_code_id
     WHERE i.id IN (SELECT install_id FROM app_user_aliases WHERE alias = ANY(${textList('$1')}))
     ORDER BY i.affiliate_id IS NULL, i.created_at, i.id
     LIMIT 1${options.lock ? ' FOR UPDATE OF i' : ''}`,
    [listParam(ids)],
  );
  return rows[0] ?? null;
}

/** Every install one of `ids` belongs to (a refund looks for the conversion among all of them). */
export async function findInstallIds(tx: TransactionQuery, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await tx.query<{ install_id: string }>(
    `SELECT DISTINCT install_id::text AS install_id FROM app_user_aliases WHERE alias = ANY(${textList('$1')})`,
    [listParam(ids)],
  );
  return rows.map((row) => row.install_id);
}

/** The install whose own app user id is `appUserId` (the row attributeInstall creates). */
export async function installByAppUserId(
  tx: TransactionQuery,
  appUserId: string,
  options: { lock?: boolean } = {},
): Promise<InstallRow | null> {
  const { rows } = await tx.query<InstallRow>(
    `SELECT ${INSTALL_COLUMNS}
     FROM installs i LEFT JOIN referral_codes r ON r.id = i.referral_code_id
     WHERE i.app_user_id = $1${options.lock ? ' FOR UPDATE OF i' : ''}`,
    [appUserId],
  );
  return rows[0] ?? null;
}

/**
 * Makes `ids` aliases of the install. An id that already belongs to another install stays there,
 * unless `move` (a TRANSFER: the identity now belongs to the person it was transferred from).
 */
export async function linkAliases(
  tx: TransactionQuery,
  installId: string,
  ids: readonly string[],
  at: Date,
  options: { move?: boolean } = {},
): Promise<void> {
  const sorted = distinctIds(ids);
  if (sorted.length === 0) return;
  await tx.query(
    `INSERT INTO app_user_aliases (alias, install_id, created_at)
     SELECT alias, $2::bigint, $3 FROM unnest(${textList('$1')}) AS alias ORDER BY alias
     ON CONFLICT (alias) DO ${options.move ? 'UPDATE SET install_id = excluded.install_id WHERE app_user_aliases.install_id <> excluded.install_id' : 'NOTHING'}`,
    [listParam(sorted), installId, at.toISOString()],
  );
}
