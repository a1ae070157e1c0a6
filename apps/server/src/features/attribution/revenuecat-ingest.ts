import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { revenuecatEvents } from '../../db/schema/programme.ts';
import { type Tx, inTransaction } from '../../db/transaction.ts';
import { recordConversion } from '../../domain/record-conversion.ts';
import { recordRenewal } from '../../domain/record-renewal.ts';
import { reverseConversionIn } from '../../domain/reverse-conversion.ts';
import { checkRefundRate, emailHash } from '../../domain/review-signals.ts';
import { distinctIds, findInstall, findInstallIds, linkAliases, listParam } from './installs.ts';
import {
  type RevenueCatEvent,
  type RevenueCatWebhook,
  customerIds,
  eventMeaning,
  isSandbox,
  occurredAt,
  proceedsCents,
} from './revenuecat-event.ts';

// One RevenueCat event (docs/product/attribution.md#conversions), in one transaction: the event's row
// first — its primary key makes a repeated delivery (even a simultaneous one) change nothing — then
// what the event means, then the outcome on the event's row.
//
// - The install is found through any id the event names; every id it names becomes an alias of it.
// - A conversion goes to the install's affiliate if they may still earn (see recordConversion).
// - A refund takes back the commission of the refunded purchase, however late: the conversion whose
//   transaction (or original transaction) is the refunded one, found by transaction id wherever the
//   customer's ids now point; when the event or the conversion has no transaction id, the conversion
//   of the customer's install. A refund of a later renewal does not take the first purchase's
//   commission back (that purchase was not refunded); it takes back that renewal's own commission,
//   when a recurring rule paid one (the exact transaction is preferred to the original one).
// - A renewal earns under a recurring percentage rule only (domain/record-renewal.ts).
// - A TRANSFER gives the transferred_to ids to the install of transferred_from when that install is
//   attributed (the attribution follows the person); otherwise only ids nobody holds yet are linked.
// - TEST events answer and change nothing: not even recorded (docs/product/attribution.md#conversions).
// - Sandbox events are recorded as such and otherwise ignored unless REVENUECAT_ACCEPT_SANDBOX.

export const EVENT_OUTCOMES = [
  'conversion',
  'renewal',
  'renewal-unpaid',
  'already-converted',
  'affiliate-ineligible',
  'unattributed',
  'trial',
  'reversed',
  'clawed-back',
  'already-reversed',
  'refund-unmatched',
  'transfer',
  'sandbox',
  'ignored',
  'refused',
] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

export interface IngestResult {
  /** `duplicate`: the event was already received; `test`: a TEST event. Neither is recorded. */
  outcome: EventOutcome | 'duplicate' | 'test';
  conversionId: number | null;
}

/** Actor of the audit log for refunds the stores report. */
export const REVENUECAT_ACTOR = 'revenuecat';

const result = (outcome: EventOutcome, conversionId: number | null = null): IngestResult => ({ outcome, conversionId });

async function applyTransfer(tx: Tx, event: RevenueCatEvent, now: Date): Promise<IngestResult> {
  const from = distinctIds(event.transferred_from ?? []);
  const install = await findInstall(tx, from);
  if (!install) return result('unattributed');
  await linkAliases(tx, install.id, from, now);
  await linkAliases(tx, install.id, event.transferred_to ?? [], now, { move: install.affiliateId !== null });
  return result('transfer');
}

async function applyRefund(
  tx: Tx,
  app: AppContext,
  event: RevenueCatEvent,
  ids: string[],
  now: Date,
): Promise<IngestResult> {
  const installIds = await findInstallIds(tx, ids);
  const transactionId = event.transaction_id || null;
  const { rows } = await tx.query<{ id: number }>(
    `SELECT id::int AS id FROM conversions
     WHERE ($2::text IS NOT NULL AND (transaction_id = $2 OR original_transaction_id = $2))
        OR (install_id = ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)::bigint)) AND ($2::text IS NULL OR transaction_id IS NULL))
     ORDER BY ($2::text IS NOT NULL AND transaction_id = $2) DESC, id
     LIMIT 1`,
    [listParam(installIds), transactionId],
  );
  const conversionId = rows[0]?.id;
  if (conversionId === undefined) return result('refund-unmatched');
  const reversed = await reverseConversionIn(tx, {
    conversionId,
    reason: `Store refund (RevenueCat event ${event.id})`,
    actor: REVENUECAT_ACTOR,
    at: now,
  });
  // A refund arriving: is the affiliate's refund rate over the threshold (docs/product/review.md#signals)?
  const { rows: owner } = await tx.query<{ affiliate_id: string }>(
    'SELECT affiliate_id FROM conversions WHERE id = $1',
    [conversionId],
  );
  if (reversed?.outcome !== 'already-reversed' && owner[0])
    await checkRefundRate(tx, app, { affiliateId: owner[0].affiliate_id, at: now });
  return result(reversed?.outcome ?? 'refund-unmatched', conversionId);
}

async function applyEvent(tx: Tx, app: AppContext, event: RevenueCatEvent, now: Date): Promise<IngestResult> {
  if (isSandbox(event) && !app.config.REVENUECAT_ACCEPT_SANDBOX) return result('sandbox');
  const meaning = eventMeaning(event);
  if (meaning === 'transfer') return applyTransfer(tx, event, now);

  const ids = distinctIds(customerIds(event));
  const install = await findInstall(tx, ids);
  if (install) await linkAliases(tx, install.id, ids, now);

  switch (meaning) {
    case 'refund':
      return applyRefund(tx, app, event, ids, now);
    case 'trial':
      return result('trial');
    case 'conversion': {
      if (!install?.affiliateId) return result('unattributed');
      const recorded = await recordConversion(tx, app, {
        sourceEventId: event.id,
        appUserId: event.app_user_id || event.original_app_user_id || install.appUserId,
        installId: install.id,
        affiliateId: install.affiliateId,
        referralCodeId: install.referralCodeId,
        code: install.code ?? '',
        store: event.store ?? null,
        productId: event.product_id ?? null,
        occurredAt: occurredAt(event, now),
        priceCents: typeof event.price === 'number' ? Math.round(event.price * 100) : null,
        priceCurrency: typeof event.price === 'number' ? 'USD' : null,
        proceedsCents: proceedsCents(event),
        transactionId: event.transaction_id || null,
        originalTransactionId: event.original_transaction_id || null,
        appUserEmailHash: subscriberEmailHash(app, event),
      });
      return result(recorded.outcome, recorded.outcome === 'affiliate-ineligible' ? null : recorded.conversionId);
    }
    case 'renewal': {
      if (!install?.affiliateId) return result('unattributed');
      const recorded = await recordRenewal(
        tx,
        {
          sourceEventId: event.id,
          installId: install.id,
          appUserId: event.app_user_id || event.original_app_user_id || install.appUserId,
          occurredAt: occurredAt(event, now),
          store: event.store ?? null,
          productId: event.product_id ?? null,
          proceedsCents: proceedsCents(event),
          priceCents: typeof event.price === 'number' ? Math.round(event.price * 100) : null,
          transactionId: event.transaction_id || null,
          originalTransactionId: event.original_transaction_id || null,
        },
        now,
      );
      // Under a rule that does not pay renewals, or without a first purchase, a renewal means nothing.
      if (recorded.outcome === 'renewal-unpaid' && recorded.reason !== 'period-over' && recorded.reason !== 'no-price')
        return result('ignored');
      return result(
        recorded.outcome,
        recorded.outcome === 'renewal' || recorded.outcome === 'already-converted' ? recorded.conversionId : null,
      );
    }
    default:
      return result('ignored');
  }
}

/** The record of one delivery as it arrives: the event's identity, its payload, and `outcome`. */
function eventRecord(
  event: RevenueCatWebhook['event'],
  outcome: 'received' | 'refused',
  payload: unknown,
  receivedAt: Date,
) {
  return {
    eventId: event.id,
    type: event.type,
    appUserId: event.app_user_id ?? null,
    environment: event.environment ?? null,
    outcome,
    payload,
    eventAt: typeof event.event_timestamp_ms === 'number' ? new Date(event.event_timestamp_ms) : null,
    receivedAt,
  };
}

/** Records and applies one webhook delivery; answers what it did. */
export async function ingestRevenueCatEvent(
  app: AppContext,
  webhook: RevenueCatWebhook,
  payload: unknown,
): Promise<IngestResult> {
  const { event } = webhook;
  if (eventMeaning(event) === 'test') return { outcome: 'test', conversionId: null };
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const inserted = await tx.db
      .insert(revenuecatEvents)
      .values(eventRecord(event, 'received', payload, now))
      .onConflictDoUpdate({
        target: revenuecatEvents.eventId,
        set: { type: event.type, outcome: 'received', payload, receivedAt: now },
        where: eq(revenuecatEvents.outcome, 'refused'),
      })
      .returning({ eventId: revenuecatEvents.eventId });
    // A delivery refused earlier (its price out of bounds) is received afresh; any other is a duplicate.
    if (inserted.length === 0) return { outcome: 'duplicate', conversionId: null };
    const applied = await applyEvent(tx, app, event, now);
    await tx.db
      .update(revenuecatEvents)
      .set({ outcome: applied.outcome, conversionId: applied.conversionId })
      .where(eq(revenuecatEvents.eventId, event.id));
    return applied;
  });
}

/**
 * Records an event refused for its price (revenuecat-event.ts, MAX_EVENT_PRICE_USD) with the outcome
 * `refused` and its payload, so that an operator can see it; nothing is applied. A later delivery of
 * the same event that is in bounds replaces the record and is applied.
 */
export async function recordRefusedEvent(app: AppContext, webhook: RevenueCatWebhook, payload: unknown): Promise<void> {
  const { event } = webhook;
  await app.database.db
    .insert(revenuecatEvents)
    .values(eventRecord(event, 'refused', payload, app.now()))
    .onConflictDoNothing({ target: revenuecatEvents.eventId });
}

/**
 * The app user's e-mail as RevenueCat's subscriber attributes carry it (`$email`), as a keyed hash,
 * for the self-referral signal; null when the event has none. The address itself is not kept.
 */
function subscriberEmailHash(app: AppContext, event: RevenueCatEvent): string | null {
  const attributes = (event as { subscriber_attributes?: unknown }).subscriber_attributes;
  if (typeof attributes !== 'object' || attributes === null) return null;
  const email = (attributes as Record<string, unknown>)['$email'];
  const value = typeof email === 'object' && email !== null ? (email as { value?: unknown }).value : undefined;
  return typeof value === 'string' && value.includes('@') ? emailHash(app, value) : null;
}
