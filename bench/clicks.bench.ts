import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { ClickBenchReady } from './lib/click-bench-server.ts';
import {
  CLICK_FUNCTION_PATH,
  NOOP_PATH,
  ROW_COUNT_PATH,
  SINGLE_INSERT_PATH,
  nextVisitBody,
  userAgentOf,
} from './lib/click-workload.ts';
import { runAsScript } from './lib/run-as-script.ts';
import {
  type BenchServer,
  type CpuTimes,
  cpuTimes,
  machineLoad,
  percentile,
  startBenchServer,
  stopBenchServer,
  withBenchPostgres,
  withPgliteFolder,
} from './lib/bench-process.ts';

// Click recording (docs/product/rules-and-constants.md#quality-bar): storePreInstallData (durable: each visit is
// committed before its answer, by group commit) against, in the same run and on the same server
// process, a route answering at once on a bare Fastify (the HTTP stack's ceiling: the target is 30 %
// of it), the same no-op route on the product's app (its hooks), and a bare single-row INSERT per
// request (the reference route). On the embedded PGlite (a data folder, as in production) and on
// PostgreSQL (fsync on); then on PostgreSQL with several server processes, the load spread over them.
// Run alone: node --import tsx bench/clicks.bench.ts
//   BENCH_DURATION=<seconds per route, default 10>, CLICK_PROCESSES=<counts, default 1,2,3>,
//   BENCH_DATABASES=pglite|postgres (one of them), BENCH_PROFILE=<folder> (each server process
//   writes a CPU profile there when it stops)

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_SECONDS = 2;
/** Each route's time is split into this many alternating rounds. */
const ROUNDS = 4;
const TARGET_SHARE_OF_NOOP = 0.3;
const TARGET_P99_MS = 50;
const PROCESS_COUNTS = (process.env.CLICK_PROCESSES ?? '1,2,3').split(',').map(Number).filter(Boolean);
const SERVER_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'click-bench-server.ts');

type RouteId = 'bare' | 'appNoop' | 'single' | 'group';

const ALL_ROUTES: { id: RouteId; label: string; path: string; bare: boolean }[] = [
  { id: 'bare', label: 'no-op route, bare Fastify', path: NOOP_PATH, bare: true },
  { id: 'appNoop', label: "no-op route, the product's app", path: NOOP_PATH, bare: false },
  { id: 'single', label: 'single-row INSERT per request', path: SINGLE_INSERT_PATH, bare: false },
  { id: 'group', label: 'storePreInstallData (group commit)', path: CLICK_FUNCTION_PATH, bare: false },
];
/** CLICK_ROUTES=group (e.g. to profile one route alone); the report needs all four. */
const ROUTES = ALL_ROUTES.filter((route) => (process.env.CLICK_ROUTES ?? route.id).split(',').includes(route.id));

interface Measure {
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  /** Server CPU time per answered request (µs): all threads, and the main thread; null off Linux. */
  cpuPerRequest: CpuTimes | null;
}

interface DatabaseResult {
  database: string;
  measures: Partial<Record<RouteId, Measure>>;
  /** What the group-commit rounds added: rows at least their 2xx answers (every answered visit is stored). */
  stored: Counts;
}

interface ScaleResult {
  processes: number;
  bare: Measure;
  group: Measure;
  stored: Counts;
}

/** Rows of the clicks table, and the visit writer's batch statements and visits so far. */
interface Counts {
  rows: number;
  statements: number;
  visits: number;
}

/** The counts of the server processes on `ports`: one database's rows, every process's batches. */
async function counts(ports: number[]): Promise<Counts> {
  const each = await Promise.all(
    ports.map(async (port) => (await (await fetch(`http://127.0.0.1:${port}${ROW_COUNT_PATH}`)).json()) as Counts),
  );
  return {
    rows: each[0]?.rows ?? 0,
    statements: each.reduce((sum, count) => sum + count.statements, 0),
    visits: each.reduce((sum, count) => sum + count.visits, 0),
  };
}

const NO_COUNTS: Counts = { rows: 0, statements: 0, visits: 0 };

function addCounts(total: Counts, after: Counts, before: Counts): Counts {
  return {
    rows: total.rows + after.rows - before.rows,
    statements: total.statements + after.statements - before.statements,
    visits: total.visits + after.visits - before.visits,
  };
}

interface Round {
  ok: number;
  failed: number;
  seconds: number;
  latencies: number[];
  /** CPU time the server processes used during the round (ms). */
  cpu: CpuTimes | null;
}

/** The CPU time of these server processes so far, summed; null when one cannot be read. */
function serversCpu(pids: (number | undefined)[]): CpuTimes | null {
  const times = pids.map(cpuTimes);
  if (times.some((time) => time === null)) return null;
  return {
    process: times.reduce((sum, time) => sum + (time?.process ?? 0), 0),
    main: times.reduce((sum, time) => sum + (time?.main ?? 0), 0),
  };
}

/**
 * `connections` connections on each of `ports` at once, for `seconds`; one round's figures summed.
 * `pids`: the server processes behind the ports, whose CPU time the round reads.
 */
async function load(
  ports: number[],
  route: string,
  seconds: number,
  pids: (number | undefined)[],
  connections = CONNECTIONS,
): Promise<Round> {
  const runId = randomBytes(4).toString('hex');
  const cpuBefore = serversCpu(pids);
  const latencies: number[] = [];
  const runs = ports.map(
    (port) =>
      new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `http://127.0.0.1:${port}`,
            connections,
            duration: seconds,
            requests: [
              {
                method: 'POST',
                path: route,
                headers: { 'content-type': 'application/json' },
                setupRequest: (request) => {
                  const body = nextVisitBody(runId);
                  return { ...request, body, headers: { ...request.headers, 'user-agent': userAgentOf(body) } };
                },
              },
            ],
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        );
        instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
      }),
  );
  const results = await Promise.all(runs);
  const cpuAfter = serversCpu(pids);
  return {
    cpu:
      cpuBefore && cpuAfter
        ? { process: cpuAfter.process - cpuBefore.process, main: cpuAfter.main - cpuBefore.main }
        : null,
    ok: results.reduce((sum, result) => sum + result['2xx'], 0),
    failed: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
    seconds: Math.max(...results.map((result) => result.duration)),
    latencies,
  };
}

/** Rounds of one route merged: throughput over their whole time, latency percentiles over every answer. */
function merge(rounds: Round[]): Measure {
  const latencies = rounds.flatMap((round) => round.latencies).sort((a, b) => a - b);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  const ok = rounds.reduce((sum, round) => sum + round.ok, 0);
  const cpu = rounds.every((round) => round.cpu !== null)
    ? {
        process: (rounds.reduce((sum, round) => sum + (round.cpu?.process ?? 0), 0) * 1000) / ok,
        main: (rounds.reduce((sum, round) => sum + (round.cpu?.main ?? 0), 0) * 1000) / ok,
      }
    : null;
  return {
    cpuPerRequest: cpu,
    reqPerSec: ok / seconds,
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    ok,
    failed: rounds.reduce((sum, round) => sum + round.failed, 0),
  };
}

async function measure(database: string, env: Record<string, string>): Promise<DatabaseResult> {
  const { port, child, ready } = await startBenchServer<ClickBenchReady>(SERVER_ENTRY, env);
  const portOf = (bare: boolean) => (bare ? ready.barePort : port);
  try {
    const pids = [child.pid];
    for (const route of ROUTES) await load([portOf(route.bare)], route.path, WARMUP_SECONDS, pids);
    // The routes alternate in short rounds so that all meet the same conditions (the table grows,
    // the machine's other work comes and goes).
    const rounds: Record<RouteId, Round[]> = { bare: [], appNoop: [], single: [], group: [] };
    let stored = NO_COUNTS;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const route of ROUTES) {
        const before = route.id === 'group' ? await counts([port]) : NO_COUNTS;
        rounds[route.id].push(await load([portOf(route.bare)], route.path, DURATION_SECONDS / ROUNDS, pids));
        if (route.id === 'group') stored = addCounts(stored, await counts([port]), before);
      }
    }
    const measures: Partial<Record<RouteId, Measure>> = {};
    for (const route of ROUTES) measures[route.id] = merge(rounds[route.id]);
    return { database, measures, stored };
  } finally {
    await stopBenchServer(child);
  }
}

/**
 * `count` server processes on one PostgreSQL, the load spread evenly over them (the same total of
 * connections), the bare no-op route of each process against storePreInstallData, in alternating
 * rounds.
 */
async function measureScale(databaseUrl: string, count: number): Promise<ScaleResult> {
  const servers: BenchServer<ClickBenchReady>[] = [];
  try {
    // One after the other: each migrates (under the migrator's lock) and seeds the codes (idempotent).
    for (let i = 0; i < count; i += 1)
      servers.push(await startBenchServer(SERVER_ENTRY, { DATABASE_URL: databaseUrl }));
    const connections = Math.max(1, Math.round(CONNECTIONS / count));
    const ports = servers.map((server) => server.port);
    const barePorts = servers.map((server) => server.ready.barePort);
    const pids = servers.map((server) => server.child.pid);
    await load(barePorts, NOOP_PATH, WARMUP_SECONDS, pids, connections);
    await load(ports, CLICK_FUNCTION_PATH, WARMUP_SECONDS, pids, connections);
    const bare: Round[] = [];
    const group: Round[] = [];
    let stored = NO_COUNTS;
    for (let round = 0; round < ROUNDS; round += 1) {
      bare.push(await load(barePorts, NOOP_PATH, DURATION_SECONDS / ROUNDS, pids, connections));
      const before = await counts(ports);
      group.push(await load(ports, CLICK_FUNCTION_PATH, DURATION_SECONDS / ROUNDS, pids, connections));
      stored = addCounts(stored, await counts(ports), before);
    }
    return { processes: count, bare: merge(bare), group: merge(group), stored };
  } finally {
    await Promise.all(servers.map((server) => stopBenchServer(server.child)));
  }
}

function benchPglite(): Promise<DatabaseResult> {
  return withPgliteFolder('skanova-bench-pglite-', (dir) =>
    measure('PGlite (data folder)', { BENCH_PGLITE_DIR: path.join(dir, 'db'), DATABASE_URL: '' }),
  );
}

async function benchPostgres(): Promise<{ single: DatabaseResult; scale: ScaleResult[] }> {
  const single = await withBenchPostgres((url) => measure('PostgreSQL (fsync on)', { DATABASE_URL: url }));
  const scale: ScaleResult[] = [];
  // A fresh cluster for each process count: every run starts from an empty clicks table.
  for (const count of PROCESS_COUNTS) scale.push(await withBenchPostgres((url) => measureScale(url, count)));
  return { single, scale };
}

const round = (value: number) => Math.round(value).toLocaleString('en-US');
const percent = (value: number) => `${Math.round(value * 100)} %`;
const perCommit = (c: Counts) => (c.statements > 0 ? (c.visits / c.statements).toFixed(1) : 'n/a');
const stored = (c: Counts, group: Measure) =>
  `${c.rows >= group.ok ? 'yes' : 'NO'} (${round(c.rows)} rows, ${round(group.ok)} answers)`;
const cpuCell = (m: Measure) =>
  m.cpuPerRequest ? `${round(m.cpuPerRequest.process)} / ${round(m.cpuPerRequest.main)}` : 'n/a';

function report(results: DatabaseResult[], scale: ScaleResult[], load: { start: number; end: number }): string {
  const lines = [
    `Machine load average (1 min) at the start and the end of the run: ${load.start} and ${load.end} (2 cores).`,
    `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per route (${ROUNDS} alternating rounds) after a ${WARMUP_SECONDS} s warm-up; distinct visitors over 200 referral codes`,
    `(1 in 5 visits repeats a visitor, 1 in 10 has an unknown code); every route gets the same visit body; rate limit off; Node ${process.version}.`,
    '',
    '| Database | Route | req/s | p50 (ms) | p99 (ms) | non-2xx/errors | server CPU per request (µs): all threads / main thread |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    for (const route of ROUTES) {
      const m = r.measures[route.id];
      if (!m) continue;
      lines.push(
        `| ${r.database} | ${route.label} | ${round(m.reqPerSec)} | ${m.p50} | ${m.p99} | ${m.failed} | ${cpuCell(m)} |`,
      );
    }
  }
  lines.push(
    '',
    '| Database | storePreInstallData ÷ bare no-op | ÷ app no-op | ÷ single INSERT | p99 | visits per commit | Rows stored ≥ HTTP 200 answers | Target (≥ 30 % of the bare no-op, p99 < 50 ms) |',
    '|---|---:|---:|---:|---:|---:|---|---|',
  );
  for (const r of results) {
    const { bare, appNoop, single, group } = r.measures;
    if (!bare || !appNoop || !single || !group) continue;
    const share = group.reqPerSec / bare.reqPerSec;
    const met = share >= TARGET_SHARE_OF_NOOP && group.p99 < TARGET_P99_MS;
    lines.push(
      `| ${r.database} | ${percent(share)} | ${percent(group.reqPerSec / appNoop.reqPerSec)} | ${(group.reqPerSec / single.reqPerSec).toFixed(2)}× | ${group.p99} ms | ${perCommit(r.stored)} | ${stored(r.stored, group)} | ${met ? 'met' : 'missed'} |`,
    );
  }
  if (scale.length > 0) {
    lines.push(
      '',
      `PostgreSQL (fsync on), N server processes on one database, ${CONNECTIONS} connections in all spread evenly over them (autocannon against each process's port), ${DURATION_SECONDS} s per route in ${ROUNDS} alternating rounds:`,
      '',
      '| Processes | bare no-op req/s (all) | storePreInstallData req/s (all) | p50 (ms) | p99 (ms) | share of no-op | visits per commit | Rows stored ≥ HTTP 200 answers | non-2xx/errors | server CPU per visit (µs): all / main threads |',
      '|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
    );
    for (const s of scale) {
      lines.push(
        `| ${s.processes} | ${round(s.bare.reqPerSec)} | ${round(s.group.reqPerSec)} | ${s.group.p50} | ${s.group.p99} | ${percent(s.group.reqPerSec / s.bare.reqPerSec)} | ${perCommit(s.stored)} | ${stored(s.stored, s.group)} | ${s.group.failed + s.bare.failed} | ${cpuCell(s.group)} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Runs both databases (BENCH_DATABASES=pglite or postgres for one) and answers the markdown figures. */
export default async function run(): Promise<string> {
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
  const start = machineLoad();
  const results: DatabaseResult[] = [];
  let scale: ScaleResult[] = [];
  if (databases.includes('pglite')) results.push(await benchPglite());
  if (databases.includes('postgres')) {
    const postgres = await benchPostgres();
    results.push(postgres.single);
    scale = postgres.scale;
  }
  return report(results, scale, { start, end: machineLoad() });
}

runAsScript(import.meta.url, run);
