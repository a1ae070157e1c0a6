import type { AffiliateSettings } from '@skanova/shared/affiliate/stats';
import type { NotificationPreferences } from '@skanova/shared/affiliate/schemas';
import { and, eq, isNull } from 'drizzle-orm';
import type { AffiliateCaller, AppContext } from '../../context.ts';
import { affiliates } from '../../db/schema/affiliates.ts';

// The Settings tab (docs/product/routes-and-screens.md#settings-tab): the account's e-mail (read-only), names, language and the three
// notification preferences, saved on the profile (default on) for the e-mails about conversions,
// payments and news to read. Security e-mails (payment method changed, account deleted) ignore them.

/** The three preferences as a Drizzle selection, under the names the dashboard uses. */
const notificationColumns = {
  conversions: affiliates.notifyConversions,
  payments: affiliates.notifyPayments,
  news: affiliates.notifyNews,
};

export async function loadSettings(app: AppContext, caller: AffiliateCaller): Promise<AffiliateSettings> {
  const [row] = await app.database.db
    .select({ firstName: affiliates.firstName, lastName: affiliates.lastName, notifications: notificationColumns })
    .from(affiliates)
    .where(eq(affiliates.id, caller.affiliateId));
  if (!row) throw new Error(`affiliate ${caller.affiliateId} has no row`);
  return {
    email: caller.email,
    firstName: row.firstName ?? '',
    lastName: row.lastName ?? '',
    language: caller.language,
    notifications: row.notifications,
  };
}

export async function saveNotificationPreferences(
  app: AppContext,
  affiliateId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  const [row] = await app.database.db
    .update(affiliates)
    .set({
      notifyConversions: preferences.conversions,
      notifyPayments: preferences.payments,
      notifyNews: preferences.news,
      updatedAt: app.now(),
    })
    .where(and(eq(affiliates.id, affiliateId), isNull(affiliates.deletedAt)))
    .returning(notificationColumns);
  if (!row) throw new Error(`affiliate ${affiliateId} has no row`);
  return row;
}
