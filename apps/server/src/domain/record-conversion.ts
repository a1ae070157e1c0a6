import type { AppServices } from '../services.ts';
import { and, eq } from 'drizzle-orm';
import { conversions } from '../db/schema/affiliates.ts';
import type { Tx } from '../db/transaction.ts';
import { lockAffiliate } from './earning-affiliate.ts';
import {
  type Pricing,
  campaignRateAt,
  priceFirstPurchase,
  priceWithCampaign,
  qualifiedCountCap,
  ruleInForce,
} from './reward-rules.ts';
import { conversionEmail, loadEmailRecipient } from '../email/affiliate-messages.ts';
import { enqueueEmail } from '../email/outbox.ts';
import { commissionCreatedEvent } from '../webhooks/events.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { holdIfUnderReview } from './review.ts';
import { checkSelfReferral } from './review-signals.ts';

// A new conversion and its commission (docs/product/money.md#premium-tier,
// docs/product/money.md#partner-groups-and-reward-rules): priced by the rule of the affiliate's group
// in force when it occurred — by default $4 when the affiliate already had 100 qualified (not
// reversed) conversions, else $2; earlier commissions are never re-priced. The affiliate's row is
// locked while counting, so simultaneous conversions of one affiliate are priced one after the other
// and the 101st is the first premium one. One conversion per install and per event (unique keys): a
// repeated or simultaneous event records nothing more. The commission keeps its rule version and
// what priced it; the database enters it in the ledger (domain/ledger.ts).

export type RateTier = Pricing['rateTier'];

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
  /** USD cents after the store's commission (a percentage rule's base); null without a price. */
  proceedsCents: number | null;
  transactionId: string | null;
  originalTransactionId: string | null;
  /** The app user's e-mail as a keyed hash, when the store's event gives one (the self-referral signal compares it). */
  appUserEmailHash?: string | null;
}

export type RecordConversionResult =
  | { outcome: 'conversion'; conversionId: number; commissionCents: number; rateTier: RateTier }
  | { outcome: 'already-converted'; conversionId: number | null }
  | { outcome: 'affiliate-ineligible' };

const DAY_MS = 24 * 60 * 60 * 1000;

async function installConversionId(tx: Tx, installId: string): Promise<number | null> {
  const [row] = await tx.db
    .select({ id: conversions.id })
    .from(conversions)
    .where(and(eq(conversions.installId, Number(installId)), eq(conversions.kind, 'first-purchase')));
  return row?.id ?? null;
}

/**
 * Records the install's conversion with its commission (status pending) and queues the affiliate's
 * e-mail when they want it, in the caller's transaction.
 */
export async function recordConversion(
  tx: Tx,
  app: Pick<AppServices, 'config' | 'now' | 'log'>,
  input: NewConversion,
): Promise<RecordConversionResult> {
  const existing = await installConversionId(tx, input.installId);
  if (existing !== null) return { outcome: 'already-converted', conversionId: existing };
  const affiliate = await lockAffiliate(tx, input.affiliateId, app.now());
  if (!affiliate?.mayEarn) return { outcome: 'affiliate-ineligible' };

  const rule = await ruleInForce(tx, input.affiliateId, input.occurredAt);
  // Counting stops at the rule's last step: whether it is reached is all the rate depends on.
  const { rows: counted } = await tx.query<{ qualified: number }>(
    `SELECT count(*)::int AS qualified FROM (
       SELECT 1 FROM conversions WHERE affiliate_id = $1 AND kind = 'first-purchase' AND status <> 'reversed' LIMIT $2
     ) AS qualified`,
    [input.affiliateId, qualifiedCountCap(rule)],
  );
  // A campaign rate of the code covering the purchase prices it instead of the group's rule.
  const campaign =
    input.referralCodeId === null ? null : await campaignRateAt(tx, input.referralCodeId, input.occurredAt);
  const { commissionCents, rateTier, inputs } = campaign
    ? priceWithCampaign(campaign, rule, { proceedsCents: input.proceedsCents })
    : priceFirstPurchase(rule, { qualifiedBefore: counted[0]?.qualified ?? 0, proceedsCents: input.proceedsCents });
  const [inserted] = await tx.db
    .insert(conversions)
    .values({
      sourceEventId: input.sourceEventId,
      appUserId: input.appUserId,
      affiliateId: input.affiliateId,
      referralCodeId: input.referralCodeId === null ? null : Number(input.referralCodeId),
      installId: Number(input.installId),
      store: input.store,
      productId: input.productId,
      occurredAt: input.occurredAt,
      commissionCents,
      rateTier,
      ruleId: rule.id,
      campaignRateId: campaign?.id ?? null,
      pricing: inputs,
      approvableAt: new Date(input.occurredAt.getTime() + rule.holdDays * DAY_MS),
      status: 'pending',
      priceCents: input.priceCents,
      priceCurrency: input.priceCurrency,
      proceedsCents: input.proceedsCents,
      transactionId: input.transactionId,
      originalTransactionId: input.originalTransactionId,
      createdAt: app.now(),
    })
    .onConflictDoNothing()
    .returning({ id: conversions.id });
  const conversionId = inserted?.id;
  // A simultaneous event of the same install committed first.
  if (conversionId === undefined)
    return { outcome: 'already-converted', conversionId: await installConversionId(tx, input.installId) };

  const created = {
    conversionId,
    affiliateId: input.affiliateId,
    commissionCents,
    rateTier,
    occurredAt: input.occurredAt,
  };
  await enqueueWebhookEvent(tx, commissionCreatedEvent(created), app.now());
  // A conversion arriving (docs/product/review.md#signals): a self-referral, with the store's e-mail
  // when it gives one; then the hold of a case open on the affiliate or the install.
  const at = app.now();
  await checkSelfReferral(tx, app, { installId: input.installId, appUserEmailHash: input.appUserEmailHash, at });
  await holdIfUnderReview(tx, { conversionId, affiliateId: input.affiliateId, installId: input.installId, at });

  const recipient = await loadEmailRecipient(tx, input.affiliateId);
  if (recipient?.notifyConversions) {
    await enqueueEmail(
      tx,
      conversionEmail(app, recipient, { code: input.code, commissionCents, rateTier, holdDays: rule.holdDays }),
      {
        kind: 'conversion',
        dedupeKey: `conversion:${conversionId}`,
      },
    );
  }
  return { outcome: 'conversion', conversionId, commissionCents, rateTier };
}
