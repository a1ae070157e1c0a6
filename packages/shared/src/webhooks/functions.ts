import type { AdminPage } from '../admin/responses.ts';
import type { WebhookAttemptError, WebhookDeliveryStatus, WebhookEventType } from './constants.ts';
import type {
  AdminCreateWebhookEndpointRequest,
  AdminDeleteWebhookEndpointRequest,
  AdminListWebhookDeliveriesRequest,
  AdminListWebhookEndpointsRequest,
  AdminReplayWebhookDeliveryRequest,
  AdminRotateWebhookSecretRequest,
  AdminUpdateWebhookEndpointRequest,
} from './schemas.ts';

// The operators' webhook functions (docs/product/webhooks.md#endpoints), `access: 'admin'`, each
// change written to the audit log. Times as ISO 8601 UTC instants. A secret is answered once, when
// it is created or rotated, and never again (it is sealed at rest).

export interface AdminWebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  /** The last rotation of its secret, if any. */
  secretRotatedAt: string | null;
  /** While the previous secret still signs beside the new one (docs/product/webhooks.md#secret-rotation). */
  previousSecretExpiresAt: string | null;
  /** Deliveries waiting or retrying, and given up. */
  pendingDeliveries: number;
  failedDeliveries: number;
}

/** An endpoint with its signing secret, answered once (creation, rotation). */
export interface AdminWebhookEndpointWithSecret {
  endpoint: AdminWebhookEndpoint;
  /** `whsec_…`: the HMAC key receivers verify signatures with (docs/product/webhooks.md#signatures). */
  secret: string;
}

export interface AdminWebhookAttempt {
  /** 1 for the first attempt; a replay goes on counting. */
  attempt: number;
  at: string;
  durationMs: number;
  /** The receiver's HTTP status, when it answered. */
  statusCode: number | null;
  error: WebhookAttemptError | null;
}

/** One event to one endpoint, with its attempts (newest first). */
export interface AdminWebhookDelivery {
  id: string;
  endpointId: string;
  endpointUrl: string;
  eventId: string;
  eventType: WebhookEventType;
  affiliateId: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When it is tried next (pending only). */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  attemptLog: AdminWebhookAttempt[];
}

export interface WebhookFunctions {
  /** Every endpoint, newest first. */
  adminListWebhookEndpoints: { request: AdminListWebhookEndpointsRequest; response: AdminWebhookEndpoint[] };
  /**
   * Registers an endpoint (enabled) and answers its secret, once. A URL that is not one, http in
   * production, or an address the guard refuses is `invalid-argument` with field errors, and nothing
   * is written; more than the maximum of endpoints is `failed-precondition` (`too-many-endpoints`).
   */
  adminCreateWebhookEndpoint: {
    request: AdminCreateWebhookEndpointRequest;
    response: AdminWebhookEndpointWithSecret;
  };
  /** Changes the URL (checked again), the events, the note, or enables or disables it. */
  adminUpdateWebhookEndpoint: { request: AdminUpdateWebhookEndpointRequest; response: AdminWebhookEndpoint };
  /** Deletes the endpoint with its deliveries and their log. */
  adminDeleteWebhookEndpoint: { request: AdminDeleteWebhookEndpointRequest; response: { deleted: true } };
  /** A new secret, answered once; the previous one goes on signing beside it for the overlap. */
  adminRotateWebhookSecret: { request: AdminRotateWebhookSecretRequest; response: AdminWebhookEndpointWithSecret };
  /** The delivery log, newest first, filtered by endpoint, status or event type. */
  adminListWebhookDeliveries: {
    request: AdminListWebhookDeliveriesRequest;
    response: AdminPage<AdminWebhookDelivery>;
  };
  /**
   * Sends a delivered or failed delivery again (a new attempt at once, then the usual retries); a
   * pending one is `failed-precondition` (`delivery-pending`): it is already on its way.
   */
  adminReplayWebhookDelivery: { request: AdminReplayWebhookDeliveryRequest; response: AdminWebhookDelivery };
}
