import { adminUpdateWebhookEndpointSchema } from '@skanova/shared/webhooks/schemas';
import { updateEndpoint } from '../../features/webhooks/endpoints.ts';
import { defineCallable } from '../../http/callable.ts';

/** Changes a webhook endpoint's URL, events or note, or enables or disables it (operators only; audited). */
export const adminUpdateWebhookEndpoint = defineCallable({
  name: 'adminUpdateWebhookEndpoint',
  access: 'admin',
  input: adminUpdateWebhookEndpointSchema,
  async handler(input, { app, caller }) {
    return updateEndpoint(app, caller, input);
  },
});
