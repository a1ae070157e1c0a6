import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveDueCommissions } from '../src/domain/commission-approval.ts';
import { ledgerBalances } from '../src/domain/ledger.ts';
import { markPayouts } from '../src/features/payouts/payout-lifecycle.ts';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { runDueJobs } from '../src/jobs/scheduler.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn, insertConversions } from './helpers/affiliates.ts';
import { createOperator, createPayee } from './fixtures/payouts.ts';

// The ledger for the accountant and its reconciliation, as an operator uses them
// (docs/product/money.md#ledger-export, docs/product/money.md#the-ledger).

let t: TestApp;
let operator: { cookie: string; userId: string };
let payee: Awaited<ReturnType<typeof createPayee>>;

/** RFC 4180 lines of a CSV file, each a list of cells. */
function parseCsv(content: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < content.length; i++) {
    const char = content[i]!;
    if (quoted) {
      if (char === '"' && content[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && content[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  return rows;
}

function records(content: string): Record<string, string>[] {
  const [header, ...lines] = parseCsv(content);
  return lines.map((line) => Object.fromEntries(header!.map((name, index) => [name, line[index] ?? ''])));
}

const cents = (dollars: string | undefined) => Math.round(Number(dollars) * 100);

beforeAll(async () => {
  t = await createTestApp();
  t.clock.now = new Date('2025-03-10T12:00:00.000Z');
  operator = await createOperator(t);
  payee = await createPayee(t, 'paypal', { firstName: 'Ada', lastName: 'Lovelace' });
  // Twelve commissions in March: approved in April, paid on the 15th of May.
  await insertConversions(t, payee.affiliateId, 12, { occurredAt: new Date('2025-03-05T10:00:00.000Z') });
  t.clock.now = new Date('2025-04-05T00:00:00.000Z');
  await approveDueCommissions(t.context);
  await t.database.sql.query(
    `INSERT INTO commission_adjustments (affiliate_id, amount_cents, reason, created_at) VALUES ($1, -150, $2, $3)`,
    [payee.affiliateId, '=HYPERLINK("http://example.com")', '2025-04-20T00:00:00.000Z'],
  );
  t.clock.now = new Date('2025-05-15T06:00:00.000Z');
  await runPayouts(t.context, '2025-05-15');
  const { rows } = await t.database.sql.query<{ id: string }>(
    `SELECT id::text AS id FROM payouts WHERE affiliate_id = $1`,
    [payee.affiliateId],
  );
  await markPayouts(t.context, { payoutIds: rows.map((row) => row.id), status: 'sent', actor: operator.userId });
});
afterAll(() => t.close());

describe('the ledger export', () => {
  it('gives one line per entry, with its affiliate, rule version, event and payout, and a monthly summary', async () => {
    const response = await callFn(t, 'adminExportLedger', { from: '2025-03', to: '2025-05' }, operator.cookie);
    expect(response.status).toBe(200);
    const { entries, summary } = response.body.result;
    expect(entries.fileName).toBe('skanova-ledger-2025-03_2025-05.csv');
    expect(entries.contentType).toBe('text/csv; charset=utf-8');

    const lines = records(entries.content).filter((line) => line.affiliate_id === payee.affiliateId);
    const byKind = (kind: string) => lines.filter((line) => line.kind === kind);
    expect(byKind('earned')).toHaveLength(12);
    expect(byKind('approved')).toHaveLength(12);
    expect(byKind('scheduled')).toHaveLength(13);
    expect(byKind('paid')).toHaveLength(13);
    expect(byKind('earned')[0]).toMatchObject({
      affiliate_name: 'Ada Lovelace',
      group_id: 'default',
      rule_version: '1',
      from_account: 'programme',
      to_account: 'pending',
      amount_usd: '2.00',
      effective_at: '2025-03-05T10:00:00.000Z',
    });
    expect(byKind('earned')[0]!.source_event_id).not.toBe('');
    const paid = byKind('paid');
    expect(new Set(paid.map((line) => line.payout_reference)).size).toBe(1);
    expect(paid.reduce((sum, line) => sum + cents(line.amount_usd), 0)).toBe(12 * 200 - 150);
    // An operator's text is never a formula in a spreadsheet.
    expect(byKind('adjusted')[0]).toMatchObject({
      adjustment_reason: `'=HYPERLINK("http://example.com")`,
      amount_usd: '-1.50',
    });

    const months = records(summary.content).filter((line) => line.affiliate_id === payee.affiliateId);
    expect(months.map((line) => line.month)).toEqual(['2025-03', '2025-04', '2025-05']);
    expect(months[0]).toMatchObject({ earned_usd: '24.00', closing_pending_usd: '24.00', closing_payable_usd: '0.00' });
    expect(months[1]).toMatchObject({ approved_usd: '24.00', adjusted_usd: '-1.50', closing_payable_usd: '22.50' });
    const balances = await ledgerBalances(t.database.sql, payee.affiliateId, t.clock.now);
    expect(months[2]).toMatchObject({
      paid_usd: '22.50',
      closing_pending_usd: '0.00',
      closing_payable_usd: '0.00',
      closing_paid_usd: (balances.paidCents / 100).toFixed(2),
    });

    const { rows: audit } = await t.database.sql.query<{ action: string; subject: string }>(
      `SELECT action, subject FROM audit_log WHERE action = 'ledger.exported'`,
    );
    expect(audit).toEqual([{ action: 'ledger.exported', subject: '2025-03..2025-05' }]);
  });

  it('refuses a period that ends before it starts, or spans more than 12 months, field by field', async () => {
    for (const [period, key] of [
      [{ from: '2025-05', to: '2025-03' }, 'admin:ledger.errors.periodReversed'],
      [{ from: '2024-01', to: '2025-01' }, 'admin:ledger.errors.periodTooLong'],
      [{ from: '2025-13', to: '2025-12' }, 'admin:ledger.errors.month'],
    ] as const) {
      const response = await callFn(t, 'adminExportLedger', period, operator.cookie);
      expect(response.status).toBe(400);
      expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
      expect(response.body.error?.details?.fields).toContainEqual({ path: expect.any(String), key });
    }
  });

  it('is for operators only', async () => {
    const response = await callFn(t, 'adminExportLedger', { from: '2025-03', to: '2025-05' }, payee.cookie);
    expect(response.status).toBe(403);
  });
});

describe('the reconciliation', () => {
  it('finds nothing to report when the books agree, as an operator action and as a daily job', async () => {
    const response = await callFn(t, 'adminReconcileLedger', null, operator.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ checkedAt: t.clock.now.toISOString(), differences: [] });
    const outcomes = await runDueJobs(t.context);
    expect(outcomes['ledger-reconciliation']).toBe('done');
  });

  it('names the affiliate and the account when they do not', async () => {
    // A payout no commission makes up: the books say more was paid than the ledger moved.
    await t.database.sql.query(
      `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, method, method_snapshot, status, scheduled_for)
       VALUES ($1, '2025-06-01', '2025-06-30', 999, 'paypal', '{}', 'paid', '2025-07-15')`,
      [payee.affiliateId],
    );
    const after = await callFn(t, 'adminReconcileLedger', null, operator.cookie);
    expect(after.body.result.differences).toEqual([
      { affiliateId: payee.affiliateId, account: 'paid', ledgerCents: 2250, expectedCents: 3249, source: 'payouts' },
    ]);
  });
});
