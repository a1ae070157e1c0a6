import * as z from 'zod/mini';
import { PAYOUT_STATUSES } from '../affiliate/stats.ts';
import { formSchema } from '../callable/field-errors.ts';
import { storableText } from '../callable/storable-text.ts';
import { isPayday } from './payday.ts';

// Inputs of the operator's payout functions (docs/product/money.md#payment-timing, docs/product/money.md#payouts) and their bounds. The server
// validates with these schemas; the console's requests are typed by them (payouts/functions.ts).

export const SEPA_PAIN_VERSIONS = ['pain.001.001.09', 'pain.001.001.03'] as const;
export type SepaPainVersion = (typeof SEPA_PAIN_VERSIONS)[number];

export const PAYOUT_EXPORT_KINDS = ['paypal', 'sepa'] as const;
export type PayoutExportKind = (typeof PAYOUT_EXPORT_KINDS)[number];

/**
 * USD→EUR rates outside this range are refused: the rate multiplies every amount of the file, so
 * a misplaced decimal point ("9.231" for "0.9231") must not reach the bank.
 */
export const EXCHANGE_RATE_BOUNDS = { min: 0.5, max: 2 } as const;
/** Decimal places the rate is stored with (payouts.exchange_rate numeric(12, 6)). */
export const EXCHANGE_RATE_DECIMALS = 6;
/** Payouts one lifecycle call may change at once. */
export const MARK_PAYOUTS_MAX = 1000;
/** The operator's bank or PayPal reference, and the failure reason, as stored. */
export const PAYOUT_REFERENCE_MAX = 140;
export const PAYOUT_REASON_MAX = 500;

/** A payday: YYYY-MM-15 (docs/product/money.md#payment-timing). */
export const paydaySchema = z.string().check(z.refine(isPayday));

/** Whether `rate` is a USD→EUR rate the exports accept: a plain decimal within EXCHANGE_RATE_BOUNDS. */
export function isAcceptableExchangeRate(rate: string): boolean {
  if (!new RegExp(`^\\d{1,6}(\\.\\d{1,${EXCHANGE_RATE_DECIMALS}})?$`).test(rate)) return false;
  const value = Number(rate);
  return value >= EXCHANGE_RATE_BOUNDS.min && value <= EXCHANGE_RATE_BOUNDS.max;
}

export const exchangeRateSchema = z.string().check(z.trim(), z.refine(isAcceptableExchangeRate));

export const adminListPayoutsSchema = z.strictObject({
  status: z.optional(z.enum(PAYOUT_STATUSES)),
  payday: z.optional(paydaySchema),
});

export const adminRunPayoutsSchema = z.strictObject({ payday: paydaySchema });

export const adminExportPayoutsSchema = z.strictObject({
  kind: z.enum(PAYOUT_EXPORT_KINDS),
  payday: paydaySchema,
  /** Required for SEPA, refused for PayPal (PayPal pays USD). */
  exchangeRate: z.optional(exchangeRateSchema),
  painVersion: z.optional(z.enum(SEPA_PAIN_VERSIONS)),
});

export const adminMarkPayoutsSchema = z.strictObject({
  payoutIds: z.array(z.uuid()).check(z.minLength(1), z.maxLength(MARK_PAYOUTS_MAX)),
  status: z.enum(['sent', 'paid', 'failed']),
  reference: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(PAYOUT_REFERENCE_MAX), storableText())),
  /** Required when the status is `failed`: it is stored and shown to the operator. */
  reason: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(PAYOUT_REASON_MAX), storableText())),
});

/** A month, YYYY-MM (UTC). */
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Months one ledger export may span, and the entries it may hold (docs/product/money.md#ledger-export). */
export const LEDGER_EXPORT_MAX_MONTHS = 12;
export const LEDGER_EXPORT_MAX_ENTRIES = 500_000;

/** Whole months from `from` to `to`, both included (0 when `to` is before `from`). */
export function monthsSpanned(from: string, to: string): number {
  const [fromYear, fromMonth] = from.split('-').map(Number) as [number, number];
  const [toYear, toMonth] = to.split('-').map(Number) as [number, number];
  return Math.max(0, (toYear - fromYear) * 12 + (toMonth - fromMonth) + 1);
}

/** The console's ledger export form: messages are keys of the `admin` namespace. */
export const adminExportLedgerSchema = formSchema(
  'admin',
  z
    .strictObject({
      from: z.string().check(z.regex(MONTH, 'ledger.errors.month')),
      to: z.string().check(z.regex(MONTH, 'ledger.errors.month')),
    })
    .check(
      z.refine((period) => monthsSpanned(period.from, period.to) >= 1, {
        path: ['to'],
        error: 'ledger.errors.periodReversed',
      }),
      z.refine((period) => monthsSpanned(period.from, period.to) <= LEDGER_EXPORT_MAX_MONTHS, {
        path: ['to'],
        error: 'ledger.errors.periodTooLong',
      }),
    ),
);

export type AdminExportLedgerRequest = z.input<typeof adminExportLedgerSchema>;
export type AdminListPayoutsRequest = z.input<typeof adminListPayoutsSchema>;
export type AdminRunPayoutsRequest = z.input<typeof adminRunPayoutsSchema>;
export type AdminExportPayoutsRequest = z.input<typeof adminExportPayoutsSchema>;
export type AdminMarkPayoutsRequest = z.input<typeof adminMarkPayoutsSchema>;
