// The callable protocol's error codes and their HTTP statuses (docs/product/messages.md#error-codes-and-http-statuses, docs/product/calls-and-data.md#callable-protocol).

export const ERROR_STATUS = {
  'invalid-argument': 400,
  'failed-precondition': 400,
  'out-of-range': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'already-exists': 409,
  aborted: 409,
  'resource-exhausted': 429,
  cancelled: 499,
  unknown: 500,
  internal: 500,
  'data-loss': 500,
  unimplemented: 501,
  unavailable: 503,
  'deadline-exceeded': 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/** `invalid-argument` → `INVALID_ARGUMENT`, the wire form of `error.status`. */
export function toWireStatus(code: ErrorCode): string {
  return code.toUpperCase().replaceAll('-', '_');
}

/** `INVALID_ARGUMENT` or `functions/invalid-argument` → `invalid-argument`, if it is a code. */
export function fromWireStatus(value: unknown): ErrorCode | undefined {
  if (typeof value !== 'string') return undefined;
  const last = value.split('/').pop() ?? '';
  const code = last.toLowerCase().replaceAll('_', '-');
  return isErrorCode(code) ? code : undefined;
}

/** Maps an HTTP status to the code the spec's client falls back to (docs/product/messages.md#error-codes-and-http-statuses). */
export function codeForHttpStatus(status: number): ErrorCode {
  switch (status) {
    case 200:
      return 'internal'; // an error body with 200 is itself a protocol error
    case 400:
      return 'invalid-argument';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'permission-denied';
    case 404:
      return 'not-found';
    case 409:
      return 'aborted';
    case 429:
      return 'resource-exhausted';
    case 499:
      return 'cancelled';
    case 501:
      return 'unimplemented';
    case 503:
      return 'unavailable';
    case 504:
      return 'deadline-exceeded';
    default:
      return 'internal';
  }
}

/** The body of a failed call. `details.code` may carry a finer, product-specific code. */
export interface CallableErrorBody {
  error: {
    status: string;
    message: string;
    details?: unknown;
  };
}
