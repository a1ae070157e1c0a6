import { ADMIN_PAGE_SIZE } from '@skanova/shared/admin/schemas';
import type { AdminPage } from '@skanova/shared/admin/responses';
import {
  WEBHOOK_ATTEMPT_ERRORS,
  type WebhookAttemptError,
  type WebhookDeliveryStatus,
  type WebhookEventType,
} from '@skanova/shared/webhooks/constants';
import type { AdminWebhookAttempt, AdminWebhookDelivery } from '@skanova/shared/webhooks/functions';
import type { AdminListWebhookDeliveriesRequest } from '@skanova/shared/webhooks/schemas';
import type { AppContext, SignedInUser } from '../../context.ts';
import type { SqlClient } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { signalWebhookEvents } from '../../webhooks/signal.ts';

// The delivery log (docs/product/webhooks.md#delivery-log): every event sent to every endpoint, newest
// first, with each attempt's time, duration, status and failure, and the replay of a delivery an
// operator wants sent again (docs/product/webhooks.md#replay). Ids, types and codes only: the log
// holds neither the event's data nor the receivers' answers.

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  url: string;
  event_id: string;
  type: string;
  affiliate_id: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date | string;
  delivered_at: Date | string | null;
  created_at: Date | string;
  attempt_log: { attempt: number; at: string; duration_ms: number; status_code: number | null; error: string | null }[];
}

const DELIVERY_SELECT = `
SELECT d.id::text AS id, d.endpoint_id::text AS endpoint_id, e.url, d.event_id::text AS event_id, ev.type,
       d.affiliate_id, d.status, d.attempts, d.next_attempt_at, d.delivered_at, d.created_at,
       coalesce((SELECT json_agg(json_build_object(
                  'attempt', a.attempt, 'at', a.started_at, 'duration_ms', a.duration_ms,
                  'status_code', a.status_code, 'error', a.error) ORDER BY a.attempt DESC)
                 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempt_log
FROM webhook_deliveries d
JOIN webhook_endpoints e ON e.id = d.endpoint_id
JOIN webhook_events ev ON ev.id = d.event_id`;

const isAttemptError = (value: string | null): value is WebhookAttemptError =>
  (WEBHOOK_ATTEMPT_ERRORS as readonly (string | null)[]).includes(value);

function toDelivery(row: DeliveryRow): AdminWebhookDelivery {
  const attemptLog: AdminWebhookAttempt[] = (
    typeof row.attempt_log === 'string' ? (JSON.parse(row.attempt_log) as DeliveryRow['attempt_log']) : row.attempt_log
  ).map((entry) => ({
    attempt: entry.attempt,
    at: new Date(entry.at).toISOString(),
    durationMs: entry.duration_ms,
    statusCode: entry.status_code,
    error: isAttemptError(entry.error) ? entry.error : null,
  }));
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    endpointUrl: row.url,
    eventId: row.event_id,
    eventType: row.type as WebhookEventType,
    affiliateId: row.affiliate_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? new Date(row.next_attempt_at).toISOString() : null,
    deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    attemptLog,
  };
}

export async function listDeliveries(
  app: AppContext,
  input: AdminListWebhookDeliveriesRequest,
): Promise<AdminPage<AdminWebhookDelivery>> {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? ADMIN_PAGE_SIZE;
  const clauses: string[] = [];
  const params: unknown[] = [];
  const where = (clause: string, value: unknown) => {
    params.push(value);
    clauses.push(clause.replace('$?', `$${params.length}`));
  };
  if (input.endpointId) where('d.endpoint_id = $?', input.endpointId);
  if (input.status) where('d.status = $?', input.status);
  if (input.eventType) where('ev.type = $?', input.eventType);
  const filter = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const sql: Pick<SqlClient, 'query'> = app.database.sql;
  const [{ rows }, counted] = await Promise.all([
    sql.query<DeliveryRow>(
      `${DELIVERY_SELECT} ${filter} ORDER BY d.created_at DESC, d.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, pageSize, (page - 1) * pageSize],
    ),
    sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id ${filter}`,
      params,
    ),
  ]);
  return { items: rows.map(toDelivery), total: counted.rows[0]?.total ?? 0, page, pageSize };
}

/**
 * Queues a delivered or failed delivery again, due at once, with a fresh round of retries; the
 * worker is woken once this commits. It then waits for the affiliate's earlier pending deliveries to
 * that endpoint, as any delivery does (docs/product/webhooks.md#ordering).
 */
export async function replayDelivery(
  app: AppContext,
  operator: SignedInUser,
  deliveryId: string,
): Promise<AdminWebhookDelivery> {
  const now = app.now();
  await inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ status: WebhookDeliveryStatus; event_id: string; endpoint_id: string }>(
      'SELECT status, event_id::text AS event_id, endpoint_id::text AS endpoint_id FROM webhook_deliveries WHERE id = $1 FOR UPDATE',
      [deliveryId],
    );
    const delivery = rows[0];
    if (!delivery) throw new CallableError('not-found', 'No such webhook delivery.', { code: 'not-found' });
    if (delivery.status === 'pending')
      throw new CallableError('failed-precondition', 'This delivery is already waiting to be sent.', {
        code: 'delivery-pending',
      });
    await tx.query(
      `UPDATE webhook_deliveries
       SET status = 'pending', queued_at_attempt = attempts, next_attempt_at = $2, delivered_at = NULL
       WHERE id = $1`,
      [deliveryId, now.toISOString()],
    );
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'webhook.delivery-replayed',
      subject: deliveryId,
      details: { eventId: delivery.event_id, endpointId: delivery.endpoint_id, previousStatus: delivery.status },
      at: now,
    });
    tx.afterCommit?.(signalWebhookEvents);
  });
  const { rows } = await app.database.sql.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1`, [deliveryId]);
  return toDelivery(rows[0]!);
}
