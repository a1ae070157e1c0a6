import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { StatsBenchReady } from './lib/stats-bench-server.ts';
import { REFERENCE_PATHS } from './lib/stats-references.ts';
import { runAsScript } from './lib/run-as-script.ts';
import { STATS_SEED } from './seed-stats.ts';
import {
  type CpuTimes,
  benchServerNodeFlags,
  cpuTimes,
  formatNumber as number,
  machineLoad,
  percentile,
  postgresCpu,
  postgresCpuBetween,
  startBenchServer,
  stopBenchServer,
  withBenchPostgres,
  withPgliteFolder,
} from './lib/bench-process.ts';

// The dashboard's statistics (docs/product/money.md#statistics): getAffiliateStats over HTTP with real session cookies,
// on a database seeded with 1,000 affiliates, 1,000,000 visits and 100,000 conversions
// (bench/seed-stats.ts), on the embedded PGlite (a data folder, as in production) and on PostgreSQL.
// Each request is one signed-in affiliate's dashboard opening, rotating over 40 affiliates: the
// session lookup, the profile and the statistics in one statement. Measured with one connection (the
// latency a person sees) and with ten (a busy moment). Then, at ten connections, what a request costs
// short of the statistics, on the same server process (stats-bench-server.ts): a route answering at
// once on a bare Fastify, a function of the product answering at once, one answering after finding its
// signed-in caller (the session lookup), and the statistics read in a statement of their own after the
// session's (two round trips) alternating twice with the statistics as they are read now. Before the
// load, every signed-in affiliate's statistics are checked against those summed from the rows.
// Run alone: node --import tsx bench/stats.bench.ts   (BENCH_DURATION=<seconds> to shorten)

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_SECONDS = 3;
const CONNECTION_COUNTS = [1, 10];
const TARGET_P99_MS = 10;
const SERVER_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'stats-bench-server.ts');
const STATS_PATH = '/api/fn/getAffiliateStats';

interface Measure {
  /** The route's label, in the report. */
  route: string;
  connections: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  /** Server CPU time per answered request (µs): all threads, and the main thread; null off Linux. */
  cpuPerRequest: CpuTimes | null;
  /** PostgreSQL's CPU time per answered request (µs); null for PGlite (inside the server) and off Linux. */
  databaseCpuPerRequest: number | null;
}

interface DatabaseResult {
  database: string;
  ready: StatsBenchReady;
  measures: Measure[];
  /** At 10 connections: the bare no-op, the product's no-op function, the caller alone, the statistics. */
  references: Measure[];
}

/** The routes compared at 10 connections, in the order they run. */
const REFERENCES = [
  { route: 'no-op route, bare Fastify', path: REFERENCE_PATHS.noop, bare: true },
  { route: 'function answering at once (no database)', path: REFERENCE_PATHS.noop, bare: false },
  { route: 'function finding its signed-in caller (session lookup)', path: REFERENCE_PATHS.caller, bare: false },
  // The statistics in a statement of their own after the session's, and read in the session's
  // statement (getAffiliateStats), alternating twice on the same server.
  {
    route: 'getAffiliateStats read after its caller (two statements)',
    path: REFERENCE_PATHS.statsAfterCaller,
    bare: false,
  },
  { route: 'getAffiliateStats', path: STATS_PATH, bare: false },
  {
    route: 'getAffiliateStats read after its caller (two statements)',
    path: REFERENCE_PATHS.statsAfterCaller,
    bare: false,
  },
  { route: 'getAffiliateStats', path: STATS_PATH, bare: false },
] as const;
const REFERENCE_CONNECTIONS = 10;

async function load(
  route: { route: string; path: string },
  port: number,
  pid: number | undefined,
  cookies: string[],
  connections: number,
  seconds: number,
  postgres: boolean,
): Promise<Measure> {
  let sequence = 0;
  const cpuBefore = cpuTimes(pid);
  const databaseBefore = postgres ? postgresCpu() : null;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: route.path,
            body: '{"data":null}',
            setupRequest: (request) => {
              sequence += 1;
              const cookie = cookies[sequence % cookies.length] as string;
              // Each request from its own client address (see the server's TRUST_PROXY).
              const client = `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
              return {
                ...request,
                headers: { ...request.headers, 'content-type': 'application/json', cookie, 'x-forwarded-for': client },
              };
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const cpuAfter = cpuTimes(pid);
  const databaseAfter = postgres ? postgresCpu() : null;
  latencies.sort((a, b) => a - b);
  const ok = result['2xx'];
  return {
    route: route.route,
    cpuPerRequest:
      cpuBefore && cpuAfter && ok > 0
        ? {
            process: ((cpuAfter.process - cpuBefore.process) * 1000) / ok,
            main: ((cpuAfter.main - cpuBefore.main) * 1000) / ok,
          }
        : null,
    databaseCpuPerRequest:
      databaseBefore !== null && databaseAfter !== null && ok > 0
        ? (postgresCpuBetween(databaseBefore, databaseAfter) * 1000) / ok
        : null,
    connections,
    reqPerSec: result['2xx'] / result.duration,
    p50: Math.round(percentile(latencies, 50) * 100) / 100,
    p99: Math.round(percentile(latencies, 99) * 100) / 100,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

async function ask(port: number, path: string, cookie: string) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: '{"data":null}',
  });
  return { status: response.status, body: (await response.json()) as { result?: Record<string, unknown> } };
}

/**
 * Real requests, checked: the benchmark must measure answers, not errors; and for every signed-in
 * affiliate the statistics from the totals must be those summed from the rows.
 */
async function checkAnswers(port: number, cookies: string[]) {
  for (const cookie of cookies) {
    const { status, body } = await ask(port, STATS_PATH, cookie);
    const result = body.result as { referralCodes?: unknown[]; totalClicks?: number } | undefined;
    if (status !== 200 || !result?.referralCodes?.length || !result.totalClicks) {
      throw new Error(`getAffiliateStats answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    const fromRows = await ask(port, REFERENCE_PATHS.statsFromRows, cookie);
    if (JSON.stringify(fromRows.body) !== JSON.stringify(body)) {
      throw new Error(
        `the totals and the rows disagree: ${JSON.stringify(body)} against ${JSON.stringify(fromRows.body)}`,
      );
    }
  }
}

async function measure(database: string, env: Record<string, string>, postgres: boolean): Promise<DatabaseResult> {
  const { port, child, ready } = await startBenchServer<StatsBenchReady>(SERVER_ENTRY, env);
  try {
    await checkAnswers(port, ready.cookies);
    const stats = { route: 'getAffiliateStats', path: STATS_PATH };
    await load(stats, port, child.pid, ready.cookies, 10, WARMUP_SECONDS, postgres);
    const measures: Measure[] = [];
    for (const connections of CONNECTION_COUNTS)
      measures.push(await load(stats, port, child.pid, ready.cookies, connections, DURATION_SECONDS, postgres));
    const references: Measure[] = [];
    for (const reference of REFERENCES) {
      const target = reference.bare ? ready.barePort : port;
      await load(reference, target, child.pid, ready.cookies, REFERENCE_CONNECTIONS, WARMUP_SECONDS, postgres);
      references.push(
        await load(reference, target, child.pid, ready.cookies, REFERENCE_CONNECTIONS, DURATION_SECONDS, postgres),
      );
    }
    return { database, ready, measures, references };
  } finally {
    await stopBenchServer(child);
  }
}

function benchPglite(): Promise<DatabaseResult> {
  return withPgliteFolder('skanova-bench-stats-', (dir) =>
    measure('PGlite (data folder)', { BENCH_PGLITE_DIR: path.join(dir, 'db'), DATA_DIR: dir, DATABASE_URL: '' }, false),
  );
}

function benchPostgres(): Promise<DatabaseResult> {
  return withBenchPostgres((url) => measure('PostgreSQL', { DATABASE_URL: url }, true));
}

/** A row's last two cells: the server's and PostgreSQL's CPU time per request. */
function cpuCells(m: Measure): string {
  const server = m.cpuPerRequest ? `${number(m.cpuPerRequest.process)} / ${number(m.cpuPerRequest.main)}` : 'n/a';
  const database = m.databaseCpuPerRequest === null ? 'n/a (in the server)' : number(m.databaseCpuPerRequest);
  return `${server} | ${database}`;
}

function report(results: DatabaseResult[], load: { start: number; end: number }): string {
  const lines = [
    `Machine load average (1 min) at the start and the end of the run: ${load.start} and ${load.end} (2 cores).`,
    `getAffiliateStats over HTTP (POST ${STATS_PATH}, session cookie), autocannon ${DURATION_SECONDS} s per row after a ${WARMUP_SECONDS} s warm-up;`,
    `${number(STATS_SEED.affiliates)} affiliates, ${number(STATS_SEED.clicks)} visits, ${number(STATS_SEED.conversions)} conversions (bench/seed-stats.ts); requests rotate over 40 signed-in affiliates; Node ${process.version}, server flags: ${benchServerNodeFlags().join(' ') || 'none'}; PostgreSQL over ${process.env.BENCH_POSTGRES_SOCKET === '1' ? 'its Unix socket' : 'TCP on 127.0.0.1'}.`,
    '',
    '| Database | Connections | req/s | p50 (ms) | p99 (ms) | non-2xx/errors | Target p99 < 10 ms | server CPU per request (µs): all threads / main thread | PostgreSQL CPU per request (µs) |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const r of results) {
    for (const m of r.measures) {
      lines.push(
        `| ${r.database} | ${m.connections} | ${number(m.reqPerSec)} | ${m.p50} | ${m.p99} | ${m.failed} | ${m.p99 < TARGET_P99_MS ? 'met' : 'missed'} | ${cpuCells(m)} |`,
      );
    }
  }
  lines.push(
    '',
    `What a request costs short of the statistics, on the same server process, ${REFERENCE_CONNECTIONS} connections, in this order:`,
    '',
    '| Database | Route | req/s | p50 (ms) | p99 (ms) | non-2xx/errors | server CPU per request (µs): all threads / main thread | PostgreSQL CPU per request (µs) |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    for (const m of r.references) {
      lines.push(
        `| ${r.database} | ${m.route} | ${number(m.reqPerSec)} | ${m.p50} | ${m.p99} | ${m.failed} | ${cpuCells(m)} |`,
      );
    }
  }
  lines.push('', '| Database | Seeding (s) | Measured affiliates hold on average |', '|---|---:|---|');
  for (const r of results) {
    const { codes, countedClicks, conversions } = r.ready.measured;
    lines.push(
      `| ${r.database} | ${number(r.ready.seedSeconds, 1)} | ${number(codes, 1)} codes, ${number(countedClicks)} counted clicks, ${number(conversions)} conversions |`,
    );
  }
  return lines.join('\n');
}

/** Runs both databases (BENCH_DATABASES=pglite or postgres for one) and answers the markdown figures. */
export default async function run(): Promise<string> {
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
  const start = machineLoad();
  const results: DatabaseResult[] = [];
  if (databases.includes('pglite')) results.push(await benchPglite());
  if (databases.includes('postgres')) results.push(await benchPostgres());
  return report(results, { start, end: machineLoad() });
}

runAsScript(import.meta.url, run);
