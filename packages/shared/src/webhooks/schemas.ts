import * as z from 'zod/mini';
import { ADMIN_PAGE_SIZE_MAX } from '../admin/schemas.ts';
import { formSchema } from '../callable/field-errors.ts';
import { storableText } from '../callable/storable-text.ts';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
} from './constants.ts';

// Inputs of the webhook functions (docs/product/webhooks.md#endpoints). The endpoint form's schemas
// are forms (ADR 009): a refusal answers `invalid-argument` with field errors whose messages are
// keys of the `webhooks` namespace, the same the console shows before sending. What the schema
// cannot know — https in production, where the address resolves to — the server checks after it,
// and answers in the same shape (docs/product/webhooks.md#the-address-guard).

/**
 * An endpoint's address as the form and the server both read it first: a URL, http or https, with a
 * host and without credentials (a password in a URL would be stored and shown in clear). Answers
 * the message key of what is wrong, or null.
 */
export function webhookUrlProblem(value: string): 'form.errors.urlInvalid' | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'form.errors.urlInvalid';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'form.errors.urlInvalid';
  if (url.hostname === '' || url.username !== '' || url.password !== '') return 'form.errors.urlInvalid';
  return null;
}

const url = z.string('form.errors.urlRequired').check(
  z.trim(),
  z.minLength(1, { error: 'form.errors.urlRequired', abort: true }),
  z.maxLength(WEBHOOK_URL_MAX, { error: 'form.errors.urlTooLong', abort: true }),
  storableText('form.errors.invalidCharacters'),
  z.refine((value) => webhookUrlProblem(value) === null, 'form.errors.urlInvalid'),
);

/** At least one event; each a known type (a repeated one counts once). */
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, 'form.errors.eventsInvalid'), 'form.errors.eventsRequired')
  .check(
    z.minLength(1, 'form.errors.eventsRequired'),
    z.maxLength(WEBHOOK_EVENT_TYPES.length * 2, 'form.errors.eventsInvalid'),
  );

/** A note; empty means none. */
const description = z
  .string('form.errors.descriptionTooLong')
  .check(
    z.trim(),
    z.maxLength(WEBHOOK_DESCRIPTION_MAX, 'form.errors.descriptionTooLong'),
    storableText('form.errors.invalidCharacters'),
  );

const endpointId = z.uuid();
/** Delivery ids are bigint identities, sent as decimal text (within a safe JavaScript integer). */
const deliveryId = z.string().check(z.regex(/^[1-9]\d{0,14}$/));

const paging = {
  page: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  pageSize: z.optional(z.int().check(z.minimum(1), z.maximum(ADMIN_PAGE_SIZE_MAX))),
};

/** No input (an empty object or null, as the other no-argument functions). */
export const adminListWebhookEndpointsSchema = z.optional(z.nullable(z.strictObject({})));

export const adminCreateWebhookEndpointSchema = formSchema(
  'webhooks',
  z.strictObject({ url, eventTypes, description: z.optional(description) }),
);

/** What is given changes; what is left out stays. */
export const adminUpdateWebhookEndpointSchema = formSchema(
  'webhooks',
  z.strictObject({
    endpointId,
    url: z.optional(url),
    eventTypes: z.optional(eventTypes),
    description: z.optional(description),
    enabled: z.optional(z.boolean()),
  }),
);

export const adminDeleteWebhookEndpointSchema = z.strictObject({ endpointId });

export const adminRotateWebhookSecretSchema = z.strictObject({ endpointId });

export const adminListWebhookDeliveriesSchema = z.strictObject({
  endpointId: z.optional(endpointId),
  status: z.optional(z.enum(WEBHOOK_DELIVERY_STATUSES)),
  eventType: z.optional(z.enum(WEBHOOK_EVENT_TYPES)),
  ...paging,
});

export const adminReplayWebhookDeliverySchema = z.strictObject({ deliveryId });

export type AdminListWebhookEndpointsRequest = z.input<typeof adminListWebhookEndpointsSchema>;
export type AdminCreateWebhookEndpointRequest = z.input<typeof adminCreateWebhookEndpointSchema>;
export type AdminUpdateWebhookEndpointRequest = z.input<typeof adminUpdateWebhookEndpointSchema>;
export type AdminDeleteWebhookEndpointRequest = z.input<typeof adminDeleteWebhookEndpointSchema>;
export type AdminRotateWebhookSecretRequest = z.input<typeof adminRotateWebhookSecretSchema>;
export type AdminListWebhookDeliveriesRequest = z.input<typeof adminListWebhookDeliveriesSchema>;
export type AdminReplayWebhookDeliveryRequest = z.input<typeof adminReplayWebhookDeliverySchema>;
