import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import {
  STATS_FROM_ROWS_SQL,
  STATS_SQL,
  statsParameters,
} from '../apps/server/src/features/affiliate/affiliate-stats.ts';
import { type Figures, figures, formatNumber, withBenchPostgres } from './lib/bench-process.ts';
import { runAsScript } from './lib/run-as-script.ts';
import { STATS_SEED, seedStats } from './seed-stats.ts';

// The dashboard's totals (migrations/0016_dashboard_totals.sql) on PostgreSQL with the statistics
// benchmark's 100,000 conversions (its visits cut to 100,000: the statements read only each code's
// total of them), on one connection:
// 1. the statistics statement read from the totals against the same statement summing the rows
//    (STATS_FROM_ROWS_SQL), alternating, affiliate by affiliate, for the 40 affiliates with the most
//    conversions; and each one's EXPLAIN (ANALYZE, BUFFERS) for the busiest;
// 2. what the totals' triggers add to the writes that move them: a conversion recorded (one INSERT, as
//    the store's webhook writes it) then approved (one UPDATE, as the approval job moves it), one
//    statement each; and an approval of 2,000 conversions in one statement. Batches alternate with the
//    triggers turned off and on. The visits' path writes none of these tables.
//
//   node --import tsx bench/dashboard-totals.bench.ts     # ROUNDS=<n>, 10 by default

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const AFFILIATES = 40;
const SINGLE_BATCH = 200;
const BULK = 2_000;

const TRIGGERS = {
  off: `ALTER TABLE conversions DISABLE TRIGGER conversions_totals_inserted, DISABLE TRIGGER conversions_totals_updated,
          DISABLE TRIGGER conversions_totals_deleted;
        ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_totals`,
  on: `ALTER TABLE conversions ENABLE TRIGGER conversions_totals_inserted, ENABLE TRIGGER conversions_totals_updated,
         ENABLE TRIGGER conversions_totals_deleted;
       ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_totals`,
};

/** One statement's plan summary: execution time and shared buffers hit. */
function planSummary(plan: string): string {
  const execution = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
  const planning = /Planning Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
  const top = /Buffers: shared hit=(\d+)/.exec(plan)?.[1] ?? '?';
  return `execution ${execution} ms, planning ${planning} ms, shared buffers hit ${top}`;
}

export default async function run(): Promise<string> {
  return withBenchPostgres(async (url) => {
    const database = openDatabase({ url, poolSize: 2 });
    const sql = database.sql;
    try {
      await migrate(sql);
      await seedStats(sql, { ...STATS_SEED, clicks: 100_000 });
      await sql.exec('VACUUM ANALYZE');
      const { rows: busiest } = await sql.query<{ affiliate_id: string }>(
        `SELECT affiliate_id FROM conversions GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $1`,
        [AFFILIATES],
      );
      const now = new Date();

      // 1. The statement.
      const statements = { totals: STATS_SQL, rows: STATS_FROM_ROWS_SQL };
      const samples = { totals: [] as number[], rows: [] as number[] };
      let differing = 0;
      for (let round = 0; round <= ROUNDS; round++) {
        for (const { affiliate_id: affiliateId } of busiest) {
          const answers: Record<string, string> = {};
          for (const kind of round % 2 === 0 ? (['totals', 'rows'] as const) : (['rows', 'totals'] as const)) {
            const started = performance.now();
            const { rows } = await sql.query(statements[kind], statsParameters(affiliateId, now), {
              name: `stats-${kind}`,
            });
            const elapsed = performance.now() - started;
            if (round > 0) samples[kind].push(elapsed);
            answers[kind] = JSON.stringify(rows[0], (_key, value: unknown) =>
              typeof value === 'bigint' || (typeof value === 'string' && /^-?\d+$/.test(value)) ? Number(value) : value,
            );
          }
          if (answers.totals !== answers.rows) differing += 1;
        }
      }
      const plans: Record<string, string> = {};
      for (const kind of ['totals', 'rows'] as const) {
        const { rows } = await sql.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${statements[kind]}`,
          statsParameters(busiest[0]!.affiliate_id, now),
        );
        plans[kind] = rows.map((row) => row['QUERY PLAN']).join('\n');
      }

      // 2. The writes.
      const { rows: codes } = await sql.query<{ id: string; affiliate_id: string }>(
        `SELECT id::text AS id, affiliate_id FROM referral_codes WHERE affiliate_id = ANY($1::text[]) ORDER BY id`,
        [busiest.map((row) => row.affiliate_id)],
      );
      let event = 0;
      const single = { off: [] as number[], on: [] as number[] };
      const bulk = { off: [] as number[], on: [] as number[] };
      for (let round = 0; round <= ROUNDS; round++) {
        for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
          await sql.exec(TRIGGERS[mode]);
          const started = performance.now();
          for (let i = 0; i < SINGLE_BATCH; i++) {
            const code = codes[event % codes.length]!;
            event += 1;
            const { rows } = await sql.query<{ id: string }>(
              `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, referral_code_id, occurred_at,
                                        commission_cents, rate_tier)
               VALUES ($1, $1, $2, $3, $4, 200, 'standard') RETURNING id::text AS id`,
              [`totals-bench-${event}`, code.affiliate_id, code.id, now.toISOString()],
              { name: 'bench-insert-conversion' },
            );
            await sql.query(
              `UPDATE conversions SET status = 'approved', approved_at = $2 WHERE id = $1`,
              [rows[0]!.id, now.toISOString()],
              { name: 'bench-approve-conversion' },
            );
          }
          if (round > 0) single[mode].push(((performance.now() - started) * 1000) / SINGLE_BATCH);

          // BULK pending conversions, then their approval in one statement (timed).
          const first = event;
          const { rows: pending } = await sql.query<{ id: string }>(
            `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, referral_code_id, occurred_at,
                                      commission_cents, rate_tier)
             SELECT 'totals-bench-' || ($1 + g), 'totals-bench-' || ($1 + g), c.affiliate_id, c.id, $3, 200, 'standard'
             FROM generate_series(1, $2) g
             JOIN LATERAL (SELECT * FROM referral_codes r WHERE r.affiliate_id = ANY($4::text[])
                           ORDER BY r.id OFFSET (g % 100) LIMIT 1) c ON true
             RETURNING id::text AS id`,
            [first, BULK, now.toISOString(), busiest.map((row) => row.affiliate_id)],
          );
          event += BULK;
          const bulkStarted = performance.now();
          await sql.query(`UPDATE conversions SET status = 'approved', approved_at = $2 WHERE id = ANY($1::bigint[])`, [
            `{${pending.map((row) => row.id).join(',')}}`,
            now.toISOString(),
          ]);
          if (round > 0) bulk[mode].push(performance.now() - bulkStarted);
        }
      }
      await sql.exec(TRIGGERS.on);

      const line = (name: string, f: Figures, digits = 2) =>
        `| ${name} | ${formatNumber(f.p50, digits)} | ${formatNumber(f.p99, digits)} | ${formatNumber(f.mean, digits)} |`;
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      return [
        `${AFFILIATES} busiest affiliates × ${ROUNDS} rounds, the two statements alternating (client-side time, one connection):`,
        '',
        '| Statistics statement | p50 (ms) | p99 (ms) | mean (ms) |',
        '| --- | ---: | ---: | ---: |',
        line('read from the totals (STATS_SQL)', figures(samples.totals), 3),
        line('summed from the rows (STATS_FROM_ROWS_SQL)', figures(samples.rows), 3),
        '',
        `Answers that differed between the two: ${differing}.`,
        `EXPLAIN (ANALYZE, BUFFERS), the busiest affiliate: from the totals ${planSummary(plans.totals!)}; from the rows ${planSummary(plans.rows!)}.`,
        '',
        `Writes, ${ROUNDS} rounds, triggers off and on alternating (client-side time, one connection):`,
        '',
        '| Write | totals\u2019 triggers off | on | difference |',
        '| --- | ---: | ---: | ---: |',
        `| a conversion recorded then approved, one statement each (µs a conversion, mean of ${SINGLE_BATCH}-conversion batches) | ${formatNumber(mean(single.off))} | ${formatNumber(mean(single.on))} | ${formatNumber(mean(single.on) - mean(single.off))} |`,
        `| ${formatNumber(BULK)} conversions approved in one statement (ms) | ${formatNumber(mean(bulk.off), 1)} | ${formatNumber(mean(bulk.on), 1)} | ${formatNumber(mean(bulk.on) - mean(bulk.off), 1)} |`,
        '',
        process.env.BENCH_PLANS ? `Plans:\n\n${plans.totals}\n\n${plans.rows}` : '',
      ].join('\n');
    } finally {
      await database.close();
    }
  });
}

runAsScript(import.meta.url, run);
