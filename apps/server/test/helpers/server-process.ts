import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { SERVED_PAGES } from '@skanova/shared/site/pages';

// Real server processes (`apps/server/src/main.ts`) for tests of what only a process shows: several
// processes on one database, signals, backups of a running server.

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** main.ts serves the built site: a minimal tree with every page it loads stands in for the build. */
export function fakeSiteBuild(dir: string) {
  for (const lang of LANGUAGES) {
    const client = path.join(dir, lang, 'client');
    mkdirSync(path.join(client, 'assets'), { recursive: true });
    for (const page of SERVED_PAGES) {
      const folder = page === '/' ? client : path.join(client, page);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        path.join(folder, 'index.html'),
        `<!doctype html><html lang="${lang}"><title>${page}</title></html>`,
      );
    }
  }
}

export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `main.ts` with this environment over the test's own; a variable set to `undefined` is removed. */
export function startServer(env: Record<string, string | undefined>): ServerProcess {
  const merged = { ...process.env, ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
