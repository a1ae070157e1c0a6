import { type SQL, sql } from 'drizzle-orm';
import type { AppServices } from '../services.ts';
import type { Db, SqlClient } from './client.ts';

// Transactions. PGlite has one connection: statements of other requests would slip between a BEGIN
// and a COMMIT sent through the plain client, so a transaction goes through Drizzle, which holds
// PGlite's transaction lock (and a dedicated pool client on PostgreSQL). Inside it, only the given
// session may be used — its typed queries (`tx.db`) or its raw SQL (`tx.query`): the plain client
// and `app.database.db` would wait for the connection the transaction holds.

/** Raw SQL on the transaction's connection (statements that stay SQL: batches, reports, locks). */
export type TransactionQuery = Pick<SqlClient, 'query'>;

/**
 * One database session: typed Drizzle queries and raw SQL on the same connection. Inside
 * `inTransaction` both run in the transaction. Outside one, `app.database` serves where only
 * `Pick<Tx, 'db'>` is asked.
 */
export interface Tx extends TransactionQuery {
  db: Db;
  /**
   * Runs `callback` once the transaction has committed, never when it rolls back (a wake-up for
   * what drains an outbox written in it: webhooks/signal.ts). `inTransaction` provides it.
   */
  afterCommit?(callback: () => void): void;
}

/**
 * `text` with `$1`…`$n` placeholders and its parameters as one Drizzle statement, so that the same
 * SQL text serves the plain client and a transaction.
 */
export function statement(text: string, params: readonly unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const query = sql.empty();
  parts.forEach((part, index) => {
    if (index % 2 === 0) query.append(sql.raw(part));
    else query.append(sql`${params[Number(part) - 1]}`);
  });
  return query;
}

/**
 * Runs `work` in one transaction: it commits when `work` returns and rolls back when it throws. The
 * callbacks `work` gave `tx.afterCommit` run once it has committed (they must not throw).
 */
export async function inTransaction<T>(app: Pick<AppServices, 'database'>, work: (tx: Tx) => Promise<T>): Promise<T> {
  const committed: (() => void)[] = [];
  const result = await app.database.db.transaction(async (transaction) =>
    work({
      db: transaction,
      async query<R>(text: string, params?: unknown[]) {
        const result = (await transaction.execute(statement(text, params))) as unknown as { rows: R[] };
        return { rows: result.rows };
      },
      afterCommit: (callback) => committed.push(callback),
    }),
  );
  for (const callback of committed) callback();
  return result;
}
