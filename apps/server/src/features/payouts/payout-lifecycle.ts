import type { PayoutStatus } from '@skanova/shared/affiliate/stats';
import type { AppContext } from '../../context.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { loadEmailRecipient, payoutSentEmail } from '../../email/affiliate-messages.ts';
import { enqueueEmail } from '../../email/outbox.ts';

// A payout's lifecycle (BRIEF §4, §5.10): scheduled → sent → paid, or scheduled | sent → failed.
// - sent: the operator uploaded the PayPal batch or the SEPA file; the affiliate is told (if they
//   want payment e-mails), through the outbox, in the same transaction.
// - paid: the money arrived; its conversions become `paid`.
// - failed: the amounts go back to the balance (its conversions and adjustments are released), so
//   the next run pays them; the reason is kept.
// Several payouts change together or not at all: one transaction, every row locked first.

export type PayoutTarget = 'sent' | 'paid' | 'failed';

export interface MarkPayoutsInput {
  payoutIds: readonly string[];
  status: PayoutTarget;
  /** The PayPal batch id or bank reference (kept on the payout). */
  reference?: string | undefined;
  /** Why it failed: required for `failed`. */
  reason?: string | undefined;
  /** The operator's user id. */
  actor: string;
}

/** Where each status may go from. */
const ALLOWED_FROM: Record<PayoutTarget, readonly PayoutStatus[]> = {
  sent: ['scheduled'],
  paid: ['sent'],
  failed: ['scheduled', 'sent'],
};

interface LockedPayout {
  id: string;
  affiliate_id: string;
  status: PayoutStatus;
  amount_cents: number;
  currency: string;
  amount_paid_cents: number | null;
  paid_currency: string | null;
  method: 'paypal' | 'bank_transfer';
  scheduled_for: string;
}

/** Moves the payouts to `status`; answers how many changed (all of them, or none with an error). */
export async function markPayouts(app: AppContext, input: MarkPayoutsInput): Promise<{ updated: number }> {
  const ids = [...new Set(input.payoutIds)].sort();
  if (input.status === 'failed' && !input.reason) {
    throw new CallableError('invalid-argument', 'A failed payout needs a reason.', { code: 'reason-required' });
  }
  const now = app.now();
  const at = now.toISOString();

  return inTransaction(app, async (tx) => {
    // Locked in id order: two operators marking overlapping sets wait for each other, never deadlock.
    const { rows } = await tx.query<LockedPayout>(
      `SELECT id::text AS id, affiliate_id, status, amount_cents, currency, amount_paid_cents, paid_currency, method, scheduled_for::text
       FROM payouts WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) ORDER BY id FOR UPDATE`,
      [JSON.stringify(ids)],
    );
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0)
      throw new CallableError('not-found', `No payout ${missing.join(', ')}.`, {
        code: 'payout-not-found',
        payoutIds: missing,
      });
    const refused = rows.filter((row) => !ALLOWED_FROM[input.status].includes(row.status));
    if (refused.length > 0) {
      const from = ALLOWED_FROM[input.status].join(' or ');
      throw new CallableError(
        'failed-precondition',
        `Only ${from} payouts can be marked ${input.status}: ${refused.map((row) => `${row.id} is ${row.status}`).join(', ')}.`,
        {
          code: 'invalid-transition',
          to: input.status,
          payouts: refused.map((row) => ({ id: row.id, status: row.status })),
        },
      );
    }

    for (const payout of rows) {
      if (input.status === 'sent') {
        await tx.query(
          `UPDATE payouts SET status = 'sent', sent_at = $2, reference = coalesce($3, reference) WHERE id = $1`,
          [payout.id, at, input.reference ?? null],
        );
        const recipient = await loadEmailRecipient(tx, payout.affiliate_id);
        if (recipient?.notifyPayments) {
          const message = payoutSentEmail(app, recipient, {
            amountCents: payout.amount_cents,
            currency: payout.currency,
            amountPaidCents: payout.amount_paid_cents,
            paidCurrency: payout.paid_currency,
            method: payout.method,
            payday: payout.scheduled_for,
          });
          await enqueueEmail(tx, message, { kind: 'payout-sent', dedupeKey: `payout-sent:${payout.id}` });
        }
      } else if (input.status === 'paid') {
        await tx.query(
          `UPDATE payouts SET status = 'paid', paid_at = $2, reference = coalesce($3, reference) WHERE id = $1`,
          [payout.id, at, input.reference ?? null],
        );
        await tx.query(`UPDATE conversions SET status = 'paid' WHERE payout_id = $1 AND status = 'approved'`, [
          payout.id,
        ]);
      } else {
        await tx.query(
          `UPDATE payouts SET status = 'failed', failed_at = $2, failure_reason = $3, reference = coalesce($4, reference) WHERE id = $1`,
          [payout.id, at, input.reason, input.reference ?? null],
        );
        await tx.query('UPDATE conversions SET payout_id = NULL WHERE payout_id = $1', [payout.id]);
        await tx.query('UPDATE commission_adjustments SET payout_id = NULL WHERE payout_id = $1', [payout.id]);
      }
      await recordAudit(tx, {
        actor: input.actor,
        action: `payout.${input.status}`,
        subject: payout.id,
        details: {
          affiliateId: payout.affiliate_id,
          from: payout.status,
          amountCents: payout.amount_cents,
          ...(input.reference ? { reference: input.reference } : {}),
          ...(input.status === 'failed' ? { reason: input.reason } : {}),
        },
        at: now,
      });
    }
    return { updated: rows.length };
  });
}
