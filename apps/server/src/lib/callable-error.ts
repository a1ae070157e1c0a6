import type { ErrorCode } from '@skanova/shared/callable/errors';

// The one error type of server functions (house style): features throw it, and the HTTP layer
// (http/callable.ts `sendCallableError`) turns it into the callable protocol's answer and status.
// It lives outside the HTTP layer so that features never import it.

/** A protocol error code, an optional message, and details the client reads (`details.code`). */
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
