import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startPostgresCluster } from '../../apps/server/test/postgres-cluster.ts';

// What the HTTP benchmarks share: a benchmark server in its own process (it reports ready over IPC,
// with whatever it prepared), the databases to run it on, and latency percentiles.

export interface BenchServer<Ready> {
  port: number;
  child: ChildProcess;
  /** The server's ready message (e.g. the session cookies it prepared). */
  ready: Ready;
}

/** Starts `entry` on a free port with `env`; resolves once it sends its ready message. */
export async function startBenchServer<Ready = unknown>(
  entry: string,
  env: Record<string, string>,
): Promise<BenchServer<Ready>> {
  const port = await freePort();
  // BENCH_PROFILE=<folder>: the server writes a CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...benchServerNodeFlags(), ...profile, '--import', 'tsx', entry], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ready));
    child.once('exit', (code) => reject(new Error(`The benchmark server exited (${code}).`)));
  });
  return { port, child, ready };
}

/**
 * Node flags for a benchmark server, to compare with the product's defaults (none):
 * BENCH_NODE_FLAGS="<flags>", separated by spaces (e.g. "--max-semi-space-size=64").
 */
export function benchServerNodeFlags(): readonly string[] {
  return (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
}

export async function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Runs `fn` with a throw-away folder for the embedded database (a data folder, as in production). */
export async function withPgliteFolder<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `fn` with the URL of an empty database on a PostgreSQL cluster started for it (fsync on): over TCP
 * on 127.0.0.1, or through the cluster's Unix socket with BENCH_POSTGRES_SOCKET=1.
 */
export async function withBenchPostgres<T>(fn: (databaseUrl: string) => Promise<T>): Promise<T> {
  const cluster = await startPostgresCluster();
  try {
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    return await fn(process.env.BENCH_POSTGRES_SOCKET === '1' ? cluster.socketUrl('bench') : cluster.url('bench'));
  } finally {
    cluster.stop();
  }
}

/** The p-th percentile of ascending `sorted` values (nearest rank); NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** The median, the 99th percentile and the mean of some timings. */
export interface Figures {
  p50: number;
  p99: number;
  mean: number;
}

export function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: samples.reduce((sum, value) => sum + value, 0) / samples.length,
  };
}

/** A figure for the reports: thousands separated, `digits` decimals. */
export const formatNumber = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** CPU time a process has used (ms): all its threads, and its main thread alone (the event loop). */
export interface CpuTimes {
  process: number;
  main: number;
}

/** Clock ticks per second of /proc's figures (USER_HZ: 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system clock ticks of the process or thread whose /proc stat file is `file`. */
function ticks(file: string): number {
  // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th
  // field of the line, stime the 15th.
  const line = readFileSync(file, 'utf8');
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * The CPU time of `pid` so far, read from Linux's /proc (user + system time, 10 ms resolution);
 * null elsewhere. Unlike throughput, CPU time per request barely depends on the machine's other work.
 */
export function cpuTimes(pid: number | undefined): CpuTimes | null {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return null;
  try {
    return {
      process: (ticks(`/proc/${pid}/stat`) * 1000) / CLOCK_TICKS_PER_SECOND,
      main: (ticks(`/proc/${pid}/task/${pid}/stat`) * 1000) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return null;
  }
}

/** The CPU time (ms) each of the machine's PostgreSQL processes has used so far, by process id. */
export type PostgresCpu = Map<string, number>;

/**
 * The CPU time (ms) used so far by each of the machine's PostgreSQL processes (backends, WAL writer,
 * checkpointer…), read from /proc; null off Linux. During a benchmark its own cluster is the only one
 * running.
 */
export function postgresCpu(): PostgresCpu | null {
  if (!existsSync('/proc/self/stat')) return null;
  const times: PostgresCpu = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres'))
        times.set(entry, (ticks(`/proc/${entry}/stat`) * 1000) / CLOCK_TICKS_PER_SECOND);
    } catch {
      // The process ended while it was read.
    }
  }
  return times;
}

/**
 * The CPU time (ms) PostgreSQL's processes used between two readings: each process's own difference
 * (one started meanwhile counts from nothing). A process that ended meanwhile (an idle pool
 * connection closing) is left out with its time in between, rather than taking its whole past with it.
 */
export function postgresCpuBetween(before: PostgresCpu, after: PostgresCpu): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** The machine's 1-minute load average, for the reports (2 cores: above 2, other work competes). */
export function machineLoad(): number {
  return Math.round((loadavg()[0] ?? Number.NaN) * 10) / 10;
}
