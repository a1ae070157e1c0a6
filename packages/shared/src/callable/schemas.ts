import * as z from 'zod/mini';

// Inputs shared by functions of several domains.

/**
 * Functions that take no payload (docs/product/calls-and-data.md#server-functions: "POST, no payload"; `request: null` in the contract). The
 * web client sends `{ data: null }`; `{}` is accepted too. Anything else is a client mistake and is
 * answered `invalid-argument`, so a malformed body never reaches a handler.
 */
export const noInputSchema = z.optional(z.nullable(z.strictObject({})));
