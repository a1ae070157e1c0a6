import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A throw-away PostgreSQL cluster for tests and benchmarks. PostgreSQL refuses to run as root, so
// when we are root the cluster belongs to the `postgres` system user (created by the Debian package).

export interface PostgresCluster {
  url: (database: string) => string;
  /** The same database through the cluster's Unix socket rather than TCP (as a server on the same host may connect). */
  socketUrl: (database: string) => string;
  /** The cluster's data folder (its files belong to the `postgres` user when the tests run as root). */
  dataDir: string;
  /** Stops PostgreSQL the way a crash would (immediate: no checkpoint; recovery replays the WAL at start). */
  crash: () => void;
  /** Starts it again on the same data and port. */
  restart: () => void;
  /** Stops it and removes its folder. */
  stop: () => void;
}

export const POSTGRES_INSTALL_HINT =
  'PostgreSQL is not installed: run "sudo apt-get install -y postgresql" (see README).';

/** The folder of PostgreSQL's programs (initdb, pg_ctl, pg_dump, pg_restore …), or undefined when it is not installed. */
export function findBinDir(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  const candidates = onPath ? [path.dirname(onPath)] : [];
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  return candidates.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = findBinDir();
  if (!bin) throw new Error(POSTGRES_INSTALL_HINT);
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'skanova-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]]
      : [path.join(bin, command), args];
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      // wal_recycle off, as docs/deployment.md asks of production: a write-ahead log segment no longer
      // needed is deleted rather than renamed for reuse with its old content (the erasure test).
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=on -c max_connections=200 -c wal_recycle=off`,
      'start',
    ]);
  const crash = () => run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
  start();
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    socketUrl: (database) => `postgres://postgres@localhost:${port}/${database}?host=${encodeURIComponent(dir)}`,
    dataDir,
    crash,
    restart: start,
    stop: () => {
      try {
        crash();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
