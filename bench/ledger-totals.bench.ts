import { recentActivityWindow } from '@skanova/shared/affiliate/recent-activity';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { LEDGER_TOTALS_CTES, reconcileLedger } from '../apps/server/src/domain/ledger.ts';
import { EARNINGS_TOTALS_CTES, nextPayoutCutoff } from '../apps/server/src/domain/money.ts';
import { type Figures, figures, formatNumber, withBenchPostgres } from './lib/bench-process.ts';
import { runAsScript } from './lib/run-as-script.ts';
import { STATS_SEED, seedStats } from './seed-stats.ts';

// The dashboard's money totals read from the ledger against the same totals over the rows, the way they
// were read before the ledger (docs/decisions/026-money-ledger.md), on PostgreSQL with the statistics
// benchmark's 100,000 conversions (its visits cut to 100,000: neither statement reads them). The two
// statements alternate, affiliate by affiliate, in one run: only figures of the same run are compared.
// The whole request (session, codes, visits) is the statistics benchmark's: bench/stats.bench.ts.
//
//   node --import tsx bench/ledger-totals.bench.ts        # ROUNDS=<n>, 20 by default

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const AFFILIATES = 40;

export default async function run(): Promise<string> {
  return withBenchPostgres(async (url) => {
    const database = openDatabase({ url, poolSize: 2 });
    try {
      await migrate(database.sql);
      const seeded = await seedStats(database.sql, { ...STATS_SEED, clicks: 100_000 });
      await database.sql.exec('VACUUM ANALYZE');
      const { rows: counts } = await database.sql.query<{ entries: number; conversions: number }>(
        `SELECT (SELECT count(*) FROM ledger_entries)::int AS entries, (SELECT count(*) FROM conversions)::int AS conversions`,
      );
      const { rows: busiest } = await database.sql.query<{ affiliate_id: string }>(
        `SELECT affiliate_id FROM conversions GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $1`,
        [AFFILIATES],
      );
      const now = new Date();
      const params = (affiliateId: string) => [
        affiliateId,
        nextPayoutCutoff(now).toISOString(),
        recentActivityWindow(now).start.toISOString(),
      ];
      const statements = {
        ledger: `WITH ${LEDGER_TOTALS_CTES} SELECT * FROM totals`,
        rows: `WITH ${EARNINGS_TOTALS_CTES} SELECT * FROM totals`,
      };
      const samples = { ledger: [] as number[], rows: [] as number[] };
      let differing = 0;
      for (let round = 0; round <= ROUNDS; round++) {
        for (const { affiliate_id: affiliateId } of busiest) {
          const answers: Record<string, string> = {};
          for (const kind of round % 2 === 0 ? (['ledger', 'rows'] as const) : (['rows', 'ledger'] as const)) {
            const started = performance.now();
            const { rows } = await database.sql.query(statements[kind], params(affiliateId));
            const elapsed = performance.now() - started;
            // Round 0 warms the caches up.
            if (round > 0) samples[kind].push(elapsed);
            answers[kind] = JSON.stringify(rows[0], (_key, value: unknown) =>
              typeof value === 'bigint' || typeof value === 'string' ? Number(value) : value,
            );
          }
          if (answers.ledger !== answers.rows) differing += 1;
        }
      }
      const reconciling = await reconcileLedger(database.sql);
      const ledger = figures(samples.ledger);
      const rows = figures(samples.rows);
      const line = (name: string, f: Figures) =>
        `| ${name} | ${formatNumber(f.p50, 2)} | ${formatNumber(f.p99, 2)} | ${formatNumber(f.mean, 2)} |`;
      return [
        `Seeded in ${Object.values(seeded)
          .reduce((sum, seconds) => sum + seconds, 0)
          .toFixed(
            1,
          )} s: ${formatNumber(counts[0]!.conversions)} conversions, ${formatNumber(counts[0]!.entries)} ledger entries.`,
        `${AFFILIATES} busiest affiliates × ${ROUNDS} rounds, the two statements alternating (client-side time, one connection):`,
        '',
        '| Totals read from | p50 (ms) | p99 (ms) | mean (ms) |',
        '| --- | ---: | ---: | ---: |',
        line('the ledger (LEDGER_TOTALS_CTES)', ledger),
        line('the rows (EARNINGS_TOTALS_CTES)', rows),
        '',
        `Answers that differed between the two: ${differing}. Accounts that do not reconcile: ${reconciling.length}.`,
      ].join('\n');
    } finally {
      await database.close();
    }
  });
}

runAsScript(import.meta.url, run);
