import { decimalAmount } from '../../domain/money.ts';

// PayPal Payouts batch file (docs/product/money.md#payouts), as PayPal's Payouts Web upload reads it: a .csv file, no
// header row, one payment per line, these columns from left to right:
//   1. recipient identifier: the affiliate's PayPal e-mail;
//   2. payment amount, US format with two decimals ("20.00");
//   3. currency code: USD (one currency per file);
//   4. customer ID: unique per payment, at most 30 characters, no spaces: the payout's transfer
//      reference, which PayPal's reports give back;
//   5. note to recipient: at most 400 characters;
//   6. recipient wallet: PAYPAL.
// At most 5,000 payments per file. Fields are quoted when they hold a comma, a quote or a line break
// (RFC 4180); lines end with CRLF.

export const PAYPAL_CSV_MAX_ROWS = 5000;
export const PAYPAL_CUSTOMER_ID_MAX = 30;
export const PAYPAL_NOTE_MAX = 400;
export const PAYPAL_WALLET = 'PAYPAL';

export interface PaypalPayment {
  email: string;
  /** USD cents. */
  amountCents: number;
  currency: string;
  customerId: string;
  note: string;
}

function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function buildPaypalCsv(payments: readonly PaypalPayment[]): string {
  if (payments.some((payment) => payment.amountCents < 1))
    throw new RangeError('a PayPal payment needs a positive amount');
  if (payments.length === 0 || payments.length > PAYPAL_CSV_MAX_ROWS)
    throw new RangeError(`a PayPal file holds 1 to ${PAYPAL_CSV_MAX_ROWS} payments`);
  const currencies = new Set(payments.map((payment) => payment.currency));
  if (currencies.size !== 1) throw new RangeError('a PayPal file holds one currency');
  const customerIds = new Set<string>();
  return payments
    .map((payment) => {
      const { customerId } = payment;
      if (
        customerId === '' ||
        customerId.length > PAYPAL_CUSTOMER_ID_MAX ||
        /\s/.test(customerId) ||
        customerIds.has(customerId)
      )
        throw new RangeError(`bad or repeated customer id "${customerId}"`);
      customerIds.add(customerId);
      const note = payment.note.replace(/\s+/g, ' ').trim().slice(0, PAYPAL_NOTE_MAX);
      return [
        payment.email.trim(),
        decimalAmount(payment.amountCents),
        payment.currency,
        customerId,
        note,
        PAYPAL_WALLET,
      ]
        .map(field)
        .join(',');
    })
    .map((line) => `${line}\r\n`)
    .join('');
}
