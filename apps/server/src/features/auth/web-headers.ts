import type { FastifyRequest } from 'fastify';

// The auth library speaks Web requests: the sign-in routes, the session lookup and the functions
// that sign in or out hand it the request's headers this way.

/** Headers a Fastify request carries, as Web headers, with the client IP the server trusts. */
export function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'x-forwarded-for') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set('x-forwarded-for', request.ip);
  return headers;
}
