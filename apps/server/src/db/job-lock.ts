import type { AppServices } from '../services.ts';

// One run of a job at a time across every server process (docs/product/rules-and-constants.md#jobs). On PostgreSQL a session-level
// advisory lock held on a dedicated connection: if the process dies, the database releases it. The
// embedded database has one process, so an in-process flag does the same.

const heldInProcess = new Set<string>();

/** A stable 32-bit key per job name for pg_advisory_lock (namespaced by JOB_LOCK_SPACE). */
const JOB_LOCK_SPACE = 727_274_002;

export type JobLockResult<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` while holding the lock of `job`; answers `{ ran: false }` at once when another run
 * (in this process or another) holds it. `work` uses the normal database client, not the lock's connection.
 */
export async function withJobLock<T>(
  app: Pick<AppServices, 'database'>,
  job: string,
  work: () => Promise<T>,
): Promise<JobLockResult<T>> {
  if (heldInProcess.has(job)) return { ran: false };
  heldInProcess.add(job);
  try {
    if (app.database.kind === 'pglite') return { ran: true, value: await work() };
    return await app.database.sql.withConnection(async (conn) => {
      const { rows } = await conn.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
        [JOB_LOCK_SPACE, job],
      );
      if (!rows[0]?.locked) return { ran: false } as const;
      try {
        return { ran: true, value: await work() } as const;
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_SPACE, job]);
      }
    });
  } finally {
    heldInProcess.delete(job);
  }
}
