import { AsyncLocalStorage } from 'node:async_hooks';
import { isIP } from 'node:net';
import type { FastifyBaseLogger, FastifyServerOptions, LogLevel } from 'fastify';

// The server's log: pino JSON lines on stdout, one per event, each request's lines carrying its
// request id (`reqId`), and no personal data — no e-mail address, IP address, name or IBAN.
//
// - Our own log calls name what happened with ids and counts (an affiliate id, a ticket id, a job's
//   counts), never a person's details.
// - A request is logged by its method and path: not the client's address (Fastify's default logs
//   it), not its headers, and of its query string only the parameter names (a reset token, a
//   referral code or an address may ride in a value).
// - Errors carry text we do not control (a database error quoting the value it refused, a query
//   error listing its parameters, an SMTP answer naming its recipient): the error serializer drops
//   the fields that hold values and masks addresses and IBANs in what remains.
// - Code that logs through the app's services (`AppServices.log`) while it serves a request logs
//   through that request's logger, so its lines carry the request id too.

/** Replaces what a log line must not carry. */
const MASK = '[redacted]';

/** An e-mail address (simplified RFC 5322: what people and our forms use). */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
/** Something shaped like an IBAN: a country code, two check digits, 11–30 letters or digits (grouped by 4 or not). */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
/** Runs of characters an IP address is written with; `isIP` decides which are addresses. */
const IP_CANDIDATE = /[0-9A-Fa-f:.]*[:.][0-9A-Fa-f:.]*/g;

/** The text with e-mail addresses, IP addresses (v4 and v6) and IBAN-shaped values masked. */
export function redactPersonalData(text: string): string {
  return text
    .replace(EMAIL, MASK)
    .replace(IBAN, MASK)
    .replace(IP_CANDIDATE, (candidate) => (looksLikeIp(candidate) ? MASK : candidate));
}

function looksLikeIp(candidate: string): boolean {
  // Trim what the loose pattern takes from the text around an address: a sentence's full stop; and
  // an IPv4 address's port ("10.0.0.1:443").
  const trimmed = candidate.replace(/^[.]+|[.]+$/g, '');
  const address = trimmed.replace(/^([\d.]+):\d{1,5}$/, '$1');
  const version = isIP(address);
  if (version === 4) return true;
  if (version !== 6) return false;
  // "1::" and "::" are IPv6 addresses too, and SQL casts ("$1::uuid"): a person's address has
  // several groups, or ends with an IPv4 one ("::ffff:10.1.2.3").
  const groups = address.split(':').filter((group) => group !== '');
  return groups.length >= 3 || isIP(groups.at(-1) ?? '') === 4;
}

/** A URL as logged: its path (masked) and the names of its query parameters, never their values. */
export function loggableUrl(url: string): string {
  const [pathname = '', query] = url.split(/\?(.*)/s, 2);
  const keys =
    query === undefined
      ? []
      : query
          .split('&')
          .filter((pair) => pair !== '')
          .map((pair) => safeDecode(pair.split('=', 1)[0] ?? ''));
  const logged = redactPersonalData(safeDecode(pathname)).slice(0, 300);
  return keys.length > 0 ? `${logged}?${redactPersonalData(keys.join('&')).slice(0, 200)}` : logged;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Error fields that hold the values a statement or a client sent (database drivers, query builders). */
const VALUE_FIELDS = new Set(['detail', 'params', 'parameters', 'values', 'body', 'payload', 'input']);

/** How deep the error serializer follows nested objects (causes are folded into the message by pino). */
const MAX_DEPTH = 4;

type SerializedError = Record<string, unknown>;

function isErrorLike(value: unknown): value is Error {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

/**
 * An error as a log line holds it, as pino's standard serializer writes it (type, message and stack
 * with their causes, the error's own fields), then: the fields holding values dropped, the parameter
 * list a query error appends to its message cut, the data-exception messages of PostgreSQL (class
 * 22: `invalid input syntax for type uuid: "…"`) stripped of the value they quote, addresses and
 * IBANs masked in every remaining text.
 */
export function serializeError(error: unknown): unknown {
  if (!isErrorLike(error)) return typeof error === 'string' ? redactPersonalData(error) : error;
  return serializeErrorAt(error, 0, new Set());
}

function serializeErrorAt(error: Error, depth: number, seen: Set<unknown>): SerializedError {
  seen.add(error);
  const causes: Error[] = [];
  for (let cause = causeOf(error); cause && !seen.has(cause) && causes.length < MAX_DEPTH; cause = causeOf(cause)) {
    seen.add(cause);
    causes.push(cause);
  }
  const chain = [error, ...causes];
  const serialized: SerializedError = {
    type: error.constructor?.name ?? error.name,
    message: chain.map((each) => scrubErrorText(each, each.message)).join(': '),
    stack: chain.map((each) => scrubErrorText(each, each.stack ?? '')).join('\ncaused by: '),
  };
  for (const key in error) {
    if (key === 'cause' || key in serialized || VALUE_FIELDS.has(key)) continue;
    const value = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'function') continue;
    serialized[key] = isErrorLike(value)
      ? seen.has(value) || depth >= MAX_DEPTH
        ? '[circular]'
        : serializeErrorAt(value, depth + 1, seen)
      : scrubValue(value, depth + 1);
  }
  return serialized;
}

function causeOf(error: Error): Error | undefined {
  const cause = (error as { cause?: unknown }).cause;
  return isErrorLike(cause) ? cause : undefined;
}

/** The message or stack of `error` (one of a chain), scrubbed. */
function scrubErrorText(error: Error, text: string): string {
  // Drizzle's DrizzleQueryError: "Failed query: <sql>\nparams: <every parameter>".
  let result = text.replace(/^params: .*$/gm, `params: ${MASK}`);
  // PostgreSQL's data exceptions (SQLSTATE class 22) quote the value they refused.
  const sqlState = (error as { code?: unknown }).code;
  if (typeof sqlState === 'string' && /^22[0-9A-Z]{3}$/.test(sqlState))
    result = result.replace(/: "(?:[^"\\]|\\.)*"/g, `: "${MASK}"`);
  return redactPersonalData(result);
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactPersonalData(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 20).map((item) => scrubValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, nested] of Object.entries(value)) {
    if (!VALUE_FIELDS.has(key)) out[key] = scrubValue(nested, depth + 1);
  }
  return out;
}

interface LoggedRequest {
  method: string;
  url: string;
}

/** A request as its "incoming request" line shows it: no address, no headers, no query values. */
export function serializeRequest(request: { method: string; url: string }): LoggedRequest {
  return { method: request.method, url: loggableUrl(request.url) };
}

const SEVERITY: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * The level of a route whose requests are not worth a log line (probes, scrapes): `warn`, or the
 * app's own level when that is quieter — a route's level replaces the app's, it must never add lines.
 */
export function quietRouteLevel(appLevel: LogLevel): LogLevel {
  return SEVERITY.indexOf(appLevel) > SEVERITY.indexOf('warn') ? appLevel : 'warn';
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * The server's logger options: the level, the serializers above, and what a caller adds (a test's
 * stream, a level); `false` turns logging off.
 */
export function loggerOptions(
  level: string,
  overrides?: FastifyServerOptions['logger'],
): FastifyServerOptions['logger'] {
  if (overrides === false) return false;
  const extra: LoggerOptions = typeof overrides === 'object' ? overrides : {};
  return {
    level,
    ...extra,
    serializers: {
      req: serializeRequest as never,
      err: serializeError as never,
      ...extra.serializers,
    },
  };
}

// The request a piece of code runs for, carried across its awaits: AppServices.log resolves to that
// request's logger (child of the app's, bound to the request id).

const currentRequestLog = new AsyncLocalStorage<FastifyBaseLogger>();

/** Runs `next` (the rest of the request's handling) with `log` as the current request's logger. */
export function runWithRequestLog(log: FastifyBaseLogger, next: () => void): void {
  currentRequestLog.run(log, next);
}

/**
 * A logger that writes through the current request's logger while a request is served (its lines
 * carry the request id), through `root` otherwise (jobs, start-up).
 */
export function requestAwareLogger(root: FastifyBaseLogger): FastifyBaseLogger {
  return new Proxy(root, {
    get(target, property) {
      const current = currentRequestLog.getStore() ?? target;
      const value = Reflect.get(current, property, current) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
