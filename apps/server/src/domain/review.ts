import {
  REVIEW_SIGNALS,
  type ReviewAction,
  type ReviewEvidence,
  type ReviewSignalKind,
} from '@skanova/shared/admin/review';
import type { AppServices } from '../services.ts';
import type { TransactionQuery } from '../db/transaction.ts';
import { reviewOpenedEvent } from '../webhooks/events.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';

// The fraud review (docs/product/review.md): a signal raised about an affiliate opens a case (or joins
// the one open), and its group's policy decides what it does — flag only, or hold the affected
// commissions until an operator decides (docs/product/review.md#policies). A held commission is in
// the ledger's `held` account (migrations/0012_review.sql): no payout takes it (domain/money.ts,
// `payableConversion`) and the dashboard's payable figure, a sum of the ledger, leaves it out too.
//
// What a signal holds (docs/product/review.md#holding): a signal about one install (a self-referral)
// holds that install's commissions, now and as they arrive while the case is open; a signal about
// the affiliate (every other kind) holds all their unpaid commissions that no payout holds yet, and
// those that arrive while the case is open. Commissions already in a scheduled, sent or paid payout
// are not held: their money has left or is leaving, and a refund claws it back as before.

export type ReviewApp = Pick<AppServices, 'now' | 'log'>;

/** The policy of the affiliate's group for each signal; a signal without a row flags. */
export async function reviewPolicyFor(
  tx: TransactionQuery,
  affiliateId: string,
  kind: ReviewSignalKind,
): Promise<ReviewAction> {
  const { rows } = await tx.query<{ action: ReviewAction }>(
    `SELECT p.action FROM affiliates a JOIN review_policies p ON p.group_id = a.group_id AND p.signal = $2
     WHERE a.id = $1`,
    [affiliateId, kind],
  );
  return rows[0]?.action ?? 'flag';
}

export interface NewSignal {
  affiliateId: string;
  kind: ReviewSignalKind;
  evidence: ReviewEvidence;
  /** Which occurrence this is (an install, a day's burst, an account): one signal per key and affiliate, ever. */
  dedupeKey: string;
  /** The install the signal is about, when it is about one (then it holds that install's commissions only). */
  installId?: string | null;
  at: Date;
}

export interface RaisedSignal {
  caseId: number;
  signalId: number;
  action: ReviewAction;
  /** True when this signal opened the case. */
  opened: boolean;
  /** Commissions the signal put on hold. */
  held: number;
}

/**
 * The single place where a case opens: announced to the operators' webhooks (`review.opened`,
 * docs/product/webhooks.md#events) in the transaction that opens the case.
 */
async function caseOpened(
  tx: TransactionQuery,
  app: ReviewApp,
  opened: { caseId: number; affiliateId: string; kind: ReviewSignalKind; at: Date },
) {
  await enqueueWebhookEvent(tx, reviewOpenedEvent(opened), opened.at);
  app.log.info({ reviewCase: opened.caseId, signal: opened.kind }, 'review case opened');
}

/**
 * Raises a signal in the caller's transaction: opens the affiliate's case when none is open, records
 * the signal with what its policy makes it do, and holds the affected commissions under `hold`.
 * Answers null when the signal was raised before (same key) or the affiliate is gone.
 */
export async function raiseSignal(
  tx: TransactionQuery,
  app: ReviewApp,
  signal: NewSignal,
): Promise<RaisedSignal | null> {
  // The affiliate's row serialises the cases of one affiliate (one open case at a time).
  const { rows: affiliate } = await tx.query<{ id: string }>(
    'SELECT id FROM affiliates WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
    [signal.affiliateId],
  );
  if (affiliate.length === 0) return null;
  const { rows: seen } = await tx.query('SELECT 1 FROM review_signals WHERE affiliate_id = $1 AND dedupe_key = $2', [
    signal.affiliateId,
    signal.dedupeKey,
  ]);
  if (seen.length > 0) return null;

  const action = await reviewPolicyFor(tx, signal.affiliateId, signal.kind);
  const at = signal.at.toISOString();
  let opened = false;
  let { rows: open } = await tx.query<{ id: string }>(
    "SELECT id::text AS id FROM review_cases WHERE affiliate_id = $1 AND status = 'open'",
    [signal.affiliateId],
  );
  if (open.length === 0) {
    ({ rows: open } = await tx.query<{ id: string }>(
      "INSERT INTO review_cases (affiliate_id, status, opened_at) VALUES ($1, 'open', $2) RETURNING id::text AS id",
      [signal.affiliateId, at],
    ));
    opened = true;
  }
  const caseId = Number(open[0]!.id);
  const { rows: inserted } = await tx.query<{ id: string }>(
    `INSERT INTO review_signals (case_id, affiliate_id, kind, action, evidence, install_id, dedupe_key, detected_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8) RETURNING id::text AS id`,
    [
      caseId,
      signal.affiliateId,
      signal.kind,
      action,
      JSON.stringify(signal.evidence),
      signal.installId ?? null,
      signal.dedupeKey,
      at,
    ],
  );
  if (opened) await caseOpened(tx, app, { caseId, affiliateId: signal.affiliateId, kind: signal.kind, at: signal.at });
  const held =
    action === 'hold'
      ? await holdCommissions(tx, { caseId, affiliateId: signal.affiliateId, installId: signal.installId ?? null, at })
      : 0;
  return { caseId, signalId: Number(inserted[0]!.id), action, opened, held };
}

/** SQL condition: the conversion `c` may be held — unpaid, not reversed, held by no payout and not yet held. */
const HOLDABLE = `c.status IN ('pending', 'approved') AND NOT c.review_hold
  AND (c.payout_id IS NULL OR (SELECT p.status FROM payouts p WHERE p.id = c.payout_id) = 'failed')`;

/** Holds the affiliate's holdable commissions (one install's, or all) for the case; answers how many. */
async function holdCommissions(
  tx: TransactionQuery,
  scope: { caseId: number; affiliateId: string; installId: string | null; at: string },
): Promise<number> {
  const { rows } = await tx.query(
    `UPDATE conversions c SET review_hold = true, review_case_id = $2, review_changed_at = $3
     WHERE c.affiliate_id = $1 AND ${HOLDABLE} AND ($4::bigint IS NULL OR c.install_id = $4::bigint)
     RETURNING c.id`,
    [scope.affiliateId, scope.caseId, scope.at, scope.installId],
  );
  return rows.length;
}

/**
 * A commission just recorded, in its transaction: held when the affiliate's open case holds what it
 * belongs to — every new commission under a hold about the affiliate, or the install's under a hold
 * about that install. Answers whether it was held.
 */
export async function holdIfUnderReview(
  tx: TransactionQuery,
  commission: { conversionId: number; affiliateId: string; installId: string | null; at: Date },
): Promise<boolean> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT rc.id::text AS id FROM review_cases rc
     WHERE rc.affiliate_id = $1 AND rc.status = 'open'
       AND EXISTS (SELECT 1 FROM review_signals s WHERE s.case_id = rc.id AND s.action = 'hold'
                     AND (s.install_id IS NULL AND s.kind <> 'self-referral' OR s.install_id = $2::bigint))`,
    [commission.affiliateId, commission.installId],
  );
  const caseId = rows[0]?.id;
  if (caseId === undefined) return false;
  const { rows: held } = await tx.query(
    `UPDATE conversions c SET review_hold = true, review_case_id = $2, review_changed_at = $3
     WHERE c.id = $1 AND ${HOLDABLE} RETURNING c.id`,
    [commission.conversionId, caseId, commission.at.toISOString()],
  );
  return held.length > 0;
}

/** Releases every commission the case holds (an operator approved it); answers their count and sum. */
export async function releaseHeldCommissions(
  tx: TransactionQuery,
  caseId: number,
  at: Date,
): Promise<{ count: number; cents: number }> {
  const { rows } = await tx.query<{ cents: string | number }>(
    `UPDATE conversions SET review_hold = false, review_changed_at = $2
     WHERE review_case_id = $1 AND review_hold RETURNING commission_cents AS cents`,
    [caseId, at.toISOString()],
  );
  return { count: rows.length, cents: rows.reduce((sum, row) => sum + Number(row.cents), 0) };
}

/** The commissions the case holds now (ids), oldest first. */
export async function heldCommissionIds(tx: TransactionQuery, caseId: number): Promise<number[]> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id::text AS id FROM conversions WHERE review_case_id = $1 AND review_hold ORDER BY id`,
    [caseId],
  );
  return rows.map((row) => Number(row.id));
}

/** Every signal kind, for a policy table with a row per signal. */
export const REVIEW_SIGNAL_KINDS: readonly ReviewSignalKind[] = REVIEW_SIGNALS;
