import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type $ZodType, type output, safeParse } from 'zod/v4/core';
import { CALLABLE_PATH_PREFIX } from '@skanova/shared/callable/functions';
import { ERROR_STATUS, type ErrorCode, type CallableErrorBody, toWireStatus } from '@skanova/shared/callable/errors';
import { isStorableJson } from '@skanova/shared/schemas/storable-text';
import type { AppContext } from '../context.ts';
import { type AffiliateCaller, type SignedInUser, loadAffiliateCaller, resolveUser } from '../features/auth/caller.ts';

/** The one error type of server functions; `sendCallableError` turns it into the protocol's answer. */
export class CallableError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: unknown,
  ) {
    super(message ?? code);
    this.name = 'CallableError';
  }
}

export interface CallableRequestContext {
  app: AppContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Who may call a function: anyone, a signed-in affiliate (with a profile), or an operator. */
export type CallableAccess = 'public' | 'affiliate' | 'admin';

export type CallerFor<A extends CallableAccess> = A extends 'affiliate'
  ? AffiliateCaller
  : A extends 'admin'
    ? SignedInUser
    : null;

export interface RateLimitRule {
  /** Requests allowed per window for one client IP. */
  max: number;
  timeWindow: number | string;
}

export interface CallableDefinition<Input extends $ZodType, Output, A extends CallableAccess = 'public'> {
  name: string;
  /** Checked before the body is validated: an anonymous call is answered `unauthenticated` first (BRIEF §6). */
  access?: A;
  input: Input;
  /** Per-IP rate limit of this function; omitted = the protocol's default budget. */
  rateLimit?: (app: AppContext) => RateLimitRule | false;
  handler: (input: output<Input>, ctx: CallableRequestContext & { caller: CallerFor<A> }) => Promise<Output>;
}

/** Declares a callable with its input schema (zod or zod/mini) and caller inferred. */
export function defineCallable<Input extends $ZodType, Output, A extends CallableAccess = 'public'>(
  definition: CallableDefinition<Input, Output, A>,
): CallableDefinition<Input, Output, A> {
  return definition;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of definitions with different inputs and callers
export type AnyCallable = CallableDefinition<any, unknown, any>;

/** The caller a function's access level requires, or the protocol error that refuses the call. */
async function authorise(
  app: AppContext,
  request: FastifyRequest,
  access: CallableAccess,
): Promise<AffiliateCaller | SignedInUser | null> {
  if (access === 'public') return null;
  const user = await resolveUser(app, request);
  if (!user) throw new CallableError('unauthenticated', 'You must be signed in.', { code: 'unauthenticated' });
  if (access === 'admin') {
    if (user.role !== 'admin')
      throw new CallableError('permission-denied', 'Operators only.', { code: 'permission-denied' });
    return user;
  }
  const affiliate = await loadAffiliateCaller(app, user);
  if (!affiliate) throw new CallableError('not-found', 'Your affiliate profile was not found.', { code: 'not-found' });
  return affiliate;
}

/** `/api`, `/api/…` and `/api?…`: answered in the protocol's shape, never with a page. */
export function isApiPath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return pathname === '/api' || pathname.startsWith('/api/');
}

export function errorBody(code: ErrorCode, message: string, details?: unknown): CallableErrorBody {
  return { error: { status: toWireStatus(code), message, ...(details === undefined ? {} : { details }) } };
}

export function sendCallableError(reply: FastifyReply, code: ErrorCode, message: string, details?: unknown) {
  return reply
    .code(ERROR_STATUS[code])
    .type('application/json; charset=utf-8')
    .send(errorBody(code, message, details));
}

/**
 * Registers `POST /api/fn/<name>` for each definition: JSON `{ data }` in, `{ result }` out,
 * input validated by the function's zod schema, errors in the callable protocol's shape.
 */
export function registerCallables(app: FastifyInstance, ctx: AppContext, definitions: readonly AnyCallable[]) {
  for (const definition of definitions) {
    const limit = definition.rateLimit ? definition.rateLimit(ctx) : undefined;
    app.post(
      `${CALLABLE_PATH_PREFIX}${definition.name}`,
      { config: { rateLimit: limit === false ? false : (limit ?? { max: 300, timeWindow: '1 minute' }) } },
      async (request, reply) => {
        const caller = await authorise(ctx, request, definition.access ?? 'public');
        const body = request.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body) || !('data' in body)) {
          throw new CallableError('invalid-argument', 'Request body must be a JSON object with a "data" field.');
        }
        const data = (body as { data: unknown }).data;
        if (!isStorableJson(data)) {
          // The storable-text rule (a NUL or a lone surrogate anywhere, keys included, or absurd
          // nesting): refused here for every function, whatever its schema, not as a failed insert.
          throw new CallableError('invalid-argument', 'Invalid information provided.', {
            code: 'invalid-argument',
            reason: 'unstorable-text',
          });
        }
        const parsed = safeParse(definition.input, data);
        if (!parsed.success) {
          throw new CallableError('invalid-argument', 'Invalid information provided.', {
            code: 'invalid-argument',
            issues: parsed.error.issues.map((issue) => ({
              path: issue.path.map(String).join('.'),
              message: issue.message,
            })),
          });
        }
        const result = await definition.handler(parsed.data, { app: ctx, request, reply, caller });
        return { result: result ?? null };
      },
    );
  }
}
