import type { RegisteredCallable } from '../../http/callable.ts';
import { adminCreateWebhookEndpoint } from './admin-create-webhook-endpoint.ts';
import { adminDeleteWebhookEndpoint } from './admin-delete-webhook-endpoint.ts';
import { adminListWebhookDeliveries } from './admin-list-webhook-deliveries.ts';
import { adminListWebhookEndpoints } from './admin-list-webhook-endpoints.ts';
import { adminReplayWebhookDelivery } from './admin-replay-webhook-delivery.ts';
import { adminRotateWebhookSecret } from './admin-rotate-webhook-secret.ts';
import { adminUpdateWebhookEndpoint } from './admin-update-webhook-endpoint.ts';

/** The operators' webhook functions (access: admin; docs/product/webhooks.md#endpoints). */
export const webhookCallables = [
  adminListWebhookEndpoints,
  adminCreateWebhookEndpoint,
  adminUpdateWebhookEndpoint,
  adminDeleteWebhookEndpoint,
  adminRotateWebhookSecret,
  adminListWebhookDeliveries,
  adminReplayWebhookDelivery,
] as const satisfies readonly RegisteredCallable[];
