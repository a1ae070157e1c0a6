import type { AppServices } from '../../services.ts';

// An affiliate's last activity, for the 12-month inactivity rule (spec §9, BRIEF §6): signing in
// and using a session (the auth library renews a session in use once a day) both count.

/** Records that the sign-in account `userId` is in use now; a failure is logged, never thrown. */
export async function recordAffiliateActivity(
  app: Pick<AppServices, 'database' | 'now' | 'log'>,
  userId: string,
): Promise<void> {
  try {
    // Coming back also cancels a pending inactivity warning.
    await app.database.sql.query(
      'UPDATE affiliates SET last_active_at = $2, inactivity_warned_at = NULL WHERE user_id = $1 AND deleted_at IS NULL',
      [userId, app.now().toISOString()],
    );
  } catch (error) {
    app.log.error({ err: error }, 'affiliate activity not recorded');
  }
}
