import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { isLanguage } from '@skanova/shared/site/constants';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AffiliateCaller, AppContext, SignedInUser } from '../../context.ts';
import { affiliates } from '../../db/schema/affiliates.ts';
import { webHeaders } from './web-headers.ts';

// Who is calling: the session from the cookie, or from `Authorization: Bearer <session token>` for
// non-browser clients (docs/product/calls-and-data.md#callable-protocol), joined with the affiliate profile of that account.
//
// Every signed-in request starts here, so the common case takes one statement: a session cookie
// whose signature checks, naming a live session that is not yet due for its daily renewal, is read
// with its user and affiliate profile in one query, its signature checked as the auth library
// checks it (HMAC-SHA-256 of the token with the auth secret). Everything else — a bearer token, a
// session that has expired (the library deletes it) or is due for renewal (the library extends it
// and records the activity) — goes through the library's own session lookup, as before. Either
// way the answer is the same: the library's rules decide who is signed in.
//
// A function that reads the caller's own rows at once (the dashboard's statistics) may hand its read
// to the lookup (`CallerRead`): the common case then takes one statement for both, one round trip to
// the database instead of two (docs/benchmarks.md § Dashboard statistics). Its answer is used only
// when the lookup admits the caller; every other case reads as before.

/** The signed-in user, and their affiliate profile when it is asked for (null when they have none). */
export interface Caller {
  user: SignedInUser;
  affiliate(): Promise<AffiliateCaller | null>;
  /**
   * The answer of the `CallerRead` handed to `resolveCaller`, read in the session's statement for the
   * caller's affiliate profile; undefined when it was not (the library's lookup, or no profile).
   */
  read?: Record<string, unknown>;
}

/**
 * A read of the caller's own rows, done in the session lookup's statement. `sql` is one SELECT
 * answering one row, given the SQL expression of the caller's affiliate id; its own parameters are
 * `parameters`, numbered from $2 ($1 is the session token). `name` names the prepared statement.
 */
export interface CallerRead {
  name: string;
  sql: (affiliateId: string) => string;
  parameters: unknown[];
}

export async function resolveCaller(
  app: AppContext,
  request: FastifyRequest,
  read?: CallerRead,
): Promise<Caller | null> {
  if (!request.headers.cookie && !request.headers.authorization) return null;
  const quick = await quickLookup(app, request, read);
  if (quick !== undefined) return quick;
  const user = await libraryLookup(app, request);
  return user ? { user, affiliate: () => loadAffiliateCaller(app, user) } : null;
}

/** The library's session lookup (getSession), with its renewals, deletions and bearer tokens. */
async function libraryLookup(app: AppContext, request: FastifyRequest): Promise<SignedInUser | null> {
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
  return row ? affiliateCaller(user, row) : null;
}

function affiliateCaller(
  user: SignedInUser,
  row: { id: string; firstName: string | null; language: string; status: AffiliateCaller['status'] },
): AffiliateCaller {
  return {
    ...user,
    affiliateId: row.id,
    firstName: row.firstName,
    language: isLanguage(row.language) ? row.language : 'fr',
    status: row.status,
  };
}

// ---------------------------------------------------------------------------------------------
// The one-statement lookup.

interface SessionSettings {
  /** The session cookie's name (`sk.session_token`, `__Secure-` first behind HTTPS). */
  cookieName: string;
  key: KeyObject;
  expiresInMs: number;
  updateAgeMs: number;
}

const settingsByApp = new WeakMap<AppContext, Promise<SessionSettings>>();

function sessionSettings(app: AppContext): Promise<SessionSettings> {
  let settings = settingsByApp.get(app);
  if (!settings) {
    settings = app.auth.$context.then((context) => ({
      cookieName: context.authCookies.sessionToken.name,
      key: createSecretKey(Buffer.from(context.secret, 'utf8')),
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    }));
    settingsByApp.set(app, settings);
  }
  return settings;
}

const SESSION_SQL = `
SELECT s.expires_at AS "expiresAt", u.id AS "userId", u.email, u.role, u.banned,
       a.id AS "affiliateId", a.first_name AS "firstName", a.language, a.status AS "affiliateStatus"
FROM auth_sessions s
JOIN auth_users u ON u.id = s.user_id
LEFT JOIN affiliates a ON a.user_id = u.id AND a.deleted_at IS NULL
WHERE s.token = $1`;

interface SessionRow {
  expiresAt: Date;
  userId: string;
  email: string;
  role: string | null;
  banned: boolean | null;
  affiliateId: string | null;
  firstName: string | null;
  language: string | null;
  affiliateStatus: AffiliateCaller['status'] | null;
  /** The `CallerRead`'s row (null when the session names no live account with a profile). */
  read?: Record<string, unknown> | null;
}

/** SESSION_SQL and `read` in one statement: the read runs for a live account's affiliate profile only. */
function sessionWithRead(read: CallerRead): string {
  return `
SELECT c.*, to_json(r) AS "read"
FROM (${SESSION_SQL}) c
LEFT JOIN LATERAL (${read.sql('c."affiliateId"')}) r ON c."affiliateId" IS NOT NULL AND c.banned IS NOT TRUE`;
}

/**
 * The caller from the session cookie in one statement; null when nobody is signed in; undefined when
 * the library must decide (a bearer token; a session expired or due for renewal).
 */
async function quickLookup(
  app: AppContext,
  request: FastifyRequest,
  read: CallerRead | undefined,
): Promise<Caller | null | undefined> {
  if (request.headers.authorization !== undefined) return undefined;
  const settings = await sessionSettings(app);
  const cookie = cookieValue(request.headers.cookie ?? '', settings.cookieName);
  // No session cookie, or a forged one: the library answers "nobody" too.
  if (cookie === null) return null;
  const token = verifiedValue(cookie, settings.key);
  if (token === null) return null;
  const { rows } = read
    ? await app.database.sql.query<SessionRow>(sessionWithRead(read), [token, ...read.parameters], {
        name: `session-caller+${read.name}`,
      })
    : await app.database.sql.query<SessionRow>(SESSION_SQL, [token], { name: 'session-caller' });
  const row = rows[0];
  if (!row) return null;
  // The library's clock, as it compares them (the machine's, not a test clock).
  const now = Date.now();
  const expiresAt = new Date(row.expiresAt).getTime();
  if (expiresAt < now || expiresAt - settings.expiresInMs + settings.updateAgeMs <= now) return undefined;
  if (row.banned) return null;
  const user: SignedInUser = {
    userId: row.userId,
    email: row.email,
    role: row.role === 'admin' ? 'admin' : 'affiliate',
  };
  const profile =
    row.affiliateId !== null && row.language !== null && row.affiliateStatus !== null
      ? affiliateCaller(user, {
          id: row.affiliateId,
          firstName: row.firstName,
          language: row.language,
          status: row.affiliateStatus,
        })
      : null;
  return { user, affiliate: async () => profile, ...(profile && row.read ? { read: row.read } : {}) };
}

/**
 * The value of cookie `name` in a Cookie header, as the auth library's cookie parser reads it: the
 * first pair of that name, trimmed, without surrounding quotes, percent-decoded when it decodes.
 */
export function cookieValue(header: string, name: string): string | null {
  let index = 0;
  while (index < header.length) {
    const equals = header.indexOf('=', index);
    if (equals === -1) break;
    let end = header.indexOf(';', index);
    if (end === -1) end = header.length;
    else if (end < equals) {
      index = header.lastIndexOf(';', equals - 1) + 1;
      continue;
    }
    if (header.slice(index, equals).trim() === name) {
      let value = header.slice(equals + 1, end).trim();
      if (value.codePointAt(0) === 34) value = value.slice(1, -1);
      try {
        return value.includes('%') ? decodeURIComponent(value) : value;
      } catch {
        return value;
      }
    }
    index = end + 1;
  }
  return null;
}

/**
 * `value.signature` as the auth library signs cookies (HMAC-SHA-256, standard base64, 44
 * characters): the value when the signature is right, else null.
 */
export function verifiedValue(signed: string, key: KeyObject): string | null {
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  let given: Buffer;
  try {
    // atob as the library decodes it: strict about the alphabet.
    given = Buffer.from(atob(signature), 'latin1');
  } catch {
    return null;
  }
  const expected = createHmac('sha256', key).update(value, 'utf8').digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}
