import { and, eq, isNull } from 'drizzle-orm';
import { affiliates } from '../../db/schema/affiliates.ts';
import type { AppServices } from '../../services.ts';

// An affiliate's last activity, for the 12-month inactivity rule (docs/product/rules-and-constants.md#retention): signing in
// and using a session (the auth library renews a session in use once a day) both count.

/** Records that the sign-in account `userId` is in use now; a failure is logged, never thrown. */
export async function recordAffiliateActivity(
  app: Pick<AppServices, 'database' | 'now' | 'log'>,
  userId: string,
): Promise<void> {
  try {
    // Coming back also cancels a pending inactivity warning.
    await app.database.db
      .update(affiliates)
      .set({ lastActiveAt: app.now(), inactivityWarnedAt: null })
      .where(and(eq(affiliates.userId, userId), isNull(affiliates.deletedAt)));
  } catch (error) {
    app.log.error({ err: error }, 'affiliate activity not recorded');
  }
}
