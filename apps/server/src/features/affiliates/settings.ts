import type { AffiliateSettings } from '@skanova/shared/affiliate/stats';
import type { NotificationPreferences } from '@skanova/shared/affiliate/schemas';
import type { AffiliateCaller, AppContext } from '../../context.ts';

// The Settings tab (BRIEF §5.9): the account's e-mail (read-only), names, language and the three
// notification preferences, saved on the profile (default on) for the e-mails about conversions,
// payments and news to read. Security e-mails (payment method changed, account deleted) ignore them.

interface SettingsRow {
  first_name: string | null;
  last_name: string | null;
  notify_conversions: boolean;
  notify_payments: boolean;
  notify_news: boolean;
}

export async function loadSettings(app: AppContext, caller: AffiliateCaller): Promise<AffiliateSettings> {
  const { rows } = await app.database.sql.query<SettingsRow>(
    'SELECT first_name, last_name, notify_conversions, notify_payments, notify_news FROM affiliates WHERE id = $1',
    [caller.affiliateId],
  );
  const row = rows[0];
  if (!row) throw new Error(`affiliate ${caller.affiliateId} has no row`);
  return {
    email: caller.email,
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    language: caller.language,
    notifications: { conversions: row.notify_conversions, payments: row.notify_payments, news: row.notify_news },
  };
}

export async function saveNotificationPreferences(
  app: AppContext,
  affiliateId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  const { rows } = await app.database.sql.query<{
    notify_conversions: boolean;
    notify_payments: boolean;
    notify_news: boolean;
  }>(
    `UPDATE affiliates SET notify_conversions = $2, notify_payments = $3, notify_news = $4, updated_at = $5
     WHERE id = $1 AND deleted_at IS NULL
     RETURNING notify_conversions, notify_payments, notify_news`,
    [affiliateId, preferences.conversions, preferences.payments, preferences.news, app.now().toISOString()],
  );
  const row = rows[0];
  if (!row) throw new Error(`affiliate ${affiliateId} has no row`);
  return { conversions: row.notify_conversions, payments: row.notify_payments, news: row.notify_news };
}
