import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB } from './helpers/database.ts';
import { REPO_ROOT, fakeSiteBuild, until } from './helpers/server-process.ts';
import { freePort } from './postgres-cluster.ts';

// `npm start`'s last words (README, "Quick start"): once the server answers, one line in plain words
// says which address to open, on stderr, while stdout stays the JSON log (process/ready-line.ts). A
// real process on the embedded database; the line does not depend on the database, so the
// PostgreSQL project does not run it twice.

describe.skipIf(TEST_DB !== 'pglite')('the ready line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'skanova-ready-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // A fresh embedded database migrates first: seconds alone, tens of seconds beside other test files on two cores.
  it('names the address to open, on its own line, once the server answers there', { timeout: 60_000 }, async () => {
    const site = path.join(dir, 'site');
    fakeSiteBuild(site);
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, 'data'),
        WEB_BUILD_DIR: site,
        JOBS_ENABLED: 'false',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until(
        () => {
          if (child.exitCode !== null) throw new Error(`The server exited:\n${stdout}\n${stderr}`);
          return stderr.includes('is ready');
        },
        'the ready line',
        20_000,
      );
      const address = `http://localhost:${port}`;
      expect(stderr.split('\n').filter((line) => line.trim() !== '')).toEqual([
        `Skanova is ready: open ${address} in your browser.`,
      ]);
      // Said once it is true: the address answers at once.
      expect((await fetch(`${address}/robots.txt`)).status).toBe(200);
      // The log is still one JSON object per line, and says the same in its own words.
      const lines = stdout.split('\n').filter((line) => line !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
      expect(stdout).toContain(`is serving ${address}`);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
