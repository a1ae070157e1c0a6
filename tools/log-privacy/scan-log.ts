import { isIP } from 'node:net';

// Scans a server log (pino JSON lines) for personal data: any e-mail address, IPv4 or IPv6 address
// or IBAN, and the names, companies and phone numbers a test run typed. The end-to-end run's
// teardown (e2e/server-log-check.ts) applies it to the test servers' logs; its own detectors are
// written apart from the server's masks (apps/server/src/lib/logging.ts) so that the check does not
// share the blind spots of what it checks.

export type FindingKind = 'e-mail address' | 'IPv4 address' | 'IPv6 address' | 'IBAN' | 'personal value';

export interface Finding {
  /** 1-based line number in the log. */
  line: number;
  kind: FindingKind;
  value: string;
}

export interface LogScan {
  /** Lines in the log. */
  lines: number;
  /** "incoming request" lines carrying a request id: the proof that requests were logged at all. */
  requestLines: number;
  /** "incoming request" or "request completed" lines without a request id. */
  requestLinesWithoutId: number;
  findings: Finding[];
}

/** Names, companies and other values a person typed, searched as whole words (case-sensitive). */
export interface ScanOptions {
  personalValues?: readonly string[];
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(\p{L}{2,})(?![\p{L}\p{N}-])/gu;
/** What follows the "@" of a retina asset's name ("banner@2x.png"): file types, not top-level domains. */
const FILE_TYPES = new Set(['png', 'svg', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'ico', 'js', 'css', 'map', 'pdf']);
const IPV4 = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\.?\d)/g;
const IPV6_CANDIDATE = /(?<![\w:.])[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*/g;
const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;

/** IBAN lengths by country (SEPA and a few more): a candidate of another length is not an IBAN. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27, GB: 22,
  GI: 23, GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18,
  NO: 15, PL: 28, PT: 25, RO: 24, SE: 24, SI: 19, SK: 24, SM: 27, VA: 22,
}; // prettier-ignore

/** Whether `value` is an IBAN: its country's length and the ISO 13616 check (mod 97 = 1). */
export function isIban(value: string): boolean {
  const iban = value.replaceAll(' ', '');
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** Fastify's start-up line names the server's own listening address, not a person's. */
function isListeningLine(parsed: unknown): boolean {
  const msg = (parsed as { msg?: unknown } | null)?.msg;
  return typeof msg === 'string' && msg.startsWith('Server listening at ');
}

export function scanLog(text: string, options: ScanOptions = {}): LogScan {
  const personal = (options.personalValues ?? [])
    .filter((value) => value.trim().length >= 3)
    .map((value) => ({ value, pattern: wholeWord(value) }));
  const rows = text.split('\n');
  if (rows.at(-1) === '') rows.pop();
  const scan: LogScan = { lines: rows.length, requestLines: 0, requestLinesWithoutId: 0, findings: [] };
  rows.forEach((row, index) => {
    const line = index + 1;
    const add = (kind: FindingKind, value: string) => scan.findings.push({ line, kind, value });
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(row);
    } catch {
      // Not a pino line (a stack printed by Node, a library's own output): scanned all the same.
    }
    const { msg, reqId } = (parsed ?? {}) as { msg?: unknown; reqId?: unknown };
    if (msg === 'incoming request' || msg === 'request completed') {
      if (typeof reqId === 'string' && reqId !== '') {
        if (msg === 'incoming request') scan.requestLines += 1;
      } else {
        scan.requestLinesWithoutId += 1;
      }
    }
    for (const match of row.matchAll(EMAIL)) {
      if (!FILE_TYPES.has(match[1]!.toLowerCase())) add('e-mail address', match[0]);
    }
    if (!isListeningLine(parsed)) {
      for (const match of row.matchAll(IPV4)) if (isIP(match[0]) === 4) add('IPv4 address', match[0]);
      for (const match of row.matchAll(IPV6_CANDIDATE)) if (isPersonIpv6(match[0])) add('IPv6 address', match[0]);
    }
    for (const match of row.matchAll(IBAN_CANDIDATE)) if (isIban(match[0])) add('IBAN', match[0]);
    for (const { value, pattern } of personal) if (pattern.test(row)) add('personal value', value);
  });
  return scan;
}

/**
 * An IPv6 address as a client's would be written: several groups, or an IPv4 one inside
 * ("::ffff:127.0.0.1"), or the loopback "::1". Shorter forms ("1::", "::") are SQL casts.
 */
function isPersonIpv6(candidate: string): boolean {
  const address = candidate.replace(/^\.+|\.+$/g, '');
  if (isIP(address) !== 6) return false;
  const groups = address.split(':').filter((group) => group !== '');
  return address === '::1' || groups.length >= 3 || isIP(groups.at(-1) ?? '') === 4;
}

function wholeWord(value: string): RegExp {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u');
}

/**
 * The names, companies, account holders and phone numbers written in test sources: the value of a
 * `firstName`, `lastName`, `companyName`, `accountHolder` or `phone` field (`firstName: 'Ada'`,
 * `form.lastName.fill('Martin')`, the literal start of a template: `Opal${lang}`), and a `name:`
 * that is a person's name (capitalised words: `name: 'Jeanne Dupont'`). Each value, and each word
 * of a name, is a personal value.
 */
export function personalValuesInSources(sources: readonly string[]): string[] {
  const fields = 'firstName|lastName|companyName|accountHolder|phone';
  const value = `(['"\`])([^'"\`$\n]{2,})(?:\\1|\\$\\{)`;
  const property = new RegExp(`\\b(?:${fields})\\s*:\\s*${value}`, 'g');
  const filled = new RegExp(`\\b(?:${fields})\\b[^'"\`\\n]{0,40}?\\.fill\\(${value}`, 'g');
  const personName = /\bname:\s*(['"])(\p{Lu}[\p{Ll}'-]+(?: \p{Lu}[\p{Ll}'-]+)+)\1/gu;
  const values = new Set<string>();
  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed.length < 3) return;
    values.add(trimmed);
    if (/\p{L}/u.test(trimmed)) for (const word of trimmed.split(/\s+/)) if (word.length >= 3) values.add(word);
  };
  for (const source of sources) {
    for (const match of [...source.matchAll(property), ...source.matchAll(filled)]) add(match[2]!);
    for (const match of source.matchAll(personName)) add(match[2]!);
  }
  return [...values].sort();
}
