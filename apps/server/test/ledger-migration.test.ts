import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate, readMigrations } from '../src/db/migrate.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { LEDGER_TOTALS_CTES, reconcileLedger } from '../src/domain/ledger.ts';
import { EARNINGS_TOTALS_CTES } from '../src/domain/money.ts';
import { TEST_DB, createTestDatabaseUrl } from './helpers/database.ts';

// The ledger's migration (migrations/0007_ledger.sql): a database of the programme before the ledger —
// commissions pending, approved, reversed, in scheduled, sent, paid and failed payouts, credits and
// clawbacks — keeps every affiliate's figures, now summed from the ledger, and reconciles to the cent.

const LEDGER_MIGRATION = '0007_ledger';
const CUTOFF = '2025-06-01T00:00:00.000Z';
const RECENT = '2025-05-10T00:00:00.000Z';

let database: Database;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (TEST_DB === 'postgres') {
    const created = await createTestDatabaseUrl({ migrated: false });
    drop = created.drop;
    database = openDatabase({ url: created.url, poolSize: 2 });
  } else {
    database = openDatabase({ pgliteDir: 'memory://' });
  }
  await migrate(
    database.sql,
    readMigrations().filter((migration) => migration.name < LEDGER_MIGRATION),
  );
});
afterAll(async () => {
  await database.close();
  await drop?.();
});

let eventCount = 0;

async function affiliate(id: string): Promise<void> {
  await database.sql.query(`INSERT INTO affiliates (id, status) VALUES ($1, 'active')`, [id]);
}

async function payout(affiliateId: string, status: string, periodStart: string, amountCents: number): Promise<string> {
  const { rows } = await database.sql.query<{ id: string }>(
    `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, method, method_snapshot, status,
                          scheduled_for, sent_at, failed_at, created_at)
     VALUES ($1, $2::date, ($2::date + 27), $3, 'paypal', '{}', $4, ($2::date + 45), $5, $6, ($2::date + 45))
     RETURNING id::text AS id`,
    [
      affiliateId,
      periodStart,
      amountCents,
      status,
      status === 'sent' || status === 'paid' ? `${periodStart}T12:00:00Z` : null,
      status === 'failed' ? `${periodStart}T13:00:00Z` : null,
    ],
  );
  return rows[0]!.id;
}

async function conversion(
  affiliateId: string,
  options: { cents?: number; status: string; occurredAt: string; approvedAt?: string; payoutId?: string },
): Promise<number> {
  const { rows } = await database.sql.query<{ id: number }>(
    `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier,
                              status, approved_at, reversed_at, payout_id)
     VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::int AS id`,
    [
      `migration-event-${++eventCount}`,
      affiliateId,
      options.occurredAt,
      options.cents ?? 200,
      (options.cents ?? 200) > 200 ? 'premium' : 'standard',
      options.status,
      options.approvedAt ?? null,
      options.status === 'reversed' ? '2025-05-20T00:00:00Z' : null,
      options.payoutId ?? null,
    ],
  );
  return rows[0]!.id;
}

async function adjustment(affiliateId: string, cents: number, options: { conversionId?: number; payoutId?: string }) {
  await database.sql.query(
    `INSERT INTO commission_adjustments (affiliate_id, conversion_id, amount_cents, reason, payout_id, created_at)
     VALUES ($1, $2, $3, 'seeded', $4, '2025-05-02T00:00:00Z')`,
    [affiliateId, options.conversionId ?? null, cents, options.payoutId ?? null],
  );
}

async function totals(
  ctes: string,
  affiliateId: string,
  sql: Pick<Database['sql'], 'query'> = database.sql,
): Promise<Record<string, number>> {
  const { rows } = await sql.query<Record<string, unknown>>(`WITH ${ctes} SELECT * FROM totals`, [
    affiliateId,
    CUTOFF,
    RECENT,
  ]);
  return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
}

class RolledBack extends Error {}

/**
 * Today's row rules before the ledger: they read columns that later migrations add with a default
 * for existing rows (`kind`, 0009; `review_hold`, 0012). They are added with those defaults for the
 * reading, in a transaction rolled back after it, so the migrations then run on the old schema.
 */
async function totalsBeforeLedger(affiliateId: string): Promise<Record<string, number>> {
  let figures: Record<string, number> = {};
  await inTransaction({ database }, async (tx) => {
    await tx.query(
      `ALTER TABLE conversions ADD COLUMN kind text NOT NULL DEFAULT 'first-purchase',
                               ADD COLUMN review_hold boolean NOT NULL DEFAULT false`,
    );
    figures = await totals(EARNINGS_TOTALS_CTES, affiliateId, tx);
    throw new RolledBack();
  }).catch((error: unknown) => {
    if (!(error instanceof RolledBack)) throw error;
  });
  return figures;
}

describe('the ledger migration', () => {
  it('keeps every affiliate’s figures and reconciles to the cent', async () => {
    const ids = ['aff-paid', 'aff-mixed', 'aff-failed', 'aff-empty'];
    for (const id of ids) await affiliate(id);

    // Paid in January, sent in April, scheduled in May; commissions approved before and after the cut-off.
    const january = await payout('aff-paid', 'paid', '2025-01-01', 1800);
    for (let i = 0; i < 9; i++)
      await conversion('aff-paid', {
        status: 'paid',
        occurredAt: '2024-12-01T00:00:00Z',
        approvedAt: '2024-12-31T00:00:00Z',
        payoutId: january,
      });
    const april = await payout('aff-paid', 'sent', '2025-04-01', 2400);
    for (let i = 0; i < 12; i++)
      await conversion('aff-paid', {
        status: 'approved',
        occurredAt: '2025-03-01T00:00:00Z',
        approvedAt: '2025-03-31T00:00:00Z',
        payoutId: april,
      });
    const may = await payout('aff-mixed', 'scheduled', '2025-05-01', 4000);
    const premium = await conversion('aff-mixed', {
      cents: 400,
      status: 'approved',
      occurredAt: '2025-04-01T00:00:00Z',
      approvedAt: '2025-05-01T00:00:00Z',
      payoutId: may,
    });
    for (let i = 0; i < 9; i++)
      await conversion('aff-mixed', {
        cents: 400,
        status: 'approved',
        occurredAt: '2025-04-01T00:00:00Z',
        approvedAt: '2025-05-01T00:00:00Z',
        payoutId: may,
      });
    await conversion('aff-mixed', {
      status: 'approved',
      occurredAt: '2025-05-05T00:00:00Z',
      approvedAt: '2025-06-04T00:00:00Z',
    });
    await conversion('aff-mixed', { status: 'pending', occurredAt: '2025-05-20T00:00:00Z' });
    await conversion('aff-mixed', { status: 'reversed', occurredAt: '2025-05-12T00:00:00Z' });
    // A refund after the scheduled payout: clawed back from the next one; a credit; a deduction.
    await adjustment('aff-mixed', -400, { conversionId: premium });
    await adjustment('aff-mixed', 500, {});
    await adjustment('aff-paid', -200, { payoutId: april });

    // A failed payout gave its rows back to the balance.
    await payout('aff-failed', 'failed', '2025-03-01', 2000);
    for (let i = 0; i < 10; i++)
      await conversion('aff-failed', {
        status: 'approved',
        occurredAt: '2025-02-01T00:00:00Z',
        approvedAt: '2025-03-03T00:00:00Z',
      });

    // The April payout's amount is its rows' sum less the deduction it carries.
    await database.sql.query(`UPDATE payouts SET amount_cents = 2200 WHERE id = $1`, [april]);

    // The row rules as they read a database of that time: before renewals (0009) every conversion was
    // a first purchase, and `conversions.kind` did not exist yet.
    const before = new Map<string, Record<string, number>>();
    for (const id of ids) before.set(id, await totalsBeforeLedger(id));
    expect(before.get('aff-mixed')).toMatchObject({ qualified: 12, total_cents: 4500, payable_cents: 100 });

    expect(await migrate(database.sql)).toContain(LEDGER_MIGRATION);

    for (const id of ids) {
      expect({ id, ...(await totals(LEDGER_TOTALS_CTES, id)) }).toEqual({ id, ...before.get(id) });
      expect({ id, ...(await totals(EARNINGS_TOTALS_CTES, id)) }).toEqual({ id, ...before.get(id) });
    }
    expect(await reconcileLedger(database.sql)).toEqual([]);

    // Each commission was priced by the default group's first rule, with the hold it had.
    const { rows: rules } = await database.sql.query<{ group_id: string; version: number; n: number }>(
      `SELECT r.group_id, r.version, count(*)::int AS n FROM conversions c JOIN reward_rules r ON r.id = c.rule_id
       GROUP BY 1, 2`,
    );
    expect(rules).toEqual([{ group_id: 'default', version: 1, n: 44 }]);
    const { rows: groups } = await database.sql.query<{ group_id: string; n: number }>(
      `SELECT group_id, count(*)::int AS n FROM affiliates GROUP BY 1`,
    );
    expect(groups).toEqual([{ group_id: 'default', n: 4 }]);
    // A reversed commission's history: earned, then reversed.
    const { rows: reversed } = await database.sql.query<{ kind: string }>(
      `SELECT e.kind FROM ledger_entries e JOIN conversions c ON c.id = e.conversion_id
       WHERE c.status = 'reversed' ORDER BY e.id`,
    );
    expect(reversed.map((row) => row.kind)).toEqual(['earned', 'reversed']);
  });
});
