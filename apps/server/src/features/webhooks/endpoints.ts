import type { FieldError } from '@skanova/shared/callable/field-errors';
import {
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  type WebhookEventType,
  isWebhookEventType,
} from '@skanova/shared/webhooks/constants';
import type { AdminWebhookEndpoint, AdminWebhookEndpointWithSecret } from '@skanova/shared/webhooks/functions';
import type {
  adminCreateWebhookEndpointSchema,
  adminUpdateWebhookEndpointSchema,
} from '@skanova/shared/webhooks/schemas';
import type { output } from 'zod/mini';
import type { AppContext, SignedInUser } from '../../context.ts';
import { type Tx, inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { type Resolver, addressPolicy, checkWebhookUrl, systemResolver } from '../../webhooks/address-guard.ts';
import { generateWebhookSecret } from '../../webhooks/signature.ts';

// The endpoints operators register in the console (docs/product/webhooks.md#endpoints): listed,
// created (the secret answered once), changed, deleted, and their secret rotated. Every change is
// audited in its own transaction. A URL is checked before anything is written — its form, https in
// production, and the addresses it resolves to (docs/product/webhooks.md#the-address-guard) — and a
// refusal is `invalid-argument` with a field error the form shows in either language.

type CreateInput = output<typeof adminCreateWebhookEndpointSchema>;
type UpdateInput = output<typeof adminUpdateWebhookEndpointSchema>;

/** Arbitrary constant: the advisory lock that makes the endpoint count exact under parallel creations. */
const ENDPOINT_COUNT_LOCK = 727_274_026;
const HOUR_MS = 3_600_000;

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  secret_rotated_at: Date | string | null;
  previous_secret_expires_at: Date | string | null;
  pending_deliveries: number;
  failed_deliveries: number;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

const ENDPOINT_COLUMNS = `
  e.id::text AS id, e.url, e.description, e.event_types, e.enabled, e.created_at, e.updated_at,
  e.secret_rotated_at, e.previous_secret_expires_at,
  (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending')::int AS pending_deliveries,
  (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'failed')::int AS failed_deliveries`;

function toEndpoint(row: EndpointRow, now: Date): AdminWebhookEndpoint {
  const overlapEnds = isoOrNull(row.previous_secret_expires_at);
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types.filter(isWebhookEventType),
    enabled: row.enabled,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    secretRotatedAt: isoOrNull(row.secret_rotated_at),
    previousSecretExpiresAt: overlapEnds !== null && Date.parse(overlapEnds) > now.getTime() ? overlapEnds : null,
    pendingDeliveries: row.pending_deliveries,
    failedDeliveries: row.failed_deliveries,
  };
}

async function readEndpoint(tx: Pick<Tx, 'query'>, id: string, now: Date): Promise<AdminWebhookEndpoint | null> {
  const { rows } = await tx.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1`, [
    id,
  ]);
  return rows[0] ? toEndpoint(rows[0], now) : null;
}

export async function listEndpoints(app: AppContext): Promise<AdminWebhookEndpoint[]> {
  const { rows } = await app.database.sql.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e ORDER BY e.created_at DESC, e.id`,
  );
  const now = app.now();
  return rows.map((row) => toEndpoint(row, now));
}

/** The message of each refusal of the address guard, as the form's field error. */
const URL_REFUSALS = {
  'url-invalid': 'webhooks:form.errors.urlInvalid',
  'not-https': 'webhooks:form.errors.urlNotHttps',
  'dns-failed': 'webhooks:form.errors.urlUnresolvable',
  'address-refused': 'webhooks:form.errors.urlPrivate',
} as const;

/** Refuses a URL a delivery could not use now; nothing is written before this passes. */
export async function checkEndpointUrl(app: AppContext, url: string, resolve: Resolver = systemResolver) {
  const check = await checkWebhookUrl(url, addressPolicy(app.config), resolve);
  if (check.ok) return;
  const fields: FieldError[] = [{ path: 'url', key: URL_REFUSALS[check.reason] }];
  throw new CallableError('invalid-argument', 'This address cannot receive webhooks.', {
    code: 'invalid-argument',
    reason: check.reason,
    fields,
  });
}

/** A repeated event type counts once, in the contract's order. */
function eventSet(types: readonly WebhookEventType[]): WebhookEventType[] {
  return [...new Set(types)];
}

function notFound(): CallableError {
  return new CallableError('not-found', 'No such webhook endpoint.', { code: 'not-found' });
}

/** The host of a URL, as the audit log keeps it (a path may carry a receiver's token). */
function hostOf(url: string): string {
  return new URL(url).host;
}

export async function createEndpoint(
  app: AppContext,
  operator: SignedInUser,
  input: CreateInput,
  resolve?: Resolver,
): Promise<AdminWebhookEndpointWithSecret> {
  await checkEndpointUrl(app, input.url, resolve);
  const secret = generateWebhookSecret();
  const now = app.now();
  const eventTypes = eventSet(input.eventTypes);
  const endpoint = await inTransaction(app, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [ENDPOINT_COUNT_LOCK]);
    const { rows: counted } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints');
    if ((counted[0]?.n ?? 0) >= WEBHOOK_ENDPOINTS_MAX)
      throw new CallableError('failed-precondition', `At most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`, {
        code: 'too-many-endpoints',
        max: WEBHOOK_ENDPOINTS_MAX,
      });
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO webhook_endpoints (url, description, event_types, secret_sealed, created_by, created_at, updated_at)
       VALUES ($1, $2, $3::text[], $4, $5, $6, $6) RETURNING id::text AS id`,
      [
        input.url,
        input.description || null,
        `{${eventTypes.join(',')}}`,
        app.cipher.encrypt(secret),
        operator.userId,
        now.toISOString(),
      ],
    );
    const id = rows[0]!.id;
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'webhook.endpoint-created',
      subject: id,
      details: { host: hostOf(input.url), eventTypes },
      at: now,
    });
    return (await readEndpoint(tx, id, now))!;
  });
  return { endpoint, secret };
}

export async function updateEndpoint(
  app: AppContext,
  operator: SignedInUser,
  input: UpdateInput,
  resolve?: Resolver,
): Promise<AdminWebhookEndpoint> {
  if (input.url !== undefined) await checkEndpointUrl(app, input.url, resolve);
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ url: string; enabled: boolean }>(
      'SELECT url, enabled FROM webhook_endpoints WHERE id = $1 FOR UPDATE',
      [input.endpointId],
    );
    const current = rows[0];
    if (!current) throw notFound();
    const eventTypes = input.eventTypes === undefined ? null : eventSet(input.eventTypes);
    await tx.query(
      `UPDATE webhook_endpoints
       SET url = coalesce($2, url),
           event_types = coalesce($3::text[], event_types),
           description = CASE WHEN $4::boolean THEN $5 ELSE description END,
           enabled = coalesce($6::boolean, enabled),
           updated_at = $7
       WHERE id = $1`,
      [
        input.endpointId,
        input.url ?? null,
        eventTypes === null ? null : `{${eventTypes.join(',')}}`,
        input.description !== undefined,
        input.description || null,
        input.enabled ?? null,
        now.toISOString(),
      ],
    );
    const changed = (['url', 'eventTypes', 'description', 'enabled'] as const).filter(
      (key) => input[key] !== undefined,
    );
    await recordAudit(tx, {
      actor: operator.userId,
      action:
        input.enabled === false && current.enabled
          ? 'webhook.endpoint-disabled'
          : input.enabled === true && !current.enabled
            ? 'webhook.endpoint-enabled'
            : 'webhook.endpoint-updated',
      subject: input.endpointId,
      details: {
        changed,
        host: hostOf(input.url ?? current.url),
        ...(eventTypes ? { eventTypes } : {}),
      },
      at: now,
    });
    return (await readEndpoint(tx, input.endpointId, now))!;
  });
}

/** Deletes the endpoint, its deliveries and their log. */
export async function deleteEndpoint(
  app: AppContext,
  operator: SignedInUser,
  endpointId: string,
): Promise<{ deleted: true }> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ url: string }>('DELETE FROM webhook_endpoints WHERE id = $1 RETURNING url', [
      endpointId,
    ]);
    if (!rows[0]) throw notFound();
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'webhook.endpoint-deleted',
      subject: endpointId,
      details: { host: hostOf(rows[0].url) },
      at: now,
    });
    return { deleted: true as const };
  });
}

/**
 * A new secret, answered once. The one it replaces goes on signing beside it for the overlap
 * (docs/product/webhooks.md#secret-rotation); a secret older than that one stops at once.
 */
export async function rotateSecret(
  app: AppContext,
  operator: SignedInUser,
  endpointId: string,
): Promise<AdminWebhookEndpointWithSecret> {
  const secret = generateWebhookSecret();
  const now = app.now();
  const overlapEnds = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * HOUR_MS);
  const endpoint = await inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE webhook_endpoints
       SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $3,
           secret_sealed = $2, secret_rotated_at = $4, updated_at = $4
       WHERE id = $1 RETURNING id::text AS id`,
      [endpointId, app.cipher.encrypt(secret), overlapEnds.toISOString(), now.toISOString()],
    );
    if (!rows[0]) throw notFound();
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'webhook.secret-rotated',
      subject: endpointId,
      details: { previousValidUntil: overlapEnds.toISOString() },
      at: now,
    });
    return (await readEndpoint(tx, endpointId, now))!;
  });
  return { endpoint, secret };
}
