import {
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '@skanova/shared/affiliate/programme';
import type { AppServices } from '../services.ts';
import type { TransactionQuery } from '../db/transaction.ts';
import { lockAffiliate } from './earning-affiliate.ts';
import { conversionEmail, loadEmailRecipient } from '../email/affiliate-messages.ts';
import { enqueueEmail } from '../email/outbox.ts';

// A new conversion and its commission (BRIEF §5.3): $4 when the affiliate already had 100 qualified
// (not reversed) conversions, else $2; earlier commissions are never re-priced. The affiliate's row
// is locked while counting, so simultaneous conversions of one affiliate are priced one after the
// other and the 101st is the first premium one. One conversion per install and per event (unique
// keys): a repeated or simultaneous event records nothing more.

export type RateTier = 'standard' | 'premium';

export interface NewConversion {
  sourceEventId: string;
  appUserId: string;
  installId: string;
  affiliateId: string;
  referralCodeId: string | null;
  /** The referral code, for the affiliate's e-mail. */
  code: string;
  store: string | null;
  productId: string | null;
  occurredAt: Date;
  priceCents: number | null;
  priceCurrency: string | null;
  transactionId: string | null;
  originalTransactionId: string | null;
}

export type RecordConversionResult =
  | { outcome: 'conversion'; conversionId: number; commissionCents: number; rateTier: RateTier }
  | { outcome: 'already-converted'; conversionId: number | null }
  | { outcome: 'affiliate-ineligible' };

/** The commission of the affiliate's next conversion, given how many qualified ones they already have. */
function commissionFor(qualifiedBefore: number): { commissionCents: number; rateTier: RateTier } {
  return qualifiedBefore >= PREMIUM_THRESHOLD
    ? { commissionCents: PREMIUM_COMMISSION_CENTS, rateTier: 'premium' }
    : { commissionCents: STANDARD_COMMISSION_CENTS, rateTier: 'standard' };
}

async function installConversionId(tx: TransactionQuery, installId: string): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>('SELECT id::int AS id FROM conversions WHERE install_id = $1', [
    installId,
  ]);
  return rows[0]?.id ?? null;
}

/**
 * Records the install's conversion with its commission (status pending) and queues the affiliate's
 * e-mail when they want it, in the caller's transaction.
 */
export async function recordConversion(
  tx: TransactionQuery,
  app: Pick<AppServices, 'config' | 'now'>,
  input: NewConversion,
): Promise<RecordConversionResult> {
  const existing = await installConversionId(tx, input.installId);
  if (existing !== null) return { outcome: 'already-converted', conversionId: existing };
  const affiliate = await lockAffiliate(tx, input.affiliateId, app.now());
  if (!affiliate?.mayEarn) return { outcome: 'affiliate-ineligible' };

  // Counting stops at the threshold: whether it is reached is all the rate depends on.
  const { rows: counted } = await tx.query<{ qualified: number }>(
    `SELECT count(*)::int AS qualified FROM (
       SELECT 1 FROM conversions WHERE affiliate_id = $1 AND status <> 'reversed' LIMIT $2
     ) AS qualified`,
    [input.affiliateId, PREMIUM_THRESHOLD],
  );
  const { commissionCents, rateTier } = commissionFor(counted[0]?.qualified ?? 0);
  const { rows: inserted } = await tx.query<{ id: number }>(
    `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, referral_code_id, install_id, store, product_id, occurred_at,
       commission_cents, rate_tier, status, price_cents, price_currency, transaction_id, original_transaction_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12, $13, $14, $15)
     ON CONFLICT DO NOTHING
     RETURNING id::int AS id`,
    [
      input.sourceEventId,
      input.appUserId,
      input.affiliateId,
      input.referralCodeId,
      input.installId,
      input.store,
      input.productId,
      input.occurredAt.toISOString(),
      commissionCents,
      rateTier,
      input.priceCents,
      input.priceCurrency,
      input.transactionId,
      input.originalTransactionId,
      app.now().toISOString(),
    ],
  );
  const conversionId = inserted[0]?.id;
  // A simultaneous event of the same install committed first.
  if (conversionId === undefined)
    return { outcome: 'already-converted', conversionId: await installConversionId(tx, input.installId) };

  const recipient = await loadEmailRecipient(tx, input.affiliateId);
  if (recipient?.notifyConversions) {
    await enqueueEmail(tx, conversionEmail(app, recipient, { code: input.code, commissionCents, rateTier }), {
      kind: 'conversion',
      dedupeKey: `conversion:${conversionId}`,
    });
  }
  return { outcome: 'conversion', conversionId, commissionCents, rateTier };
}
