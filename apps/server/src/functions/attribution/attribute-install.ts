import { attributeInstallRequestSchema } from '@skanova/shared/attribution/schemas';
import { attributeAppUser } from '../../features/attribution/attribute-install.ts';
import { defineCallable } from '../../http/callable.ts';

// The app's first launch (docs/product/attribution.md#install-attribution): public — the app has no affiliate session — and limited per IP,
// since each call may read the visits of the caller's network.

export const attributeInstall = defineCallable({
  name: 'attributeInstall',
  access: 'public',
  input: attributeInstallRequestSchema,
  rateLimit: (ctx) => ({ max: ctx.config.RATE_LIMIT_ATTRIBUTION_PER_MINUTE, timeWindow: '1 minute' }),
  handler: (input, { app, request }) => attributeAppUser(app, input, request.ip),
});
