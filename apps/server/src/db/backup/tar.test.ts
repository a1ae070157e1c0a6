import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TarFormatError, readTar, tarChunks } from './tar.ts';

// The backup's archive format: what it writes it reads back, the system's `tar` lists it (operators
// can open a backup without the product), and damage is refused rather than read as data.

const entries = [
  {
    name: 'manifest.json',
    data: Buffer.from('{"format":"skanova-backup"}\n'),
    mtime: new Date('2025-01-15T03:00:00Z'),
  },
  { name: 'database.tar', data: Buffer.alloc(1536, 7), mtime: new Date('2025-01-15T03:00:00Z') },
  { name: 'secrets/auth_secret.key', data: Buffer.from('s'.repeat(43)), mtime: new Date('2025-01-15T03:00:00Z') },
  { name: 'outbox/empty.eml', data: Buffer.alloc(0), mtime: new Date('2025-01-15T03:00:00Z') },
];

const archive = () => Buffer.concat([...tarChunks(entries)]);

describe('backup archives (ustar)', () => {
  it('reads back what it writes', () => {
    expect(readTar(archive()).map((entry) => ({ ...entry, data: Buffer.from(entry.data) }))).toEqual(entries);
  });

  it('writes archives the system tar lists', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skanova-tar-'));
    try {
      const file = path.join(dir, 'backup.tar');
      writeFileSync(file, archive());
      const listing = execFileSync('tar', ['-tvf', file], { encoding: 'utf8' });
      for (const entry of entries) expect(listing).toContain(entry.name);
      expect(listing).toMatch(/-rw------- .* 1536 .*database\.tar/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a damaged header, a truncated file and a missing end', () => {
    const damaged = archive();
    damaged[10] = 0x41; // a byte of the first name: the header checksum no longer matches
    expect(() => readTar(damaged)).toThrow(/header checksum/);
    expect(() => readTar(archive().subarray(0, 1024))).toThrow(TarFormatError);
    expect(() => readTar(archive().subarray(0, archive().length - 1024))).toThrow(/end marker/);
  });

  it('refuses names longer than the format holds', () => {
    expect(() => [...tarChunks([{ name: 'x'.repeat(101), data: Buffer.alloc(0) }])]).toThrow(/too long/);
  });
});
