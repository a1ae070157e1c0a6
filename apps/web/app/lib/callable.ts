import { CALLABLE_TIMEOUT_MS } from '@skanova/shared/site/timing';
import { type ErrorCode, codeForHttpStatus, fromWireStatus } from '@skanova/shared/callable/errors';
import { CALLABLE_PATH_PREFIX, type CallableFunctions, type CallableName } from '@skanova/shared/callable/functions';

// The browser side of the callable protocol (docs/product/calls-and-data.md#callable-protocol): POST JSON { data }, answer
// { result } (or { data }), errors { error: { status, message, details } } with the spec's statuses.

/** A failed call. `code` is a protocol code or a finer product code taken from `details.code`. */
export class CallableClientError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'CallableClientError';
  }
}

/** Messages the client itself produces (docs/product/messages.md#error-codes-and-http-statuses), as i18n keys of `common:callable`. */
export const INVALID_JSON_MESSAGE = 'Response is not valid JSON object.';
export const MISSING_DATA_MESSAGE = 'Response is missing data field.';

export interface CallOptions {
  /** Default 70 s (docs/product/calls-and-data.md#callable-protocol); a time-out is `deadline-exceeded`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
}

export async function callFunction<N extends CallableName>(
  name: N,
  data: CallableFunctions[N]['request'],
  options: CallOptions = {},
): Promise<CallableFunctions[N]['response']> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? CALLABLE_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  // The time-out covers the whole exchange, reading the body included.
  let response: Response;
  let body: unknown;
  try {
    response = await (options.fetchImpl ?? fetch)(`${CALLABLE_PATH_PREFIX}${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ data: data ?? null }),
      signal: controller.signal,
    });
    body = await response.json().catch(() => undefined);
    if (controller.signal.aborted) throw new Error('aborted');
  } catch {
    if (timedOut) throw new CallableClientError('deadline-exceeded', 'deadline-exceeded');
    if (options.signal?.aborted) throw new CallableClientError('cancelled', 'cancelled');
    throw new CallableClientError('internal', 'internal');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  const error = errorFromBody(response.status, body);
  if (error) throw error;
  if (typeof body !== 'object' || body === null) throw new CallableClientError('internal', INVALID_JSON_MESSAGE);
  const record = body as Record<string, unknown>;
  const result = 'result' in record ? record.result : record.data;
  if (result === undefined) throw new CallableClientError('internal', MISSING_DATA_MESSAGE);
  return result as CallableFunctions[N]['response'];
}

/** The error a response carries, if any (docs/product/messages.md#error-codes-and-http-statuses: code from the status's last path segment or details.code). */
function errorFromBody(httpStatus: number, body: unknown): CallableClientError | undefined {
  const fallbackCode = codeForHttpStatus(httpStatus);
  const ok = httpStatus >= 200 && httpStatus < 300;
  const errorField = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (errorField === undefined || errorField === null) {
    if (ok) return undefined;
    // An error status without an error body (e.g. a proxy's HTML page): the status decides.
    return new CallableClientError(fallbackCode, fallbackCode);
  }
  if (typeof errorField !== 'object') return new CallableClientError(fallbackCode, String(errorField));
  const { status, message, details } = errorField as { status?: unknown; message?: unknown; details?: unknown };
  const detailCode =
    typeof details === 'object' && details !== null && typeof (details as { code?: unknown }).code === 'string'
      ? (details as { code: string }).code
      : undefined;
  const code = fromWireStatus(status) ?? (ok ? 'internal' : fallbackCode);
  const finer = detailCode && detailCode !== code ? detailCode : undefined;
  // Without a server message the message is the code itself, so callableErrorMessage skips it.
  return new CallableClientError(finer ?? code, typeof message === 'string' ? message : (finer ?? code), details);
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The visitor-facing message of a failed call (docs/product/messages.md): the translation of its code when there is
 * one, else the server's message, else a plain-string detail, else the generic message.
 * `t` must be bound to the `common` namespace; `exists` tells whether a key has a translation.
 */
export function callableErrorMessage(error: unknown, t: Translate, exists: (key: string) => boolean): string {
  if (error instanceof CallableClientError) {
    if (error.message === INVALID_JSON_MESSAGE) return t('callable.invalidJson');
    if (error.message === MISSING_DATA_MESSAGE) return t('callable.missingData');
    const key = `callable.${error.code}`;
    if (exists(key)) return t(key);
    if (error.message && error.message !== error.code) return error.message;
    if (typeof error.details === 'string' && error.details) return error.details;
  }
  return t('callable.generic');
}
