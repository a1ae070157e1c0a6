import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { createOperator } from '../src/demo/operator.ts';
import { DEMO_AFFILIATES, type DemoSummary, seedDemo } from '../src/demo/seed-demo.ts';
import { TEST_DB, createTestDatabase } from './helpers/database.ts';
import { testConfig } from './helpers/app.ts';

// The demo (`npm run demo`) is consistent with its own clock: nothing of the programme is dated after
// the seed's "now", each affiliate joined on a day of the seeded history (not on the day it was
// seeded), and the dashboard's 30-day card equals the sum of its 30-day chart.
//
// Runs on the embedded database only: the demo refuses DATABASE_URL, so the PostgreSQL project has
// nothing more to prove here and skips the seed (half a minute).

const DAY_MS = 24 * 60 * 60 * 1000;

/** Dates that are in the future by design (expiries, retry times), not events. */
const FUTURE_BY_DESIGN = new Set([
  'auth_sessions.expires_at',
  'auth_verifications.expires_at',
  'auth_accounts.access_token_expires_at',
  'auth_accounts.refresh_token_expires_at',
  'auth_users.ban_expires',
  'email_outbox.next_attempt_at',
  // The end of a commission's hold: a month after its purchase.
  'conversions.approvable_at',
]);

/**
 * Rows the programme's clock does not date: the auth library's accounts and sessions, the e-mail
 * queue's bookkeeping, the measurements the server stamps on receipt and the migrations carry the
 * machine's time of the seeding, which is before the demo is served — never later than that.
 */
const MACHINE_CLOCK_TABLES = new Set([
  'auth_users',
  'auth_accounts',
  'auth_sessions',
  'auth_verifications',
  'email_outbox',
  'web_vitals',
  'schema_migrations',
]);

/** Columns the database stamps with the machine's time of writing (the ledger's `recorded_at`). */
const MACHINE_CLOCK_COLUMNS = new Set(['ledger_entries.recorded_at']);

describe.skipIf(TEST_DB === 'postgres')('the demo seed', () => {
  let database: Database;
  let dataDir: string;
  let summary: DemoSummary;
  let seededAt: number;
  const config = () => testConfig({ DATA_DIR: dataDir });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'skanova-demo-'));
    database = await createTestDatabase();
    summary = await seedDemo(config(), database, createOperator);
    seededAt = Date.now();
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function timestampColumns(): Promise<{ table: string; column: string; latest: Date | null }[]> {
    const { rows } = await database.sql.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type LIKE 'timestamp%' ORDER BY 1, 2`,
    );
    const columns = [];
    for (const { table_name: table, column_name: column } of rows) {
      const latest = await database.sql.query<{ latest: Date | string | null }>(
        `SELECT max("${column}") AS latest FROM "${table}"`,
      );
      const value = latest.rows[0]?.latest ?? null;
      columns.push({ table, column, latest: value === null ? null : new Date(value) });
    }
    return columns;
  }

  it('dates no event of the programme after its clock', async () => {
    const columns = await timestampColumns();
    expect(columns.filter((entry) => entry.table === 'conversions').length).toBeGreaterThan(0);
    const late = columns
      .filter((entry) => !FUTURE_BY_DESIGN.has(`${entry.table}.${entry.column}`))
      .filter((entry) => entry.latest !== null)
      .filter((entry) => {
        const machineClock =
          MACHINE_CLOCK_TABLES.has(entry.table) || MACHINE_CLOCK_COLUMNS.has(`${entry.table}.${entry.column}`);
        const limit = machineClock ? seededAt : summary.now.getTime();
        return entry.latest!.getTime() > limit;
      })
      .map((entry) => `${entry.table}.${entry.column} ${entry.latest!.toISOString()}`);
    expect(late, `seed clock ${summary.now.toISOString()}`).toEqual([]);

    // The programme really reaches "now": there was recent activity to date.
    const { rows } = await database.sql.query<{ latest: Date | string }>(
      'SELECT max(created_at) AS latest FROM clicks',
    );
    expect(summary.now.getTime() - new Date(rows[0]!.latest).getTime()).toBeLessThan(3 * DAY_MS);
  });

  it('has each affiliate join on their day of the history, before their first visit', async () => {
    const { rows } = await database.sql.query<{
      email: string;
      joined: Date | string;
      terms: Date | string;
      first_code: Date | string;
      first_click: Date | string | null;
    }>(
      `SELECT u.email, a.created_at AS joined, a.terms_accepted_at AS terms,
              (SELECT min(k.created_at) FROM referral_codes k WHERE k.affiliate_id = a.id) AS first_code,
              (SELECT min(c.created_at) FROM clicks c JOIN referral_codes k ON k.id = c.referral_code_id
                WHERE k.affiliate_id = a.id) AS first_click
       FROM affiliates a JOIN auth_users u ON u.id = a.user_id ORDER BY a.created_at`,
    );
    expect(rows.map((row) => row.email)).toEqual(DEMO_AFFILIATES.map((affiliate) => affiliate.email));
    const joined = rows.map((row) => new Date(row.joined).getTime());
    // Spread over the history: the first about six months ago, none on the day of the seed.
    expect(summary.now.getTime() - joined[0]!).toBeGreaterThan(150 * DAY_MS);
    for (const time of joined) expect(summary.now.getTime() - time).toBeGreaterThan(60 * DAY_MS);
    expect(new Set(rows.map((row) => new Date(row.joined).toISOString().slice(0, 10))).size).toBe(rows.length);
    for (const row of rows) {
      expect(new Date(row.terms).getTime(), row.email).toBe(new Date(row.joined).getTime());
      expect(new Date(row.first_code).getTime(), row.email).toBeGreaterThanOrEqual(new Date(row.joined).getTime());
      expect(row.first_click, row.email).not.toBeNull();
      expect(new Date(row.first_click!).getTime(), row.email).toBeGreaterThan(new Date(row.joined).getTime());
    }
  });

  it('shows each affiliate a 30-day card equal to the sum of the 30-day chart', async () => {
    const { app } = await buildApp({ config: config(), database, now: () => summary.now, serveSite: false });
    await app.ready();
    try {
      const origin = config().publicOrigin;
      for (const affiliate of summary.affiliates) {
        const signIn = await app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers: { 'content-type': 'application/json', origin },
          payload: { email: affiliate.email, password: affiliate.password },
        });
        expect(signIn.statusCode, affiliate.email).toBe(200);
        const cookie = signIn.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
        const call = async (name: string) => {
          const response = await app.inject({
            method: 'POST',
            url: `/api/fn/${name}`,
            headers: { 'content-type': 'application/json', origin, cookie },
            payload: { data: null },
          });
          expect(response.statusCode, `${name} ${response.body}`).toBe(200);
          return response.json().result;
        };
        const stats = await call('getAffiliateStats');
        const timeline = await call('getAffiliateTimeline');
        const chart = (timeline.days as { conversions: number }[]).reduce((sum, day) => sum + day.conversions, 0);
        expect(stats.last30DaysCount, affiliate.email).toBe(chart);
        if (affiliate.email === DEMO_AFFILIATES[0]!.email) expect(chart).toBeGreaterThan(0);
      }
    } finally {
      await app.close();
    }
  });
});
