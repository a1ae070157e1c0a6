import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { SERVED_PAGES } from '@skanova/shared/site/pages';

// Real server processes for tests (`node --import tsx apps/server/src/main.ts`, as `npm start` runs
// it): scale-out, graceful shutdown.

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Secrets every process of one test shares (required with PostgreSQL). */
export const SHARED_SECRETS = {
  IP_HASH_SECRET: 'scale-out-secret-scale-out-secret-0123',
  AUTH_SECRET: 'scale-out-auth-secret-scale-out-auth-01',
  DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
};

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
  /** Everything it wrote so far (stdout and stderr). */
  output: () => string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once `baseUrl` answers; fails at once if the process exits first. */
export async function waitUntilServing(baseUrl: string, server: ServerProcess, timeoutMs = 60_000) {
  await until(
    async () => {
      if (server.child.exitCode !== null) {
        throw new Error(`The server exited with ${server.child.exitCode}:\n${server.output()}`);
      }
      try {
        return (await fetch(`${baseUrl}/robots.txt`)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    `${baseUrl} to serve`,
    timeoutMs,
  );
}
