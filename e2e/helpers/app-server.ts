import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A server of the test's own, for stories that need what the shared test server cannot give: being
// switched off (the network gone) or replaced by a new deployment on the same address (a service
// worker belongs to its origin, port included).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const START_TIMEOUT_MS = 60_000;

export interface AppServer {
  url: string;
  stop(): Promise<void>;
}

/** A port nobody listens on now (the system picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts the product on `port` with the site built in `buildDir` and its data in `dataDir`; resolves once it answers. */
export async function startAppServer(options: { port: number; buildDir: string; dataDir: string }): Promise<AppServer> {
  const url = `http://localhost:${options.port}`;
  mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: options.dataDir,
      WEB_BUILD_DIR: options.buildDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (!running) throw new Error(`The test server on ${url} stopped while starting.`);
    try {
      if ((await fetch(`${url}/robots.txt`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The test server on ${url} did not start within ${START_TIMEOUT_MS} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async stop() {
      if (running) child.kill('SIGTERM');
      await exited;
    },
  };
}
