import { adminRotateWebhookSecretSchema } from '@skanova/shared/webhooks/schemas';
import { rotateSecret } from '../../features/webhooks/endpoints.ts';
import { defineCallable } from '../../http/callable.ts';

/** A new signing secret for an endpoint, answered once; the previous one signs beside it for a day (operators only; audited). */
export const adminRotateWebhookSecret = defineCallable({
  name: 'adminRotateWebhookSecret',
  access: 'admin',
  input: adminRotateWebhookSecretSchema,
  async handler(input, { app, caller }) {
    return rotateSecret(app, caller, input.endpointId);
  },
});
