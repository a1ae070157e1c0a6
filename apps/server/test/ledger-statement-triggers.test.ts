import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate, readMigrations } from '../src/db/migrate.ts';
import { TEST_DB, createTestDatabaseUrl } from './helpers/database.ts';

// The ledger's statement-level triggers (migrations/0013_ledger_statement_triggers.sql,
// docs/decisions/026-money-ledger.md): one scripted life of commissions, adjustments and payouts, each step
// a statement over several rows, played on a database with the row triggers (migrations up to 0012)
// and on one with the statement triggers. Both write the very same entries: kinds, accounts, amounts,
// rows, payouts, payable and effective times, and for each row the same movements in the same order.

const STATEMENT_TRIGGERS = '0013_ledger_statement_triggers';

interface Opened {
  database: Database;
  drop?: () => Promise<void>;
}

async function open(migrations: ReturnType<typeof readMigrations>): Promise<Opened> {
  let opened: Opened;
  if (TEST_DB === 'postgres') {
    const created = await createTestDatabaseUrl({ migrated: false });
    opened = { database: openDatabase({ url: created.url, poolSize: 2 }), drop: created.drop };
  } else {
    opened = { database: openDatabase({ pgliteDir: 'memory://' }) };
  }
  await migrate(opened.database.sql, migrations);
  return opened;
}

let rowTriggers: Opened;
let statementTriggers: Opened;
/** Entries dated from here on were dated by now() (a time the statement did not give). */
let startedAt: Date;

beforeAll(async () => {
  startedAt = new Date();
  const all = readMigrations();
  expect(all.map((migration) => migration.name)).toContain(STATEMENT_TRIGGERS);
  rowTriggers = await open(all.filter((migration) => migration.name < STATEMENT_TRIGGERS));
  statementTriggers = await open(all);
});
afterAll(async () => {
  for (const opened of [rowTriggers, statementTriggers]) {
    await opened?.database.close();
    await opened?.drop?.();
  }
});

const PAYOUT_MAY = '00000000-0000-4000-8000-000000000001';
const PAYOUT_JUNE = '00000000-0000-4000-8000-000000000002';
const PAYOUT_JUNE_OTHER = '00000000-0000-4000-8000-000000000003';
const PAYOUT_JULY = '00000000-0000-4000-8000-000000000004';

const payout = (id: string, affiliate: string, periodStart: string, status = 'scheduled') =>
  `INSERT INTO payouts (id, affiliate_id, period_start, period_end, amount_cents, method, method_snapshot, status,
                        scheduled_for, created_at)
   VALUES ('${id}', '${affiliate}', '${periodStart}', ('${periodStart}'::date + 27), 1000, 'paypal', '{}', '${status}',
           ('${periodStart}'::date + 45), ('${periodStart}'::date + 45))`;

/** The scripted life: every statement runs on both databases, in this order. */
const SCRIPT: string[] = [
  `INSERT INTO affiliates (id, status) VALUES ('aff-a', 'active'), ('aff-b', 'active'), ('aff-c', 'active')`,
  `INSERT INTO review_cases (affiliate_id, opened_at) VALUES ('aff-c', '2025-04-02T00:00:00Z')`,
  payout(PAYOUT_MAY, 'aff-a', '2025-04-01'),
  // Earned: pending, approved, already reversed, already in a scheduled payout, entering held.
  `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status,
                            approved_at, reversed_at, payout_id, review_hold, review_case_id, review_changed_at)
   SELECT 'event-' || g, 'user-' || g, (ARRAY['aff-a', 'aff-b', 'aff-c'])[1 + g % 3],
          '2025-04-01T00:00:00Z'::timestamptz + g * interval '1 hour', 200 + (g % 2) * 200,
          CASE WHEN g % 2 = 1 THEN 'premium' ELSE 'standard' END,
          CASE WHEN g % 7 = 0 THEN 'reversed' WHEN g % 3 = 0 AND g % 5 = 0 THEN 'approved'
               WHEN g % 4 = 0 THEN 'approved' ELSE 'pending' END,
          CASE WHEN g % 4 = 0 OR (g % 3 = 0 AND g % 5 = 0) THEN '2025-05-01T00:00:00Z'::timestamptz + g * interval '1 hour' END,
          CASE WHEN g % 7 = 0 THEN '2025-04-20T00:00:00Z'::timestamptz END,
          CASE WHEN g % 3 = 1 AND g % 4 = 0 AND g % 7 <> 0 THEN '${PAYOUT_MAY}'::uuid END,
          g % 3 = 2 AND g % 5 = 2,
          CASE WHEN g % 3 = 2 AND g % 5 = 2 THEN (SELECT id FROM review_cases WHERE affiliate_id = 'aff-c') END,
          CASE WHEN g % 3 = 2 AND g % 5 = 2 THEN '2025-04-03T00:00:00Z'::timestamptz END
   FROM generate_series(1, 60) g`,
  // Credits, a deduction, a clawback of a commission, one straight into the May payout.
  `INSERT INTO commission_adjustments (affiliate_id, conversion_id, amount_cents, reason, payout_id, created_at)
   VALUES ('aff-a', NULL, 500, 'credit a', NULL, '2025-04-10T00:00:00Z'),
          ('aff-b', NULL, -300, 'deduction b', NULL, '2025-04-11T00:00:00Z'),
          ('aff-b', (SELECT id FROM conversions WHERE source_event_id = 'event-2'), -200, 'clawback b', NULL,
           '2025-04-12T00:00:00Z'),
          ('aff-a', NULL, 150, 'credit a in may', '${PAYOUT_MAY}', '2025-04-13T00:00:00Z'),
          ('aff-c', NULL, 250, 'credit c', NULL, '2025-04-14T00:00:00Z')`,
  // Approval of what is due, in one statement; an update that moves nothing.
  `UPDATE conversions SET status = 'approved', approved_at = occurred_at + interval '30 days'
   WHERE status = 'pending' AND occurred_at < '2025-04-02T12:00:00Z'`,
  `UPDATE conversions SET pricing = jsonb_build_object('scripted', true) WHERE affiliate_id = 'aff-b'`,
  `UPDATE conversions SET status = status, payout_id = payout_id WHERE affiliate_id = 'aff-a'`,
  // A case holds aff-c's commissions (pending, payable, and those entering held stay held), then
  // releases some, and one held commission is reversed.
  `UPDATE conversions SET review_hold = true, review_case_id = (SELECT id FROM review_cases WHERE affiliate_id = 'aff-c'),
                          review_changed_at = '2025-04-05T00:00:00Z'
   WHERE affiliate_id = 'aff-c' AND status <> 'reversed'`,
  `UPDATE conversions SET review_hold = false, review_changed_at = '2025-04-06T00:00:00Z'
   WHERE affiliate_id = 'aff-c' AND review_hold AND (occurred_at < '2025-04-02T00:00:00Z' OR status = 'approved')`,
  `UPDATE conversions SET status = 'approved', approved_at = '2025-05-05T00:00:00Z'
   WHERE affiliate_id = 'aff-c' AND status = 'pending' AND review_hold AND occurred_at < '2025-04-02T18:00:00Z'`,
  `UPDATE conversions SET status = 'reversed', reversed_at = '2025-04-07T00:00:00Z'
   WHERE id = (SELECT min(id) FROM conversions WHERE affiliate_id = 'aff-c' AND review_hold)`,
  // A held commission released after its hold ended: pending → held → approved while held → payable.
  `UPDATE conversions SET review_hold = false, review_changed_at = '2025-05-06T00:00:00Z'
   WHERE affiliate_id = 'aff-c' AND review_hold AND status = 'approved'`,
  // The June run: payouts for aff-b and aff-c hold their payable rows.
  payout(PAYOUT_JUNE, 'aff-b', '2025-05-01'),
  payout(PAYOUT_JUNE_OTHER, 'aff-c', '2025-05-01'),
  `UPDATE conversions c SET payout_id = CASE c.affiliate_id WHEN 'aff-b' THEN '${PAYOUT_JUNE}'::uuid
                                                          ELSE '${PAYOUT_JUNE_OTHER}'::uuid END
   WHERE c.affiliate_id IN ('aff-b', 'aff-c') AND c.status = 'approved' AND c.payout_id IS NULL AND NOT c.review_hold`,
  `UPDATE commission_adjustments SET payout_id = CASE affiliate_id WHEN 'aff-b' THEN '${PAYOUT_JUNE}'::uuid
                                                                  ELSE '${PAYOUT_JUNE_OTHER}'::uuid END
   WHERE affiliate_id IN ('aff-b', 'aff-c') AND payout_id IS NULL`,
  // Sent together; then one payout paid, the other failed (its rows back to payable), the May one
  // failed without a failure time (dated by now()) while still scheduled.
  `UPDATE payouts SET status = 'sent', sent_at = '2025-06-16T00:00:00Z' WHERE id IN ('${PAYOUT_JUNE}', '${PAYOUT_JUNE_OTHER}')`,
  `UPDATE payouts SET status = 'paid', paid_at = '2025-06-20T00:00:00Z' WHERE id = '${PAYOUT_JUNE}'`,
  `UPDATE payouts SET status = 'failed',
                      failed_at = CASE WHEN id = '${PAYOUT_JUNE_OTHER}' THEN '2025-06-21T00:00:00Z'::timestamptz END
   WHERE id IN ('${PAYOUT_JUNE_OTHER}', '${PAYOUT_MAY}')`,
  // The failed payouts' rows are unlinked, then held again by July's payout, which is paid straight
  // away; a payable commission of aff-c is held by review while no payout holds it.
  `UPDATE conversions SET payout_id = NULL WHERE payout_id IN ('${PAYOUT_JUNE_OTHER}', '${PAYOUT_MAY}')`,
  `UPDATE commission_adjustments SET payout_id = NULL WHERE payout_id IN ('${PAYOUT_JUNE_OTHER}', '${PAYOUT_MAY}')`,
  payout(PAYOUT_JULY, 'aff-a', '2025-06-01'),
  `UPDATE conversions SET payout_id = '${PAYOUT_JULY}' WHERE affiliate_id = 'aff-a' AND status = 'approved'`,
  `UPDATE commission_adjustments SET payout_id = '${PAYOUT_JULY}' WHERE affiliate_id = 'aff-a'`,
  `UPDATE payouts SET status = 'sent', sent_at = '2025-07-16T00:00:00Z' WHERE id = '${PAYOUT_JULY}'`,
  `UPDATE conversions SET review_hold = true, review_changed_at = '2025-07-01T00:00:00Z'
   WHERE affiliate_id = 'aff-c' AND status = 'approved' AND payout_id IS NULL
     AND id = (SELECT max(id) FROM conversions WHERE affiliate_id = 'aff-c' AND status = 'approved' AND payout_id IS NULL)`,
  // Paid rows marked paid, and a refund reversing pending commissions (dated by now()).
  `UPDATE conversions SET status = 'paid' WHERE payout_id = '${PAYOUT_JUNE}'`,
  `UPDATE conversions SET status = 'reversed' WHERE status = 'pending' AND affiliate_id = 'aff-b'`,
];

/** A move the lifecycle forbids: back from payable to pending. */
const FORBIDDEN = `UPDATE conversions SET status = 'pending' WHERE status = 'approved' AND payout_id IS NULL AND NOT review_hold`;

interface Entry {
  row: string;
  kind: string;
  affiliate_id: string;
  from_account: string;
  to_account: string;
  amount_cents: number;
  payout_id: string | null;
  payable_from: string | null;
  effective_at: string;
}

/** Every entry, row by row (named by its source event or reason) in the order the row's entries were written. */
async function entries(database: Database): Promise<Entry[]> {
  const { rows } = await database.sql.query<Entry & { effective: Date | string }>(
    `SELECT coalesce(c.source_event_id, a.reason) AS row, l.kind, l.affiliate_id, l.from_account, l.to_account,
            l.amount_cents::int AS amount_cents, l.payout_id::text AS payout_id,
            to_json(l.payable_from) #>> '{}' AS payable_from, l.effective_at AS effective
     FROM ledger_entries l
     LEFT JOIN conversions c ON c.id = l.conversion_id
     LEFT JOIN commission_adjustments a ON a.id = l.adjustment_id
     ORDER BY coalesce(c.source_event_id, a.reason), l.id`,
  );
  return rows.map(({ effective, ...row }) => {
    const at = new Date(effective);
    return { ...row, effective_at: at >= startedAt ? 'now' : at.toISOString() };
  });
}

async function play(database: Database): Promise<string | null> {
  for (const statement of SCRIPT) await database.sql.query(statement);
  try {
    await database.sql.query(FORBIDDEN);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe('the ledger’s statement-level triggers', () => {
  it('write exactly the entries the row triggers wrote, in the same order for each row', async () => {
    const refusedByRows = await play(rowTriggers.database);
    const refusedByStatements = await play(statementTriggers.database);
    expect(refusedByRows).toMatch(/cent amount cannot move back from payable to pending/);
    expect(refusedByStatements).toBe(refusedByRows);

    const byRows = await entries(rowTriggers.database);
    const byStatements = await entries(statementTriggers.database);
    // The script goes through every movement the ledger knows, some dated by now().
    expect(new Set(byRows.map((entry) => entry.kind))).toEqual(
      new Set([
        'earned',
        'approved',
        'scheduled',
        'paid',
        'payout-failed',
        'released',
        'reversed',
        'adjusted',
        'clawed-back',
        'held',
        'released-from-review',
      ]),
    );
    expect(byRows.some((entry) => entry.effective_at === 'now')).toBe(true);
    expect(byStatements).toEqual(byRows);
  });
});
