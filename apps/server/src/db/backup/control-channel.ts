import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseSnapshot, SnapshotInfo } from '../pglite-snapshot.ts';

// The embedded database's folder belongs to one process at a time: PGlite is PostgreSQL in a single
// process, and a second one opening the same folder would replay and rewrite files the first is
// writing. The process that opens it (the server, or `npm run backup` / `npm run restore` when no
// server runs) first claims it by listening on a Unix socket inside it — `DATA_DIR/control/server.sock`,
// in a folder only the machine's user who runs the server can enter (0700), the socket itself 0600,
// never a network port. A second claim finds the socket answering and is refused; a socket left by
// a process that died answers nothing and is replaced.
//
// The same socket is how `npm run backup` reaches a running server: it asks for a snapshot and the
// server answers with a consistent copy of its database (db/pglite-snapshot.ts).
//
// Protocol: one request line of JSON (`{"command":"ping"}` or `{"command":"snapshot"}`), answered by
// one header line of JSON (`{"ok":true,…}` or `{"ok":false,"error":…}`) and, for a snapshot, `bytes`
// bytes of the data folder's tar.

/** Who may hold a data folder: the server, or a command that opens the database while no server runs. */
export type ClaimRole = 'server' | 'backup' | 'admin:create';

export interface DataDirHolder {
  role: ClaimRole | 'unknown';
  pid: number | null;
}

/** "a running server (pid 123)", "`npm run backup` (pid 456)", "another process". */
export function describeHolder(holder: DataDirHolder): string {
  if (holder.role === 'unknown') return 'another process';
  const who = holder.role === 'server' ? 'a running server' : `\`npm run ${holder.role}\``;
  return `${who}${holder.pid ? ` (pid ${holder.pid})` : ''}`;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder,
  ) {
    super(
      `The data folder ${dataDir} is in use by ${describeHolder(holder)}: the embedded database belongs to one process at a time.`,
    );
  }
}

export class ControlChannelError extends Error {}

/** Unix socket paths are limited to about 107 bytes (sockaddr_un); longer ones go to a private folder in the temp directory. */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 1024;
const REQUEST_TIMEOUT_MS = 10_000;
const PING_TIMEOUT_MS = 5_000;

/** Creates `dir` (0700, owned by us) or checks an existing one; refuses one another user could enter. */
function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new ControlChannelError(`${dir} must be a folder owned by the user running the server.`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * The control socket of a data folder. `create` makes its private parent folder (a claim); without it
 * (a look), `null` means the data folder does not exist, so nothing holds it.
 */
export function controlSocketPath(dataDir: string, create: boolean): string | null {
  const resolved = path.resolve(dataDir);
  if (create) mkdirSync(resolved, { recursive: true });
  else if (!existsSync(resolved)) return null;
  const folder = path.join(resolved, 'control');
  const socket = path.join(folder, 'server.sock');
  if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH) {
    if (create) privateFolder(folder);
    return socket;
  }
  const fallback = path.join(tmpdir(), `skanova-control-${process.getuid?.() ?? 'user'}`);
  if (create) privateFolder(fallback);
  const key = createHash('sha256').update(realpathSync(resolved)).digest('hex').slice(0, 32);
  return path.join(fallback, `${key}.sock`);
}

interface Header {
  ok: boolean;
  error?: string;
  role?: ClaimRole;
  pid?: number;
  info?: SnapshotInfo;
  bytes?: number;
}

/**
 * Sends one request and reads its answer; `null` when nothing listens (no socket, or one left by a
 * process that died).
 */
function exchange(
  socketPath: string,
  request: { command: 'ping' | 'snapshot' },
  timeoutMs: number | null,
): Promise<{ header: Header; body: Buffer } | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    let received = 0;
    let header: Header | null = null;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      fn();
    };
    if (timeoutMs !== null) {
      socket.setTimeout(timeoutMs, () =>
        finish(() => reject(new ControlChannelError('the process holding the data folder does not answer'))),
      );
    }
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!header && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) return finish(() => resolve(null));
      const denied = error.code === 'EACCES' || error.code === 'EPERM';
      finish(() =>
        reject(
          new ControlChannelError(
            denied
              ? `${socketPath} is not reachable by this user: run the command as the user that runs the server.`
              : `the control socket failed: ${error.message}`,
          ),
        ),
      );
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (!header) {
        const all = Buffer.concat(chunks);
        const newline = all.indexOf(0x0a);
        if (newline === -1) return;
        try {
          header = JSON.parse(all.subarray(0, newline).toString('utf8')) as Header;
        } catch {
          return finish(() => reject(new ControlChannelError('the control socket answered something unreadable')));
        }
        chunks.length = 0;
        chunks.push(all.subarray(newline + 1));
        received = all.length - newline - 1;
      }
      if (header && received >= (header.bytes ?? 0)) {
        const done = header;
        finish(() => resolve({ header: done, body: Buffer.concat(chunks).subarray(0, done.bytes ?? 0) }));
      }
    });
    socket.on('close', () =>
      finish(() =>
        header
          ? reject(new ControlChannelError('the server closed the connection before the snapshot was complete'))
          : reject(new ControlChannelError('the process holding the data folder closed the connection unanswered')),
      ),
    );
  });
}

/** Who holds the data folder, or `null` when no process does. */
export async function probeDataDir(dataDir: string): Promise<DataDirHolder | null> {
  const socketPath = controlSocketPath(dataDir, false);
  if (!socketPath) return null;
  const answer = await exchange(socketPath, { command: 'ping' }, PING_TIMEOUT_MS).catch((): { header: Header } => ({
    header: { ok: false },
  }));
  if (!answer) return null;
  return { role: answer.header.role ?? 'unknown', pid: answer.header.pid ?? null };
}

/**
 * Asks the server running on `dataDir` for a snapshot of its database; `null` when no process holds
 * the folder. Refused (an error) when the holder is not a server, e.g. another backup.
 */
export async function requestSnapshot(dataDir: string): Promise<(DatabaseSnapshot & { pid: number | null }) | null> {
  const socketPath = controlSocketPath(dataDir, false);
  const answer = socketPath ? await exchange(socketPath, { command: 'snapshot' }, null) : null;
  if (!answer) return null;
  const { header, body } = answer;
  if (!header.ok || !header.info) {
    throw new ControlChannelError(header.error ?? 'the process holding the data folder refused the snapshot');
  }
  return {
    tarball: new Uint8Array(body.buffer, body.byteOffset, body.length),
    info: header.info,
    pid: header.pid ?? null,
  };
}

export interface DataDirClaim {
  readonly socketPath: string;
  /** Answers `npm run backup` with consistent copies of the database (the server, once it is open). */
  serveSnapshots(
    snapshot: () => Promise<DatabaseSnapshot>,
    log?: (info: SnapshotInfo & { bytes: number }) => void,
  ): void;
  /** Stops listening (after the snapshot under way, if any) and releases the folder. */
  close(): Promise<void>;
}

/** Claims `dataDir` for this process; throws DataDirInUseError while another process holds it. */
export async function claimDataDir(dataDir: string, role: ClaimRole): Promise<DataDirClaim> {
  const resolved = path.resolve(dataDir);
  const socketPath = controlSocketPath(resolved, true)!;
  const holder = await probeDataDir(resolved);
  if (holder) throw new DataDirInUseError(resolved, holder);
  try {
    unlinkSync(socketPath); // left by a process that died
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }

  let snapshotter: (() => Promise<DatabaseSnapshot>) | null = null;
  let onSnapshot: ((info: SnapshotInfo & { bytes: number }) => void) | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const idle = new Set<net.Socket>();

  const answer = (socket: net.Socket, header: Header, body?: Uint8Array) => {
    socket.write(`${JSON.stringify({ ...header, role, pid: process.pid })}\n`);
    if (body) socket.write(body);
    socket.end();
  };

  const handle = async (socket: net.Socket, line: string) => {
    let command: unknown;
    try {
      command = (JSON.parse(line) as { command?: unknown }).command;
    } catch {
      return answer(socket, { ok: false, error: 'unreadable request' });
    }
    if (command === 'ping') return answer(socket, { ok: true });
    if (command !== 'snapshot') return answer(socket, { ok: false, error: 'unknown command' });
    const take = snapshotter;
    if (!take)
      return answer(socket, {
        ok: false,
        error:
          role === 'server'
            ? 'the server is starting or stopping: try again in a moment'
            : `the data folder is held by ${describeHolder({ role, pid: process.pid })}, not by a server`,
      });
    // One snapshot at a time; the next request waits for the one under way.
    const result = queue.then(take);
    queue = result.catch(() => undefined);
    try {
      const snapshot = await result;
      onSnapshot?.({ ...snapshot.info, bytes: snapshot.tarball.length });
      answer(socket, { ok: true, info: snapshot.info, bytes: snapshot.tarball.length }, snapshot.tarball);
    } catch (error) {
      answer(socket, { ok: false, error: `the snapshot failed: ${(error as Error).message}` });
    }
  };

  const server = net.createServer((socket) => {
    idle.add(socket);
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline === -1) {
        if (buffered.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      socket.setTimeout(0);
      idle.delete(socket);
      void handle(socket, buffered.slice(0, newline));
    };
    socket.on('data', onData);
    socket.on('close', () => idle.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new DataDirInUseError(resolved, { role: 'unknown', pid: null }) : error),
    );
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  server.on('error', () => {});

  return {
    socketPath,
    serveSnapshots(snapshot, log) {
      snapshotter = snapshot;
      onSnapshot = log;
    },
    async close() {
      snapshotter = null;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of idle) socket.destroy();
      await queue;
      await closed;
    },
  };
}
