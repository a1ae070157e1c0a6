import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openDatabase, type SqlClient } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';

// The dashboard benchmark's data (docs/product/money.md#statistics): 1,000 affiliates with 1 to 10 referral codes each,
// 1,000,000 landing-page visits over the last 90 days (bots and repeat visits included, counted
// clicks in click_counts), 100,000 conversions over the last year (pending, approved, paid in a
// payout, some reversed; premium commissions after an affiliate's 100th), adjustments. Set-based SQL
// (generate_series): the database does the work in a few statements.
//
// Run alone, on a database of your choice (it must be empty of bench rows):
//   DATABASE_URL=postgres://… node --import tsx bench/seed-stats.ts
//   PGLITE_DIR=./data/bench-stats node --import tsx bench/seed-stats.ts

export interface StatsSeed {
  affiliates: number;
  clicks: number;
  conversions: number;
}

export const STATS_SEED: StatsSeed = { affiliates: 1_000, clicks: 1_000_000, conversions: 100_000 };

/** Visits spread over this many days before `now`; conversions over a year. */
const CLICK_DAYS = 90;
const CONVERSION_DAYS = 365;

/**
 * Adds bench rows until the database holds `seed.affiliates` affiliates (those already there, e.g.
 * signed up through the API to get real sessions, are kept and get the same kind of data), then
 * their codes, visits, conversions, payouts and adjustments. Answers the seconds each step took.
 */
export async function seedStats(
  sql: Pick<SqlClient, 'query' | 'exec'>,
  seed: StatsSeed = STATS_SEED,
  now = new Date(),
): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const step = async (name: string, text: string, params: unknown[] = []) => {
    const started = performance.now();
    await sql.query(text, params);
    timings[name] = Math.round(performance.now() - started) / 1000;
  };
  const at = now.toISOString();

  await step(
    'affiliates',
    `INSERT INTO affiliates (id, first_name, last_name, status, language, terms_accepted_at, created_at)
     SELECT 'bench-affiliate-' || lpad(g::text, 5, '0'), 'Bench', 'Affiliate ' || g, 'active', CASE WHEN g % 3 = 0 THEN 'en' ELSE 'fr' END,
            $2::timestamptz - interval '400 days', $2::timestamptz - interval '400 days'
     FROM generate_series(1, greatest(0, $1 - (SELECT count(*) FROM affiliates))) g`,
    [seed.affiliates, at],
  );

  // 1 to 10 codes per affiliate (5.5 on average), created over the year before the visits.
  await step(
    'referral codes',
    `INSERT INTO referral_codes (code, affiliate_id, description, created_at)
     SELECT 'B' || lpad(upper(to_hex(row_number() OVER (ORDER BY a.id, k))), 7, '0'), a.id,
            CASE WHEN k % 2 = 0 THEN 'Bench link ' || k END, $1::timestamptz - interval '380 days' + k * interval '1 day'
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM affiliates) a
     CROSS JOIN LATERAL generate_series(1, 1 + (a.n % 10)::int) k`,
    [at],
  );

  // Visits arrive in time order over the last 90 days, as they do in production (so the indexes grow
  // as they would); visit g goes to code (g × 7919 mod codes), a spread that gives every code its
  // share. 1 in 20 is a bot, 1 in 7 of the others a repeat visit within the hour (stored, not counted).
  await step(
    'clicks',
    `WITH codes AS (SELECT id, code, row_number() OVER (ORDER BY id) - 1 AS k FROM referral_codes),
          total AS (SELECT count(*) AS n FROM referral_codes)
     INSERT INTO clicks (tracking_id, type, code, referral_code_id, session_id, visitor_key, ip_hash, user_agent, language,
                         timezone, screen_resolution, platform, is_bot, counted, created_at)
     SELECT 'bench-' || lpad(g::text, 8, '0'), 'ref', c.code, c.id, 'session-' || g, 'visitor-' || lpad(g::text, 8, '0'), 'ip-' || (g % 65536),
            CASE WHEN g % 20 = 0 THEN 'facebookexternalhit/1.1' ELSE 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)' END,
            'fr-FR', 'Europe/Paris', '390x844', CASE WHEN g % 2 = 0 THEN 'ios' ELSE 'android' END,
            g % 20 = 0, g % 20 <> 0 AND g % 7 <> 0,
            $2::timestamptz - $3 * interval '1 day' + g * ($3 * interval '1 day' / $1)
     FROM generate_series(0, $1 - 1) g
     JOIN codes c ON c.k = (g::bigint * 7919) % (SELECT n FROM total)
     ORDER BY g`,
    [seed.clicks, at, CLICK_DAYS],
  );

  await step(
    'click counts',
    `INSERT INTO click_counts (referral_code_id, visitor_key, hour_bucket, click_id)
     SELECT referral_code_id, visitor_key, to_timestamp(floor(extract(epoch FROM created_at) / 3600) * 3600), id
     FROM clicks WHERE counted AND referral_code_id IS NOT NULL
     ORDER BY id
     ON CONFLICT DO NOTHING`,
  );

  // Conversions arrive in time order over the last year; conversion g goes to code (g × 104729 mod
  // codes). Its status follows its age: pending for 30 days, then approved, paid when older than 75
  // days (linked below to its payout); 1 in 20 reversed. Premium from each affiliate's 101st
  // qualified conversion (docs/product/money.md#premium-tier): amounts are written once, as the
  // ledger requires (docs/product/money.md#the-ledger).
  await step(
    'conversions',
    `WITH codes AS (SELECT id, affiliate_id, row_number() OVER (ORDER BY id) - 1 AS k FROM referral_codes),
          total AS (SELECT count(*) AS n FROM referral_codes),
          drawn AS (
            SELECT g, c.id AS code_id, c.affiliate_id,
                   $2::timestamptz - $3 * interval '1 day' + g * ($3 * interval '1 day' / $1) AS occurred_at,
                   g % 20 = 0 AS reversed
            FROM generate_series(0, $1 - 1) g
            JOIN codes c ON c.k = (g::bigint * 104729) % (SELECT n FROM total)
          ),
          ranked AS (
            SELECT d.*, row_number() OVER (PARTITION BY d.affiliate_id, d.reversed ORDER BY d.occurred_at, d.g) AS n
            FROM drawn d
          )
     INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, referral_code_id, store, product_id, occurred_at,
                              commission_cents, rate_tier, status, approved_at, reversed_at)
     SELECT 'bench-event-' || g, 'bench-user-' || g, affiliate_id, code_id, CASE WHEN g % 2 = 0 THEN 'app_store' ELSE 'play_store' END,
            'premium_monthly', occurred_at,
            CASE WHEN NOT reversed AND n > 100 THEN 400 ELSE 200 END,
            CASE WHEN NOT reversed AND n > 100 THEN 'premium' ELSE 'standard' END,
            CASE WHEN reversed THEN 'reversed'
                 WHEN occurred_at > $2::timestamptz - interval '30 days' THEN 'pending'
                 ELSE 'approved' END,
            CASE WHEN NOT reversed AND occurred_at <= $2::timestamptz - interval '30 days' THEN occurred_at + interval '30 days' END,
            CASE WHEN reversed THEN occurred_at + interval '10 days' END
     FROM ranked
     ORDER BY g`,
    [seed.conversions, at, CONVERSION_DAYS],
  );

  // One paid payout per affiliate (two months ago) of its conversions older than 75 days.
  await step(
    'payouts',
    `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, method, method_snapshot, status, scheduled_for, sent_at, paid_at)
     SELECT c.affiliate_id, date_trunc('month', $1::timestamptz - interval '3 months')::date, (date_trunc('month', $1::timestamptz - interval '2 months') - interval '1 day')::date,
            sum(c.commission_cents), 'paypal', '{"type":"paypal"}'::jsonb, 'paid', (date_trunc('month', $1::timestamptz - interval '2 months') + interval '14 days')::date,
            $1::timestamptz - interval '50 days', $1::timestamptz - interval '49 days'
     FROM conversions c
     WHERE c.status = 'approved' AND c.occurred_at < $1::timestamptz - interval '75 days'
     GROUP BY c.affiliate_id`,
    [at],
  );

  await step(
    'paid conversions',
    `UPDATE conversions c SET payout_id = p.id, status = 'paid'
     FROM payouts p
     WHERE p.affiliate_id = c.affiliate_id AND c.status = 'approved' AND c.occurred_at < $1::timestamptz - interval '75 days'`,
    [at],
  );

  // A clawback for one affiliate in ten, taken from the next payout.
  await step(
    'adjustments',
    `INSERT INTO commission_adjustments (affiliate_id, amount_cents, reason, created_at)
     SELECT id, -200, 'refund after payment', $1::timestamptz - interval '5 days'
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM affiliates) a WHERE a.n % 10 = 0`,
    [at],
  );

  const started = performance.now();
  // Fresh statistics for the planner, and the visibility map that lets counts read the indexes only.
  await sql.exec('VACUUM ANALYZE');
  timings['vacuum analyze'] = Math.round(performance.now() - started) / 1000;
  return timings;
}

async function main() {
  const database = openDatabase({ url: process.env.DATABASE_URL, pgliteDir: process.env.PGLITE_DIR ?? 'memory://' });
  try {
    await migrate(database.sql);
    const started = performance.now();
    const timings = await seedStats(database.sql);
    console.log(`Seeded ${database.kind} in ${((performance.now() - started) / 1000).toFixed(1)} s:`, timings);
    const { rows } = await database.sql.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM affiliates) AS affiliates, (SELECT count(*)::int FROM referral_codes) AS codes,
              (SELECT count(*)::int FROM clicks) AS clicks, (SELECT count(*)::int FROM click_counts) AS counted,
              (SELECT count(*)::int FROM conversions) AS conversions`,
    );
    console.log(rows[0]);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
