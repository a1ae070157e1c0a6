import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupFileName } from '../src/db/backup/archive.ts';
import { BACKUP_KEEP_DAYS, pruneExpiredBackups } from '../src/db/backup/backup.ts';
import { UsageError, runBackup } from '../src/cli/backup.ts';

// Backups expire (docs/decisions/017-erasure-in-the-files.md): each backup written removes the backups
// of its folder older than BACKUP_KEEP_DAYS, so that an account deleted today leaves the last backup
// within the thirty days of ADR 007.

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-03-31T03:15:00.000Z');
let dir: string | undefined;

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function plant(names: string[]): void {
  dir = mkdtempSync(path.join(tmpdir(), 'skanova-backups-'));
  for (const name of names) writeFileSync(path.join(dir, name), 'x');
}

const aged = (days: number) => backupFileName(new Date(NOW.getTime() - days * DAY_MS));

describe('backup expiry', () => {
  it('removes the backups (and their checksums) older than the kept days, and nothing else', async () => {
    expect(BACKUP_KEEP_DAYS).toBeLessThanOrEqual(28);
    const old = aged(BACKUP_KEEP_DAYS + 1);
    const justOld = backupFileName(new Date(NOW.getTime() - BACKUP_KEEP_DAYS * DAY_MS - 60_000));
    const kept = [aged(BACKUP_KEEP_DAYS - 1), aged(1), aged(0), 'notes.txt', 'skanova-backup-garbage.tar.gz'];
    plant([old, `${old}.sha256`, justOld, `${justOld}.sha256`, ...kept, `${aged(1)}.sha256`]);
    const removed = await pruneExpiredBackups(dir!, BACKUP_KEEP_DAYS, NOW);
    expect(removed.sort()).toEqual([old, `${old}.sha256`, justOld, `${justOld}.sha256`].sort());
    expect(readdirSync(dir!).sort()).toEqual([...kept, `${aged(1)}.sha256`].sort());
  });

  it('refuses to keep backups longer than the erasure window allows', async () => {
    await expect(runBackup(['--keep-days', '60'], { DATA_DIR: '/nonexistent' })).rejects.toThrow(UsageError);
    await expect(runBackup(['--keep-days', 'soon'], { DATA_DIR: '/nonexistent' })).rejects.toThrow(UsageError);
  });
});
