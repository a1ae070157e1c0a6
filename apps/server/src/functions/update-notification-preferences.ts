import { notificationPreferencesSchema } from '@skanova/shared/affiliate/schemas';
import { saveNotificationPreferences } from '../features/affiliate/settings.ts';
import { defineCallable } from '../http/callable.ts';

/** Saves the three notification preferences (new conversions, new payments, news and offers). */
export const updateNotificationPreferences = defineCallable({
  name: 'updateNotificationPreferences',
  access: 'affiliate',
  input: notificationPreferencesSchema,
  async handler(preferences, { app, caller }) {
    return { notifications: await saveNotificationPreferences(app, caller.affiliateId, preferences) };
  },
});
