import { adminCreateWebhookEndpointSchema } from '@skanova/shared/webhooks/schemas';
import { createEndpoint } from '../../features/webhooks/endpoints.ts';
import { defineCallable } from '../../http/callable.ts';

/** Registers a webhook endpoint and answers its signing secret, once (operators only; audited). */
export const adminCreateWebhookEndpoint = defineCallable({
  name: 'adminCreateWebhookEndpoint',
  access: 'admin',
  input: adminCreateWebhookEndpointSchema,
  async handler(input, { app, caller }) {
    return createEndpoint(app, caller, input);
  },
});
