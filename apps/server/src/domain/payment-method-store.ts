import { randomUUID } from 'node:crypto';
import { maskIban } from '@skanova/shared/affiliate/bank';
import type { PaymentMethodSummary, ValidPaymentMethod } from '@skanova/shared/affiliate/payment-method';
import type { AppServices } from '../services.ts';
import type { TransactionQuery } from '../db/transaction.ts';

// Payment methods at rest (BRIEF §4): IBAN and BIC sealed with the field cipher; the last 4 IBAN
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

/** A `payment_methods` row's sealed columns, as SQL answers them. */
export interface SealedPaymentMethodRow {
  type: 'paypal' | 'bank_transfer';
  paypal_email: string | null;
  bank_name: string | null;
  account_holder: string | null;
  iban_encrypted: string | null;
  bic_encrypted: string | null;
  iban_last4: string | null;
}

interface PaymentMethodRow extends SealedPaymentMethodRow {
  /** Milliseconds: drivers disagree on how they hand over timestamps inside a transaction. */
  updated_at_ms: number;
}

const COLUMNS =
  'type, paypal_email, bank_name, account_holder, iban_encrypted, bic_encrypted, iban_last4, (extract(epoch FROM updated_at) * 1000)::float8 AS updated_at_ms';

/** The sealed payment method of a row (still encrypted: what payouts snapshot and the store keeps). */
export function sealedFromRow(row: SealedPaymentMethodRow): SealedPaymentMethod {
  return {
    type: row.type,
    paypalEmail: row.paypal_email,
    bankName: row.bank_name,
    accountHolder: row.account_holder,
    ibanEncrypted: row.iban_encrypted,
    bicEncrypted: row.bic_encrypted,
    ibanLast4: row.iban_last4,
  };
}

function fromRow(row: PaymentMethodRow): SealedPaymentMethod & { updatedAt: Date } {
  return { ...sealedFromRow(row), updatedAt: new Date(Number(row.updated_at_ms)) };
}

/** The affiliate's stored method, sealed, or null when none is configured. */
export async function loadPaymentMethod(app: Pick<AppServices, 'database'>, affiliateId: string) {
  const { rows } = await app.database.sql.query<PaymentMethodRow>(
    `SELECT ${COLUMNS} FROM payment_methods WHERE affiliate_id = $1`,
    [affiliateId],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/**
 * Stores the affiliate's method (one per affiliate: a new one replaces the old, whose bank fields are
 * cleared) and answers what was stored with the type it replaced.
 */
export async function savePaymentMethod(
  app: Pick<AppServices, 'cipher' | 'now'>,
  tx: TransactionQuery,
  affiliateId: string,
  method: ValidPaymentMethod,
): Promise<{ stored: SealedPaymentMethod & { updatedAt: Date }; previousType: SealedPaymentMethod['type'] | null }> {
  const sealed = sealPaymentMethod(app, method);
  const now = app.now().toISOString();
  const { rows } = await tx.query<PaymentMethodRow & { previous_type: SealedPaymentMethod['type'] | null }>(
    `WITH previous AS (SELECT type FROM payment_methods WHERE affiliate_id = $2)
     INSERT INTO payment_methods (id, affiliate_id, type, paypal_email, bank_name, account_holder, iban_encrypted, bic_encrypted, iban_last4, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
     ON CONFLICT (affiliate_id) DO UPDATE SET
       type = EXCLUDED.type, paypal_email = EXCLUDED.paypal_email, bank_name = EXCLUDED.bank_name,
       account_holder = EXCLUDED.account_holder, iban_encrypted = EXCLUDED.iban_encrypted,
       bic_encrypted = EXCLUDED.bic_encrypted, iban_last4 = EXCLUDED.iban_last4, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}, (SELECT type FROM previous) AS previous_type`,
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
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('payment method upsert returned no row');
  return { stored: fromRow(row), previousType: row.previous_type };
}
