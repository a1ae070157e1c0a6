import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config.ts';
import { runPrimary } from './process/cluster.ts';
import { serve } from './process/serve.ts';

// `npm start`: one process serves everything. WORKERS=N (PostgreSQL only): this process becomes the
// primary of N workers sharing the port (docs/operations-processes.md).

async function main() {
  const config = loadConfig();
  if (config.WORKERS > 1 && cluster.isPrimary) await runPrimary(config);
  else await serve(config);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
