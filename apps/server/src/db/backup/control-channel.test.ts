import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseSnapshot } from '../pglite-snapshot.ts';
import {
  ControlChannelError,
  DataDirInUseError,
  claimDataDir,
  controlSocketPath,
  probeDataDir,
  requestSnapshot,
} from './control-channel.ts';

// The data folder's control socket (no database needed): one holder at a time, a socket left by a
// dead process replaced, private permissions, snapshots framed whole, long paths.

const root = mkdtempSync(path.join(tmpdir(), 'skanova-control-'));
let folders = 0;
const dataDir = () => path.join(root, `data-${++folders}`);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const fakeSnapshot = (bytes: number): DatabaseSnapshot => ({
  tarball: Uint8Array.from({ length: bytes }, (_, i) => i % 251),
  info: {
    takenAt: '2025-01-15T03:00:00.000Z',
    pgliteVersion: '0.0.0',
    postgresVersion: '17.0',
    migrations: ['0001_init'],
    tables: { clicks: 3 },
    heldMs: 1,
  },
});

describe('the data folder claim', () => {
  it('admits one holder at a time, says who holds it, and is free again once released', async () => {
    const dir = dataDir();
    expect(await probeDataDir(dir)).toBeNull();
    const claim = await claimDataDir(dir, 'server');
    expect(await probeDataDir(dir)).toEqual({ role: 'server', pid: process.pid });
    const refused = await claimDataDir(dir, 'backup').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(`in use by a running server (pid ${process.pid})`);
    await claim.close();
    expect(await probeDataDir(dir)).toBeNull();
    await (await claimDataDir(dir, 'backup')).close();
  });

  it('keeps the socket private: a 0700 folder and a 0600 socket inside the data folder', async () => {
    const dir = dataDir();
    const claim = await claimDataDir(dir, 'server');
    try {
      expect(claim.socketPath).toBe(path.join(dir, 'control', 'server.sock'));
      expect(statSync(path.join(dir, 'control')).mode & 0o777).toBe(0o700);
      expect(statSync(claim.socketPath).mode & 0o777).toBe(0o600);
    } finally {
      await claim.close();
    }
  });

  it('replaces the socket of a process that died without releasing it', async () => {
    const dir = dataDir();
    const socket = controlSocketPath(dir, true)!;
    const child = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('listening'))`,
    ]);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(existsSync(socket)).toBe(true);
    const claim = await claimDataDir(dir, 'server');
    expect(await probeDataDir(dir)).toEqual({ role: 'server', pid: process.pid });
    await claim.close();
  });

  it('serves snapshots whole to the backup, one at a time; other holders refuse them', async () => {
    const dir = dataDir();
    expect(await requestSnapshot(dir)).toBeNull();
    const claim = await claimDataDir(dir, 'server');
    // Until its database is open, the server has nothing to copy.
    await expect(requestSnapshot(dir)).rejects.toThrow(/the server is starting or stopping/);
    let running = 0;
    let overlapped = false;
    claim.serveSnapshots(async () => {
      running += 1;
      overlapped ||= running > 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      return fakeSnapshot(3_000_001);
    });
    const [first, second] = await Promise.all([requestSnapshot(dir), requestSnapshot(dir)]);
    expect(overlapped).toBe(false);
    for (const snapshot of [first, second]) {
      expect(snapshot?.info).toEqual(fakeSnapshot(0).info);
      expect(Buffer.from(snapshot!.tarball).equals(Buffer.from(fakeSnapshot(3_000_001).tarball))).toBe(true);
      expect(snapshot?.pid).toBe(process.pid);
    }
    await claim.close();

    const backup = await claimDataDir(dir, 'backup');
    await expect(requestSnapshot(dir)).rejects.toThrow(ControlChannelError);
    await expect(requestSnapshot(dir)).rejects.toThrow(/held by `npm run backup` \(pid \d+\), not by a server/);
    await backup.close();
  });

  it('puts the socket of a data folder with a long path in a private folder of the temp directory', async () => {
    const dir = path.join(root, 'a-folder-with-a-rather-long-name'.repeat(3), 'data');
    const claim = await claimDataDir(dir, 'server');
    try {
      expect(claim.socketPath.startsWith(tmpdir())).toBe(true);
      expect(statSync(path.dirname(claim.socketPath)).mode & 0o777).toBe(0o700);
      expect(await probeDataDir(dir)).toEqual({ role: 'server', pid: process.pid });
      await expect(claimDataDir(dir, 'backup')).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await claim.close();
    }
  });
});
