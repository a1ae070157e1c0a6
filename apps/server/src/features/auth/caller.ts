import { isLanguage } from '@skanova/shared/site/constants';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AffiliateCaller, AppContext, SignedInUser } from '../../context.ts';
import { affiliates } from '../../db/schema/affiliates.ts';
import { webHeaders } from './web-headers.ts';

// Who is calling: the session from the cookie, or from `Authorization: Bearer <session token>` for
// non-browser clients (BRIEF §3), joined with the affiliate profile of that account.

export async function resolveUser(app: AppContext, request: FastifyRequest): Promise<SignedInUser | null> {
  if (!request.headers.cookie && !request.headers.authorization) return null;
  const session = await app.auth.api.getSession({ headers: webHeaders(request) }).catch((error: unknown) => {
    app.log.warn({ err: error }, 'session lookup failed');
    return null;
  });
  if (!session) return null;
  const user = session.user as { id: string; email: string; role?: string | null; banned?: boolean | null };
  if (user.banned) return null;
  return { userId: user.id, email: user.email, role: user.role === 'admin' ? 'admin' : 'affiliate' };
}

/** The caller's affiliate profile, or null (deleted profiles are gone for their owner too). */
export async function loadAffiliateCaller(app: AppContext, user: SignedInUser): Promise<AffiliateCaller | null> {
  const [row] = await app.database.db
    .select({
      id: affiliates.id,
      firstName: affiliates.firstName,
      language: affiliates.language,
      status: affiliates.status,
    })
    .from(affiliates)
    .where(and(eq(affiliates.userId, user.userId), isNull(affiliates.deletedAt)));
  if (!row) return null;
  return {
    ...user,
    affiliateId: row.id,
    firstName: row.firstName,
    language: isLanguage(row.language) ? row.language : 'fr',
    status: row.status,
  };
}
