import { randomUUID } from 'node:crypto';
import { maskIban } from '@skanova/shared/affiliate/bank';
import type { PaymentMethodSummary, ValidPaymentMethod } from '@skanova/shared/affiliate/payment-method';
import { eq } from 'drizzle-orm';
import type { AppServices } from '../services.ts';
import { paymentMethods } from '../db/schema/affiliates.ts';
import type { TransactionQuery } from '../db/transaction.ts';
import { payoutAccountHash } from './review-signals.ts';

// Payment methods at rest (docs/product/rules-and-constants.md#security): IBAN and BIC sealed with the field cipher; the last 4 IBAN
// characters kept in clear for the masked view.

export interface SealedPaymentMethod {
  type: 'paypal' | 'bank_transfer';
  paypalEmail: string | null;
  bankName: string | null;
  accountHolder: string | null;
  ibanEncrypted: string | null;
  bicEncrypted: string | null;
  ibanLast4: string | null;
}

export function sealPaymentMethod(app: Pick<AppServices, 'cipher'>, method: ValidPaymentMethod): SealedPaymentMethod {
  if (method.type === 'paypal') {
    return {
      type: 'paypal',
      paypalEmail: method.paypalEmail,
      bankName: null,
      accountHolder: null,
      ibanEncrypted: null,
      bicEncrypted: null,
      ibanLast4: null,
    };
  }
  return {
    type: 'bank_transfer',
    paypalEmail: null,
    bankName: method.bankName,
    accountHolder: method.accountHolder,
    ibanEncrypted: app.cipher.encrypt(method.bankIban),
    bicEncrypted: app.cipher.encrypt(method.bic),
    ibanLast4: method.bankIban.slice(-4),
  };
}

/** What the dashboard may see of a stored method: never the full IBAN. */
export function summarisePaymentMethod(
  app: Pick<AppServices, 'cipher'>,
  row: (SealedPaymentMethod & { updatedAt: Date }) | null | undefined,
): PaymentMethodSummary {
  if (!row) return { type: null, configured: false };
  if (row.type === 'paypal')
    return {
      type: 'paypal',
      configured: true,
      paypalEmail: row.paypalEmail ?? '',
      updatedAt: row.updatedAt.toISOString(),
    };
  const iban = row.ibanEncrypted ? app.cipher.decrypt(row.ibanEncrypted) : '';
  return {
    type: 'bank_transfer',
    configured: true,
    bankName: row.bankName ?? '',
    accountHolder: row.accountHolder ?? '',
    ibanMasked: maskIban(iban),
    bic: row.bicEncrypted ? app.cipher.decrypt(row.bicEncrypted) : '',
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The payout account's keyed hash (the fraud review compares it across affiliates: docs/product/review.md#signals). */
export function paymentMethodAccountHash(app: Pick<AppServices, 'hashIdentifier'>, method: ValidPaymentMethod): string {
  return method.type === 'paypal'
    ? payoutAccountHash(app, { type: 'paypal', paypalEmail: method.paypalEmail })
    : payoutAccountHash(app, { type: 'bank_transfer', iban: method.bankIban });
}

/** A `payment_methods` row's sealed columns as a Drizzle selection: its rows are `SealedPaymentMethod`s. */
export const sealedPaymentMethodColumns = {
  type: paymentMethods.type,
  paypalEmail: paymentMethods.paypalEmail,
  bankName: paymentMethods.bankName,
  accountHolder: paymentMethods.accountHolder,
  ibanEncrypted: paymentMethods.ibanEncrypted,
  bicEncrypted: paymentMethods.bicEncrypted,
  ibanLast4: paymentMethods.ibanLast4,
};

/** What the upsert below answers: the sealed method under its own names, the time in milliseconds. */
interface StoredRow extends SealedPaymentMethod {
  /** Milliseconds: drivers disagree on how they hand over timestamps inside a transaction. */
  updatedAtMs: number;
  previousType: SealedPaymentMethod['type'] | null;
}

/** The affiliate's stored method, sealed, or null when none is configured. */
export async function loadPaymentMethod(
  app: Pick<AppServices, 'database'>,
  affiliateId: string,
): Promise<(SealedPaymentMethod & { updatedAt: Date }) | null> {
  const [row] = await app.database.db
    .select({ ...sealedPaymentMethodColumns, updatedAt: paymentMethods.updatedAt })
    .from(paymentMethods)
    .where(eq(paymentMethods.affiliateId, affiliateId));
  return row ?? null;
}

/**
 * Stores the affiliate's method (one per affiliate: a new one replaces the old, whose bank fields are
 * cleared) and answers what was stored with the type it replaced.
 */
export async function savePaymentMethod(
  app: Pick<AppServices, 'cipher' | 'now' | 'hashIdentifier'>,
  tx: TransactionQuery,
  affiliateId: string,
  method: ValidPaymentMethod,
): Promise<{ stored: SealedPaymentMethod & { updatedAt: Date }; previousType: SealedPaymentMethod['type'] | null }> {
  const sealed = sealPaymentMethod(app, method);
  const now = app.now().toISOString();
  const { rows } = await tx.query<StoredRow>(
    `WITH previous AS (SELECT type FROM payment_methods WHERE affiliate_id = $2)
     INSERT INTO payment_methods (id, affiliate_id, type, paypal_email, bank_name, account_holder, iban_encrypted, bic_encrypted, iban_last4, created_at, updated_at, payout_account_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11)
     ON CONFLICT (affiliate_id) DO UPDATE SET
       type = EXCLUDED.type, paypal_email = EXCLUDED.paypal_email, bank_name = EXCLUDED.bank_name,
       account_holder = EXCLUDED.account_holder, iban_encrypted = EXCLUDED.iban_encrypted,
       bic_encrypted = EXCLUDED.bic_encrypted, iban_last4 = EXCLUDED.iban_last4, updated_at = EXCLUDED.updated_at,
       payout_account_hash = EXCLUDED.payout_account_hash
     RETURNING type, paypal_email AS "paypalEmail", bank_name AS "bankName", account_holder AS "accountHolder",
       iban_encrypted AS "ibanEncrypted", bic_encrypted AS "bicEncrypted", iban_last4 AS "ibanLast4",
       (extract(epoch FROM updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT type FROM previous) AS "previousType"`,
    [
      randomUUID(),
      affiliateId,
      sealed.type,
      sealed.paypalEmail,
      sealed.bankName,
      sealed.accountHolder,
      sealed.ibanEncrypted,
      sealed.bicEncrypted,
      sealed.ibanLast4,
      now,
      paymentMethodAccountHash(app, method),
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('payment method upsert returned no row');
  const { updatedAtMs, previousType, ...stored } = row;
  return { stored: { ...stored, updatedAt: new Date(Number(updatedAtMs)) }, previousType };
}
