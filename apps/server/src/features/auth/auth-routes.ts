import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStorableJson } from '@skanova/shared/callable/storable-text';
import type { AppContext } from '../../context.ts';
import { auditPasswordChange, passwordChanger, type PasswordChanger } from './password-events.ts';
import { endResetLinks } from '../../domain/reset-links.ts';
import { giveBack, hit, take, type LimitRule, type TakenHit } from '../../lib/rate-limiter.ts';
import { webHeaders } from './web-headers.ts';
import { rateLimitClient } from '../../lib/client-network.ts';
import { ADDRESS_LOCKED, addressLimitKey } from './sign-in-lock.ts';

// The auth library's HTTP endpoints under /api/auth, behind an allow-list (signup goes through the
// `createAffiliate` function so that account and profile are created together) and the
// database-backed limits of docs/product/rules-and-constants.md#sign-in-limits. The client IP is Fastify's `request.ip` (trustProxy decides),
// written into `x-forwarded-for` so that the library records the same address.

const AUTH_PREFIX = '/api/auth';

/** Endpoints the web client uses; everything else the library offers answers 404. */
const ALLOWED = new Set([
  'GET /get-session',
  'POST /sign-in/email',
  'POST /sign-out',
  'POST /request-password-reset',
  'POST /reset-password',
  'POST /change-password',
]);

const MINUTE = 60;
const HOUR = 60 * 60;

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_PREFIX}/*`,
    // The limits below are database-backed; the in-memory limiter is not used here.
    config: { rateLimit: false },
    handler: async (request, reply) => {
      const pathname = (request.url.split('?', 1)[0] ?? '').slice(AUTH_PREFIX.length);
      if (!ALLOWED.has(`${request.method} ${pathname}`)) {
        return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such endpoint.' });
      }
      if (!isStorableJson(request.body ?? null)) {
        // The storable-text rule (a NUL or a lone surrogate in an address, a password or a token):
        // the library would look the value up and fail (a 500), or hash it altered.
        return reply.code(400).send({ code: 'INVALID_REQUEST_BODY', message: 'Invalid request.' });
      }
      const limited = await checkLimits(ctx, request, pathname);
      if (limited.refuse === 'address-locked') return reply.code(429).send(ADDRESS_LOCKED);
      if (limited.refuse) return tooManyRequests(reply);
      // Read before the change: it revokes the sessions, the request's own included.
      const changer = pathname === '/change-password' ? await passwordChanger(ctx, request) : null;
      const response = await ctx.auth.handler(toWebRequest(ctx, request, pathname));
      if (changer && response.ok) await onPasswordChanged(ctx, changer);
      // Only failed attempts count against the address: an attempt that was not a wrong password (a
      // sign-in, a malformed request) is given back, so its owner is not locked out by signing in.
      if (limited.attempt && response.status !== 401) await giveBack(ctx, limited.attempt);
      return sendWebResponse(reply, response);
    },
  });
}

/**
 * A changed password ends the account's reset links (domain/reset-links.ts); an affiliate's change is
 * audit-logged and e-mailed to the account (account-takeover warning).
 */
async function onPasswordChanged(ctx: AppContext, changer: PasswordChanger): Promise<void> {
  try {
    await endResetLinks(ctx, changer.userId);
    if (changer.affiliate) await auditPasswordChange(ctx, changer.affiliate);
  } catch (error) {
    ctx.log.error({ err: error }, 'password change follow-up failed');
  }
}

function emailOf(request: FastifyRequest): string | null {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : null;
}

function emailRule(ctx: AppContext, request: FastifyRequest, max: number, name = 'signin'): LimitRule {
  return { key: addressLimitKey(ctx, name, emailOf(request) ?? ''), max, windowSeconds: HOUR };
}

interface LimitVerdict {
  /**
   * Why the request must be refused with 429: `address-locked` when the address has too many failed
   * sign-ins (a password reset unlocks it: sign-in-lock.ts), `true` for the other limits, else `false`.
   */
  refuse: boolean | 'address-locked';
  /** A sign-in attempt counted against its address before the password is checked. */
  attempt?: TakenHit;
}

async function checkLimits(ctx: AppContext, request: FastifyRequest, pathname: string): Promise<LimitVerdict> {
  const { config } = ctx;
  // An IPv6 client is its /64 (lib/client-network.ts).
  const ip = ctx.hashIdentifier(rateLimitClient(request.ip));
  switch (pathname) {
    case '/sign-in/email': {
      const byIp = await hit(ctx, {
        key: `signin:ip:${ip}`,
        max: config.RATE_LIMIT_SIGNIN_PER_MINUTE,
        windowSeconds: MINUTE,
      });
      if (!byIp) return { refuse: true };
      if (emailOf(request) === null) return { refuse: false };
      // Failed attempts count against the address (10 per hour): guessing one account's password
      // from many IPs stops there. The attempt is counted before the password is checked, in the
      // statement that checks the limit: guesses sent together cannot all be evaluated, each one
      // takes its own place in the count (the handler gives it back unless the password was wrong).
      const attempt = await take(ctx, emailRule(ctx, request, config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR));
      return attempt.allowed ? { refuse: false, attempt } : { refuse: 'address-locked' };
    }
    case '/request-password-reset': {
      const byIp = await hit(ctx, {
        key: `reset:ip:${ip}`,
        max: config.RATE_LIMIT_PASSWORD_RESET_PER_HOUR,
        windowSeconds: HOUR,
      });
      if (!byIp) return { refuse: true };
      return {
        refuse:
          emailOf(request) !== null &&
          !(await hit(ctx, emailRule(ctx, request, config.RATE_LIMIT_PASSWORD_RESET_PER_HOUR, 'reset'))),
      };
    }
    case '/reset-password':
    case '/change-password':
      // Guessing a reset token or the current password: same budget as sign-in.
      return {
        refuse: !(await hit(ctx, {
          key: `${pathname.slice(1)}:ip:${ip}`,
          max: config.RATE_LIMIT_SIGNIN_PER_MINUTE * 2,
          windowSeconds: MINUTE,
        })),
      };
    default:
      return { refuse: false };
  }
}

function tooManyRequests(reply: FastifyReply) {
  return reply.code(429).send({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Please try again later.' });
}

function toWebRequest(ctx: AppContext, request: FastifyRequest, pathname: string): Request {
  const headers = webHeaders(request);
  const init: RequestInit = { method: request.method, headers };
  if (request.method === 'POST') {
    headers.set('content-type', 'application/json');
    const body = (request.body ?? {}) as Record<string, unknown>;
    // A change of password ends every other session of the account, whatever the client asks
    // (docs/decisions/016-security-hardening.md): a thief signed in elsewhere must not stay in.
    init.body = JSON.stringify(pathname === '/change-password' ? { ...body, revokeOtherSessions: true } : body);
  }
  return new Request(`${ctx.config.publicUrl}${request.url}`, init);
}

async function sendWebResponse(reply: FastifyReply, response: Response) {
  reply.code(response.status);
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie' || name === 'content-length') continue;
    reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  reply.header('cache-control', 'no-store');
  const body = await response.text();
  return reply.send(body === '' ? null : body);
}
