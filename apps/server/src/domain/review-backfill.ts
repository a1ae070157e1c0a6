import type { AppServices } from '../services.ts';
import { emailHash, payoutAccountHash } from './review-signals.ts';

// The keyed hashes the fraud review compares, for the rows written before it (docs/product/review.md#signals):
// the migration that added the columns has no key (IP_HASH_SECRET stays out of the database, and an
// IBAN is sealed with DATA_ENCRYPTION_KEY), so the server fills them once, as a job
// (jobs/scheduler.ts, `review-identities`): each affiliate's signup e-mail hash, and each payment
// method's account hash. The signup IP and browser were never kept, so those stay empty for
// existing affiliates. Every row written since carries its hashes.

const BATCH = 500;

export async function backfillReviewIdentities(
  app: Pick<AppServices, 'database' | 'cipher' | 'hashIdentifier'>,
): Promise<{ affiliates: number; paymentMethods: number }> {
  const sql = app.database.sql;
  let affiliates = 0;
  for (;;) {
    const { rows } = await sql.query<{ id: string; email: string }>(
      `SELECT a.id, u.email FROM affiliates a JOIN auth_users u ON u.id = a.user_id
       WHERE a.email_hash IS NULL AND a.deleted_at IS NULL ORDER BY a.id LIMIT $1`,
      [BATCH],
    );
    if (rows.length === 0) break;
    await sql.query(
      `UPDATE affiliates a SET email_hash = h.hash
       FROM jsonb_to_recordset($1::jsonb) AS h(id text, hash text) WHERE a.id = h.id AND a.email_hash IS NULL`,
      [JSON.stringify(rows.map((row) => ({ id: row.id, hash: emailHash(app, row.email) })))],
    );
    affiliates += rows.length;
    if (rows.length < BATCH) break;
  }
  let paymentMethods = 0;
  for (;;) {
    const { rows } = await sql.query<{
      id: string;
      type: 'paypal' | 'bank_transfer';
      paypal_email: string | null;
      iban_encrypted: string | null;
    }>(
      `SELECT id, type, paypal_email, iban_encrypted FROM payment_methods
       WHERE payout_account_hash IS NULL AND (paypal_email IS NOT NULL OR iban_encrypted IS NOT NULL)
       ORDER BY id LIMIT $1`,
      [BATCH],
    );
    if (rows.length === 0) break;
    const hashes = rows.map((row) => ({
      id: row.id,
      hash:
        row.type === 'paypal'
          ? payoutAccountHash(app, { type: 'paypal', paypalEmail: row.paypal_email ?? '' })
          : payoutAccountHash(app, { type: 'bank_transfer', iban: app.cipher.decrypt(row.iban_encrypted ?? '') }),
    }));
    await sql.query(
      `UPDATE payment_methods m SET payout_account_hash = h.hash
       FROM jsonb_to_recordset($1::jsonb) AS h(id text, hash text) WHERE m.id = h.id AND m.payout_account_hash IS NULL`,
      [JSON.stringify(hashes)],
    );
    paymentMethods += rows.length;
    if (rows.length < BATCH) break;
  }
  return { affiliates, paymentMethods };
}
