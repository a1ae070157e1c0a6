import { adminDeleteWebhookEndpointSchema } from '@skanova/shared/webhooks/schemas';
import { deleteEndpoint } from '../../features/webhooks/endpoints.ts';
import { defineCallable } from '../../http/callable.ts';

/** Deletes a webhook endpoint with its deliveries and their log (operators only; audited). */
export const adminDeleteWebhookEndpoint = defineCallable({
  name: 'adminDeleteWebhookEndpoint',
  access: 'admin',
  input: adminDeleteWebhookEndpointSchema,
  async handler(input, { app, caller }) {
    return deleteEndpoint(app, caller, input.endpointId);
  },
});
