import { isLanguage } from '@skanova/shared/site/constants';
import type { FastifyRequest } from 'fastify';
import type { AffiliateCaller, AppContext, SignedInUser } from '../../context.ts';
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
  const { rows } = await app.database.sql.query<{
    id: string;
    first_name: string | null;
    language: string;
    status: AffiliateCaller['status'];
  }>('SELECT id, first_name, language, status FROM affiliates WHERE user_id = $1 AND deleted_at IS NULL', [
    user.userId,
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    ...user,
    affiliateId: row.id,
    firstName: row.first_name,
    language: isLanguage(row.language) ? row.language : 'fr',
    status: row.status,
  };
}
