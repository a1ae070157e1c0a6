import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { DEMO_WEBHOOK_AUTH, seedDemo } from './seed-demo.ts';
import { demoEnvironment, listenNotice } from './demo-environment.ts';
import { createOperator } from './operator.ts';

// `npm run demo`: a fresh embedded database in DATA_DIR (default ./data/demo) seeded with six months
// of the programme, then the product served on it (on localhost unless HOST is set), with the logins
// printed.

const SERVER_ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

async function main() {
  const env = demoEnvironment(process.env);
  const config = loadConfig(env);
  if (config.DATABASE_URL)
    throw new ConfigError('The demo seeds a fresh embedded database: unset DATABASE_URL to run it.');
  const dataDir = path.resolve(config.DATA_DIR);
  rmSync(dataDir, { recursive: true, force: true });

  console.log(`Seeding six months of demo data into ${config.DATA_DIR} …`);
  const started = Date.now();
  const database = openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  await migrate(database.sql);
  const summary = await seedDemo(config, database, createOperator);
  await database.close();
  console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);

  console.log(`Demo logins (${config.publicUrl}/affiliate/login):`);
  for (const affiliate of summary.affiliates)
    console.log(`  affiliate  ${affiliate.email.padEnd(32)} ${affiliate.password}   (${affiliate.name})`);
  console.log(`\nOperator console (${config.publicUrl}/admin):`);
  console.log(`  operator   ${summary.operator.email.padEnd(32)} ${summary.operator.password}`);
  console.log(
    `\nRevenueCat webhook: POST ${config.publicUrl}/api/webhooks/revenuecat with "Authorization: ${DEMO_WEBHOOK_AUTH}"`,
  );
  console.log(`\n${listenNotice(config.HOST)}\n`);

  const server = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], { env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
