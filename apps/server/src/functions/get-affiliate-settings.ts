import { noInputSchema } from '@skanova/shared/callable/schemas';
import { loadSettings } from '../features/affiliate/settings.ts';
import { defineCallable } from '../http/callable.ts';

/** The Settings tab: the account's e-mail, names, language and notification preferences. */
export const getAffiliateSettings = defineCallable({
  name: 'getAffiliateSettings',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return loadSettings(app, caller);
  },
});
