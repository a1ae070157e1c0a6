import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createOperator } from '../apps/server/src/features/admin/operators.ts';
import { SEED_ACCOUNTS, SEED_OPERATOR } from './helpers/seed-accounts.ts';

// Accounts the browser tests need before the server starts, made through the real signup function
// and, for the operator, the `admin:create` command's function and the reset link it prints (the
// embedded database admits one process at a time, so this runs before the server opens it).

const config = loadConfig();
const database = openDatabase({ url: config.DATABASE_URL, pgliteDir: path.resolve(config.DATA_DIR, 'db') });
await migrate(database.sql);
const { app, context } = await buildApp({ config, database, serveSite: false, logger: false });
for (const account of Object.values(SEED_ACCOUNTS)) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/fn/createAffiliate',
    headers: { 'content-type': 'application/json', origin: config.publicOrigin },
    payload: {
      data: {
        email: account.email,
        password: account.password,
        firstName: account.firstName,
        lastName: 'Seed',
        paymentMethod: 'later',
        termsAccepted: true,
        language: 'fr',
      },
    },
  });
  if (response.statusCode !== 200) throw new Error(`seeding ${account.email} failed: ${response.body}`);
  if (account.disabled)
    await database.sql.query('UPDATE auth_users SET banned = true WHERE email = $1', [account.email]);
}
const operator = await createOperator(context, SEED_OPERATOR.email);
const reset = await app.inject({
  method: 'POST',
  url: '/api/auth/reset-password',
  headers: { 'content-type': 'application/json', origin: config.publicOrigin },
  payload: { token: new URL(operator.setPasswordUrl).searchParams.get('token'), newPassword: SEED_OPERATOR.password },
});
if (reset.statusCode !== 200) throw new Error(`seeding the operator failed: ${reset.body}`);
await app.close();
await database.close();
