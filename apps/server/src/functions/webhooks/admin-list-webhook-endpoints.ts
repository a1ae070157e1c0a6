import { adminListWebhookEndpointsSchema } from '@skanova/shared/webhooks/schemas';
import { listEndpoints } from '../../features/webhooks/endpoints.ts';
import { defineCallable } from '../../http/callable.ts';

/** The registered webhook endpoints, newest first (operators only). */
export const adminListWebhookEndpoints = defineCallable({
  name: 'adminListWebhookEndpoints',
  access: 'admin',
  input: adminListWebhookEndpointsSchema,
  async handler(_input, { app }) {
    return listEndpoints(app);
  },
});
