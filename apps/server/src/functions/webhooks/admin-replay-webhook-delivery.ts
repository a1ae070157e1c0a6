import { adminReplayWebhookDeliverySchema } from '@skanova/shared/webhooks/schemas';
import { replayDelivery } from '../../features/webhooks/deliveries.ts';
import { defineCallable } from '../../http/callable.ts';

/** Sends a delivered or failed webhook delivery again (operators only; audited). */
export const adminReplayWebhookDelivery = defineCallable({
  name: 'adminReplayWebhookDelivery',
  access: 'admin',
  input: adminReplayWebhookDeliverySchema,
  async handler(input, { app, caller }) {
    return replayDelivery(app, caller, input.deliveryId);
  },
});
