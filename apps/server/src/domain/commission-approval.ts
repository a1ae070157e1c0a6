import type { AppServices } from '../services.ts';
import { inTransaction } from '../db/transaction.ts';
import { commissionApprovedEvent } from '../webhooks/events.ts';
import { enqueueWebhookEvents } from '../webhooks/outbox.ts';

// The commission hold (docs/product/money.md#commission-hold): a conversion stays pending for the stores' refund window (the
// hold of the rule that priced it, docs/product/money.md#partner-groups-and-reward-rules: `approvable_at`), then is
// approved and payable. The approval time is the end of the hold, not the job's run time, so a late
// run approves exactly as an on-time one (the payout cut-off depends on it). Small batches, each its
// own transaction: the embedded database (one connection) keeps answering requests in between. Rows a
// refund holds at that moment are skipped and approved by the next run if still pending. Each
// approval's webhook event is written in the transaction of its batch (docs/product/webhooks.md#events).

/** Conversions approved per statement. */
const APPROVAL_BATCH = 2000;

const APPROVE_SQL = `
WITH due AS (
  SELECT id FROM conversions
  WHERE status = 'pending' AND approvable_at <= $1
  ORDER BY approvable_at, id
  LIMIT ${APPROVAL_BATCH}
  FOR UPDATE SKIP LOCKED
)
UPDATE conversions c
SET status = 'approved', approved_at = c.approvable_at
FROM due
WHERE c.id = due.id AND c.status = 'pending'
RETURNING c.id, c.affiliate_id, c.commission_cents, to_json(c.approved_at) #>> '{}' AS approved_at`;

interface ApprovedRow {
  id: number | string;
  affiliate_id: string;
  commission_cents: number;
  /** ISO 8601, whichever driver reads it. */
  approved_at: string;
}

const approvedEvent = (row: ApprovedRow) =>
  commissionApprovedEvent({
    conversionId: row.id,
    affiliateId: row.affiliate_id,
    commissionCents: Number(row.commission_cents),
    approvedAt: new Date(row.approved_at),
  });

/** Approves every pending conversion whose hold is over; safe to run twice or in several processes. */
export async function approveDueCommissions(app: Pick<AppServices, 'database' | 'now'>): Promise<{ approved: number }> {
  const now = app.now().toISOString();
  let approved = 0;
  for (;;) {
    const rows = await inTransaction(app, async (tx) => {
      const { rows } = await tx.query<ApprovedRow>(APPROVE_SQL, [now]);
      await enqueueWebhookEvents(tx, rows.map(approvedEvent), app.now());
      return rows;
    });
    approved += rows.length;
    if (rows.length < APPROVAL_BATCH) return { approved };
  }
}
