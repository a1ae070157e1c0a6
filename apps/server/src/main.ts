import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirInUseError } from './db/backup/control-channel.ts';

// `npm start`: one process serves everything. WORKERS=N (PostgreSQL only): this process becomes the
// primary of N workers sharing the port (docs/operations-processes.md).

async function main() {
  const config = loadConfig();
  // Loaded on demand: the cluster's primary never loads the app.
  if (config.WORKERS > 1 && cluster.isPrimary) await (await import('./process/cluster.ts')).runPrimary(config);
  else await (await import('./process/serve.ts')).serve(config);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
