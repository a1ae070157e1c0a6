import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The production server for the browser benchmarks (Lighthouse, the web app's timings).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ProductServer {
  baseUrl: string;
  stop(): Promise<void>;
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}.`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer ${url} within ${timeoutMs / 1000} s.`);
}

/**
 * The built product (site + API + web app) on `port` with a throw-away data folder, as `npm start`
 * serves it (WEB_BUILD_DIR=<build folder> to serve another build).
 */
export async function startProduct(port: number): Promise<ProductServer> {
  const buildDir = path.resolve(ROOT, process.env.WEB_BUILD_DIR ?? 'apps/web/build');
  if (!existsSync(buildDir)) throw new Error(`No build in ${buildDir}: run npm run build first.`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-product-'));
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEB_BUILD_DIR: buildDir,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForServer(`${baseUrl}/robots.txt`, child);
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
