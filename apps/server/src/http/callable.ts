import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type $ZodType, type input, type output, safeParse } from 'zod/v4/core';
import { CALLABLE_PATH_PREFIX, type CallableFunctions } from '@skanova/shared/callable/functions';
import { ERROR_STATUS, type ErrorCode, type CallableErrorBody, toWireStatus } from '@skanova/shared/callable/errors';
import { isStorableJson } from '@skanova/shared/callable/storable-text';
import { fieldErrorsFromIssues, formNamespaceOf } from '@skanova/shared/callable/field-errors';
import type { AffiliateCaller, AppContext, SignedInUser } from '../context.ts';
import { CallableError } from '../lib/callable-error.ts';
import { type CallerRead, resolveCaller } from '../features/auth/caller.ts';
import { PERIODIC_COUNTING } from '../lib/shared-rate-limit.ts';

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

/** A contract: each function's request (what a client may send) and response. */
export type CallableContract<C> = { [N in keyof C]: { request: unknown; response: unknown } };

export interface CallableDefinition<
  C extends CallableContract<C>,
  N extends keyof C & string,
  Input extends $ZodType,
  A extends CallableAccess,
> {
  /** A function of the contract. */
  name: N;
  /** Checked before the body is validated: an anonymous call is answered `unauthenticated` first (docs/product/rules-and-constants.md#security). */
  access?: A;
  /** Zod or zod/mini; it must accept every request the contract allows (see `defineCallable`). */
  input: Input;
  /** Per-IP rate limit of this function; omitted = the protocol's default budget. */
  rateLimit?: (app: AppContext) => RateLimitRule | false;
  /**
   * An affiliate's function that reads its caller's own rows first: that read, done in the session
   * lookup's statement when it can be (features/auth/caller.ts); the handler gets its row as
   * `callerRead`, or undefined, and then reads them itself.
   */
  readWithCaller?: A extends 'affiliate' ? (app: AppContext) => CallerRead : never;
  /** Gets what the schema parsed; answers the contract's response. */
  handler: (
    input: output<Input>,
    ctx: CallableRequestContext & { caller: CallerFor<A>; callerRead?: Record<string, unknown> | undefined },
  ) => Promise<C[N]['response']>;
}

/** Where a schema refuses a request the contract allows, the compiler names the request. */
interface RequestRefusedBySchema<Request> {
  'the input schema must accept the request of the contract': Request;
}

/** `unknown` (no constraint) when every contract request of `N` is an input the schema accepts. */
type AcceptsContractRequest<C extends CallableContract<C>, N extends keyof C, Input extends $ZodType> = [
  C[N]['request'],
] extends [input<Input>]
  ? unknown
  : RequestRefusedBySchema<C[N]['request']>;

/** A definition as the registry holds it: checked by `defineCallable`, then run by `registerCallables`. */
export interface RegisteredCallable<N extends string = string> {
  readonly name: N;
  readonly access: CallableAccess;
  readonly input: $ZodType;
  readonly rateLimit?: ((app: AppContext) => RateLimitRule | false) | undefined;
  readonly readWithCaller?: ((app: AppContext) => CallerRead) | undefined;
  /** Runs the handler on what `input` parsed, for a caller that `access` admits. */
  run(
    input: unknown,
    ctx: CallableRequestContext & {
      caller: AffiliateCaller | SignedInUser | null;
      callerRead?: Record<string, unknown> | undefined;
    },
  ): Promise<unknown>;
}

/**
 * `defineCallable` for a contract `C`: the name is one of its functions, the input schema accepts
 * every request the contract allows for it, the handler answers its response. A mismatch is a type
 * error where the definition is written (test/callable-contract.test.ts). The server's contract is
 * the shared `CallableFunctions`; a test may declare its own.
 */
export function callableDefiner<C extends CallableContract<C>>() {
  return function defineCallable<
    N extends keyof C & string,
    Input extends $ZodType,
    A extends CallableAccess = 'public',
  >(
    definition: CallableDefinition<C, N, Input, A> & { input: AcceptsContractRequest<C, N, Input> },
  ): RegisteredCallable<N> {
    const { name, access = 'public' as A, input, rateLimit, readWithCaller, handler } = definition;
    return {
      name,
      access,
      input,
      rateLimit,
      readWithCaller,
      // registerCallables passes what `input` parsed and the caller `access` requires (`authorise`).
      run: (data, ctx) => handler(data as output<Input>, ctx as CallableRequestContext & { caller: CallerFor<A> }),
    };
  };
}

/** Declares a server function of the shared contract, with its input schema (zod or zod/mini) and caller. */
export const defineCallable = callableDefiner<CallableFunctions>();

/**
 * The caller a function's access level requires, or the protocol error that refuses the call; with the
 * row of the function's `readWithCaller` when the session's statement read it.
 */
async function authorise(
  app: AppContext,
  request: FastifyRequest,
  definition: RegisteredCallable,
): Promise<{ caller: AffiliateCaller | SignedInUser | null; callerRead?: Record<string, unknown> | undefined }> {
  const { access } = definition;
  if (access === 'public') return { caller: null };
  const caller = await resolveCaller(app, request, definition.readWithCaller?.(app));
  if (!caller) throw new CallableError('unauthenticated', 'You must be signed in.', { code: 'unauthenticated' });
  const { user } = caller;
  if (access === 'admin') {
    if (user.role !== 'admin')
      throw new CallableError('permission-denied', 'Operators only.', { code: 'permission-denied' });
    return { caller: user };
  }
  const affiliate = await caller.affiliate();
  if (!affiliate) throw new CallableError('not-found', 'Your affiliate profile was not found.', { code: 'not-found' });
  return { caller: affiliate, callerRead: caller.read };
}

/**
 * `/api`, `/api/…` and `/api?…`: answered in the protocol's shape, never with a page — however the
 * path is spelled (`/%61pi/…`): the router decodes it once, and so does this.
 */
export function isApiPath(url: string): boolean {
  const raw = url.split('?', 1)[0] ?? '';
  let pathname: string;
  try {
    pathname = decodeURIComponent(raw);
  } catch {
    pathname = raw;
  }
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * Server functions take JSON only, and from our own pages when a browser sends them (CSRF, ADR 003).
 * A hook of each function's route, not of the raw path: the router decodes percent-encoded characters
 * (`/api/%66n/…` reaches `/api/fn/…`), so only the route matched says what a request calls
 * (docs/decisions/016-security-hardening.md, "Checks on the matched route").
 */
function refuseForeignCalls(app: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== app.config.publicOrigin) {
      return sendCallableError(reply, 'permission-denied', 'Cross-origin calls are not allowed.');
    }
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return sendCallableError(reply, 'invalid-argument', 'Content-Type must be application/json.');
    }
  };
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
 * A function's budget when it names none: a defence against one client's flood, counted periodically
 * across processes (lib/shared-rate-limit.ts).
 */
const DEFAULT_BUDGET = { max: 300, timeWindow: '1 minute', ...PERIODIC_COUNTING };

/**
 * Registers `POST /api/fn/<name>` for each definition: JSON `{ data }` in, `{ result }` out,
 * input validated by the function's zod schema, errors in the callable protocol's shape.
 */
export function registerCallables(app: FastifyInstance, ctx: AppContext, definitions: readonly RegisteredCallable[]) {
  const refuseForeign = refuseForeignCalls(ctx);
  for (const definition of definitions) {
    const limit = definition.rateLimit ? definition.rateLimit(ctx) : undefined;
    app.post(
      `${CALLABLE_PATH_PREFIX}${definition.name}`,
      { onRequest: refuseForeign, config: { rateLimit: limit === false ? false : (limit ?? DEFAULT_BUDGET) } },
      async (request, reply) => {
        const { caller, callerRead } = await authorise(ctx, request, definition);
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
          // A form's schema (`formSchema`) answers field errors too: the form shows them as its own.
          const namespace = formNamespaceOf(definition.input);
          throw new CallableError('invalid-argument', 'Invalid information provided.', {
            code: 'invalid-argument',
            issues: parsed.error.issues.map((issue) => ({
              path: issue.path.map(String).join('.'),
              message: issue.message,
            })),
            ...(namespace ? { fields: fieldErrorsFromIssues(parsed.error.issues, namespace) } : {}),
          });
        }
        const result = await definition.run(parsed.data, { app: ctx, request, reply, caller, callerRead });
        return { result: result ?? null };
      },
    );
  }
}
