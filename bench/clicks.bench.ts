import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  CLICK_FUNCTION_PATH,
  ROW_COUNT_PATH,
  SINGLE_INSERT_PATH,
  nextVisitBody,
  userAgentOf,
} from './lib/click-workload.ts';
import { runAsScript } from './lib/run-as-script.ts';
import {
  percentile,
  startBenchServer,
  stopBenchServer,
  withBenchPostgres,
  withPgliteFolder,
} from './lib/bench-process.ts';

// Click recording (issue 2 §6): storePreInstallData with group commit against a bare single-row
// INSERT route on the same database in the same run, under autocannon with 50 connections, on the
// embedded PGlite (a data folder, as in production) and on PostgreSQL (fsync on).
// Run alone: node --import tsx bench/clicks.bench.ts   (BENCH_DURATION=<seconds> to shorten)

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_SECONDS = 2;
/** Each route's time is split into this many alternating rounds. */
const ROUNDS = 4;
const TARGET_RATIO = 2;
const TARGET_P99_MS = 50;
const SERVER_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'click-bench-server.ts');

interface Measure {
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
}

interface DatabaseResult {
  database: string;
  single: Measure;
  group: Measure;
  /** Rows the group-commit run added: at least its 2xx answers (every answered visit is stored). */
  storedRows: number;
}

async function rowCount(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${ROW_COUNT_PATH}`);
  return ((await response.json()) as { rows: number }).rows;
}

interface Round {
  ok: number;
  failed: number;
  seconds: number;
  latencies: number[];
}

async function load(port: number, route: string, seconds: number): Promise<Round> {
  const runId = randomBytes(4).toString('hex');
  const latencies: number[] = [];
  let finished: (result: autocannon.Result) => void = () => {};
  let failedRun: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failedRun = reject;
  });
  const instance = autocannon(
    {
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
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
    (error, result) => (error ? failedRun(error) : finished(result)),
  );
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await done;
  return {
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: result.duration,
    latencies,
  };
}

/** Rounds of one route merged: throughput over their whole time, latency percentiles over every answer. */
function merge(rounds: Round[]): Measure {
  const latencies = rounds.flatMap((round) => round.latencies).sort((a, b) => a - b);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  const ok = rounds.reduce((sum, round) => sum + round.ok, 0);
  return {
    reqPerSec: ok / seconds,
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    ok,
    failed: rounds.reduce((sum, round) => sum + round.failed, 0),
  };
}

async function measure(database: string, env: Record<string, string>): Promise<DatabaseResult> {
  const { port, child } = await startBenchServer(SERVER_ENTRY, env);
  try {
    await load(port, SINGLE_INSERT_PATH, WARMUP_SECONDS);
    await load(port, CLICK_FUNCTION_PATH, WARMUP_SECONDS);
    // The two routes alternate in short rounds so that both meet the same conditions (the table
    // grows, the machine's other work comes and goes).
    const single: Round[] = [];
    const group: Round[] = [];
    let storedRows = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      single.push(await load(port, SINGLE_INSERT_PATH, DURATION_SECONDS / ROUNDS));
      const before = await rowCount(port);
      group.push(await load(port, CLICK_FUNCTION_PATH, DURATION_SECONDS / ROUNDS));
      storedRows += (await rowCount(port)) - before;
    }
    return { database, single: merge(single), group: merge(group), storedRows };
  } finally {
    await stopBenchServer(child);
  }
}

function benchPglite(): Promise<DatabaseResult> {
  return withPgliteFolder('skanova-bench-pglite-', (dir) =>
    measure('PGlite (data folder)', { BENCH_PGLITE_DIR: path.join(dir, 'db'), DATABASE_URL: '' }),
  );
}

function benchPostgres(): Promise<DatabaseResult> {
  return withBenchPostgres((url) => measure('PostgreSQL (fsync on)', { DATABASE_URL: url }));
}

const round = (value: number) => Math.round(value).toLocaleString('en-US');

function report(results: DatabaseResult[]): string {
  const lines = [
    `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per route (${ROUNDS} alternating rounds) after a ${WARMUP_SECONDS} s warm-up; distinct visitors over 200 referral codes`,
    '(1 in 5 visits repeats a visitor, 1 in 10 has an unknown code); rate limit off; Node ' + process.version + '.',
    '',
    '| Database | Route | req/s | p50 (ms) | p99 (ms) | non-2xx/errors |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.database} | single-row INSERT per request | ${round(r.single.reqPerSec)} | ${r.single.p50} | ${r.single.p99} | ${r.single.failed} |`,
    );
    lines.push(
      `| ${r.database} | storePreInstallData (group commit) | ${round(r.group.reqPerSec)} | ${r.group.p50} | ${r.group.p99} | ${r.group.failed} |`,
    );
  }
  lines.push(
    '',
    '| Database | Ratio (group ÷ single) | p99 group | Rows stored ≥ HTTP 200 answers | Target (≥ 2×, p99 < 50 ms) |',
    '|---|---:|---:|---|---|',
  );
  for (const r of results) {
    const ratio = r.group.reqPerSec / r.single.reqPerSec;
    const met = ratio >= TARGET_RATIO && r.group.p99 < TARGET_P99_MS;
    lines.push(
      `| ${r.database} | ${ratio.toFixed(2)}× | ${r.group.p99} ms | ${r.storedRows >= r.group.ok ? 'yes' : 'NO'} (${round(r.storedRows)} rows, ${round(r.group.ok)} answers) | ${met ? 'met' : 'missed'} |`,
    );
  }
  return lines.join('\n');
}

/** Runs both databases and answers the markdown figures. */
export default async function run(): Promise<string> {
  const results = [await benchPglite(), await benchPostgres()];
  return report(results);
}

runAsScript(import.meta.url, run);
