import { maskIban } from '@skanova/shared/affiliate/bank';
import type { PaymentMethodSummary, ValidPaymentMethod } from '@skanova/shared/affiliate/payment-method';
import type { AppContext } from '../../context.ts';

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

export function sealPaymentMethod(app: Pick<AppContext, 'cipher'>, method: ValidPaymentMethod): SealedPaymentMethod {
  if (method.type === 'paypal') {
    return { type: 'paypal', paypalEmail: method.paypalEmail, bankName: null, accountHolder: null, ibanEncrypted: null, bicEncrypted: null, ibanLast4: null };
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
  app: Pick<AppContext, 'cipher'>,
  row: SealedPaymentMethod & { updatedAt: Date } | null | undefined,
): PaymentMethodSummary {
  if (!row) return { type: null, configured: false };
  if (row.type === 'paypal') return { type: 'paypal', configured: true, paypalEmail: row.paypalEmail ?? '', updatedAt: row.updatedAt.toISOString() };
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
