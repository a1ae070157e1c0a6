import type { LedgerExport } from '@skanova/shared/payouts/functions';
import { LEDGER_EXPORT_MAX_ENTRIES } from '@skanova/shared/payouts/schemas';
import type { AppContext } from '../../context.ts';
import { type SqlBigint, centsValue } from '../../db/rows.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { transferReference } from './transfer-reference.ts';

// The ledger for the accountant (docs/product/money.md#the-ledger, docs/product/money.md#ledger-export): for
// a period of whole UTC months, one CSV line per entry — with its affiliate, the group and rule version
// that priced it, its source event, adjustment and payout — and a summary per affiliate per month: what
// moved, by kind, and each account's balance at the month's end. Amounts in USD with two decimals,
// signed; times in UTC. RFC 4180 quoting, CRLF line ends, and no cell that a spreadsheet would run as a
// formula.

const ENTRY_COLUMNS = [
  'entry_id',
  'effective_at',
  'recorded_at',
  'affiliate_id',
  'affiliate_name',
  'group_id',
  'rule_version',
  'kind',
  'from_account',
  'to_account',
  'amount_usd',
  'conversion_id',
  'source_event_id',
  'adjustment_id',
  'adjustment_reason',
  'payout_id',
  'payout_reference',
] as const;

const SUMMARY_KINDS = [
  'earned',
  'approved',
  'reversed',
  'adjusted',
  'clawed-back',
  'scheduled',
  'paid',
  'payout-failed',
  'released',
  'held',
  'released-from-review',
] as const;
const SUMMARY_ACCOUNTS = ['pending', 'payable', 'held', 'in-payout', 'paid'] as const;

const SUMMARY_COLUMNS = [
  'month',
  'affiliate_id',
  'affiliate_name',
  'group_id',
  ...SUMMARY_KINDS.map((kind) => `${kind.replace(/-/g, '_')}_usd`),
  ...SUMMARY_ACCOUNTS.map((account) => `closing_${account.replace(/-/g, '_')}_usd`),
] as const;

/**
 * One CSV cell: quoted when needed; text a spreadsheet would read as a formula is prefixed with `'`
 * (a signed amount such as -1.50 stays a number).
 */
function cell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(columns: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return [columns, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Signed cents as dollars: -250 → "-2.50". */
export function signedDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

interface EntryRow {
  id: SqlBigint;
  effective_at: Date | string;
  recorded_at: Date | string;
  affiliate_id: string;
  affiliate_name: string | null;
  group_id: string;
  rule_version: number | null;
  kind: string;
  from_account: string;
  to_account: string;
  amount_cents: SqlBigint;
  conversion_id: SqlBigint | null;
  source_event_id: string | null;
  adjustment_id: SqlBigint | null;
  reason: string | null;
  payout_id: string | null;
}

const ENTRIES_SQL = `
SELECT e.id, e.effective_at, e.recorded_at, e.affiliate_id,
       nullif(concat_ws(' ', a.first_name, a.last_name), '') AS affiliate_name,
       coalesce(r.group_id, a.group_id) AS group_id, r.version AS rule_version,
       e.kind, e.from_account, e.to_account, e.amount_cents,
       e.conversion_id, c.source_event_id, e.adjustment_id, j.reason, e.payout_id::text AS payout_id
FROM ledger_entries e
JOIN affiliates a ON a.id = e.affiliate_id
LEFT JOIN conversions c ON c.id = e.conversion_id
LEFT JOIN reward_rules r ON r.id = c.rule_id
LEFT JOIN commission_adjustments j ON j.id = e.adjustment_id
WHERE e.effective_at >= $1 AND e.effective_at < $2
ORDER BY e.effective_at, e.id
LIMIT $3`;

/** Each affiliate's monthly movements by kind and closing balances, for the months of the period they moved in. */
const SUMMARY_SQL = `
WITH monthly AS (
  SELECT e.affiliate_id, date_trunc('month', e.effective_at AT TIME ZONE 'UTC') AS month,
         ${SUMMARY_KINDS.map((kind) => `coalesce(sum(e.amount_cents) FILTER (WHERE e.kind = '${kind}'), 0)::bigint AS "${kind}"`).join(',\n         ')},
         ${SUMMARY_ACCOUNTS.map(
           (account) => `coalesce(sum(CASE WHEN e.to_account = '${account}' THEN e.amount_cents
                                WHEN e.from_account = '${account}' THEN -e.amount_cents ELSE 0 END), 0)::bigint AS "delta-${account}"`,
         ).join(',\n         ')}
  FROM ledger_entries e
  WHERE e.effective_at < $2
  GROUP BY 1, 2
),
closing AS (
  SELECT m.*,
         ${SUMMARY_ACCOUNTS.map(
           (account) =>
             `sum(m."delta-${account}") OVER (PARTITION BY m.affiliate_id ORDER BY m.month)::bigint AS "closing-${account}"`,
         ).join(',\n         ')}
  FROM monthly m
)
SELECT to_char(c.month, 'YYYY-MM') AS month, c.affiliate_id,
       nullif(concat_ws(' ', a.first_name, a.last_name), '') AS affiliate_name, a.group_id,
       ${[...SUMMARY_KINDS.map((kind) => `c."${kind}"`), ...SUMMARY_ACCOUNTS.map((account) => `c."closing-${account}"`)].join(', ')}
FROM closing c JOIN affiliates a ON a.id = c.affiliate_id
WHERE c.month >= ($1::timestamptz AT TIME ZONE 'UTC')
ORDER BY c.month, c.affiliate_id`;

/** `YYYY-MM` → the first instant of that UTC month. */
function monthStart(month: string): Date {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthIndex - 1, 1));
}

function isoTime(value: Date | string): string {
  return new Date(value).toISOString();
}

/** The ledger's entries and monthly summary from the start of `from` to the end of `to` (months, UTC). */
export async function exportLedger(
  app: AppContext,
  input: { from: string; to: string; actor: string },
): Promise<LedgerExport> {
  const start = monthStart(input.from);
  const end = monthStart(input.to);
  end.setUTCMonth(end.getUTCMonth() + 1);
  const sql = app.database.sql;
  const { rows: entries } = await sql.query<EntryRow>(ENTRIES_SQL, [
    start.toISOString(),
    end.toISOString(),
    LEDGER_EXPORT_MAX_ENTRIES + 1,
  ]);
  if (entries.length > LEDGER_EXPORT_MAX_ENTRIES)
    throw new CallableError(
      'failed-precondition',
      `The period holds more than ${LEDGER_EXPORT_MAX_ENTRIES} entries: export fewer months at a time.`,
      { code: 'too-many-entries', maxEntries: LEDGER_EXPORT_MAX_ENTRIES },
    );
  const { rows: summary } = await sql.query<Record<string, SqlBigint | string | null>>(SUMMARY_SQL, [
    start.toISOString(),
    end.toISOString(),
  ]);

  const entryLines = entries.map((row) => [
    String(row.id),
    isoTime(row.effective_at),
    isoTime(row.recorded_at),
    row.affiliate_id,
    row.affiliate_name,
    row.group_id,
    row.rule_version,
    row.kind,
    row.from_account,
    row.to_account,
    signedDollars(centsValue(row.amount_cents)),
    row.conversion_id === null ? null : String(row.conversion_id),
    row.source_event_id,
    row.adjustment_id === null ? null : String(row.adjustment_id),
    row.reason,
    row.payout_id,
    row.payout_id === null ? null : transferReference(row.payout_id),
  ]);
  const summaryLines = summary.map((row) => [
    String(row.month),
    String(row.affiliate_id),
    row.affiliate_name === null ? null : String(row.affiliate_name),
    String(row.group_id),
    ...SUMMARY_KINDS.map((kind) => signedDollars(centsValue(row[kind] as SqlBigint))),
    ...SUMMARY_ACCOUNTS.map((account) => signedDollars(centsValue(row[`closing-${account}`] as SqlBigint))),
  ]);

  await recordAudit(app.database, {
    actor: input.actor,
    action: 'ledger.exported',
    subject: `${input.from}..${input.to}`,
    details: { entries: entries.length, summaryLines: summary.length },
    at: app.now(),
  });
  const period = input.from === input.to ? input.from : `${input.from}_${input.to}`;
  return {
    entries: {
      fileName: `skanova-ledger-${period}.csv`,
      contentType: 'text/csv; charset=utf-8',
      content: csv(ENTRY_COLUMNS, entryLines),
      lines: entryLines.length,
    },
    summary: {
      fileName: `skanova-ledger-summary-${period}.csv`,
      contentType: 'text/csv; charset=utf-8',
      content: csv(SUMMARY_COLUMNS, summaryLines),
      lines: summaryLines.length,
    },
  };
}
