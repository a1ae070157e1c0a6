import { adminListWebhookDeliveriesSchema } from '@skanova/shared/webhooks/schemas';
import { listDeliveries } from '../../features/webhooks/deliveries.ts';
import { defineCallable } from '../../http/callable.ts';

/** The webhook delivery log, newest first, with each delivery's attempts (operators only). */
export const adminListWebhookDeliveries = defineCallable({
  name: 'adminListWebhookDeliveries',
  access: 'admin',
  input: adminListWebhookDeliveriesSchema,
  async handler(input, { app }) {
    return listDeliveries(app, input);
  },
});
