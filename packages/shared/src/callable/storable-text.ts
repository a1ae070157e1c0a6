import * as z from 'zod/mini';

// The one rule every text passes before it reaches the database (ADR 003, "Storable text").
//
// PostgreSQL cannot store two things a JavaScript string can hold:
// - the NUL character (U+0000): `text` refuses it ("invalid byte sequence for encoding UTF8: 0x00"),
//   and so does `jsonb` (`\u0000` "cannot be converted to text");
// - a lone UTF-16 surrogate (a high one, U+D800–U+DBFF, without the low one after it, or a low one,
//   U+DC00–U+DFFF, without a high one before it): it is not a character at all. `jsonb` refuses
//   its `\ud800` escape (SQLSTATE 22P02), and the driver silently turns it into U+FFFD in `text`,
//   so what is stored is not what was sent.
// Either would fail an insert (an answer 500 for a client's mistake) or corrupt a value, so the
// input is refused instead, with the protocol's `invalid-argument`. The check is a loop over UTF-16
// code units rather than a regular expression: linear on a 60 KB string, and no control character
// in a pattern.
//
// Where it applies: every callable's data, keys included, whatever its schema says (the callable
// layer checks the whole value with `isStorableJson` before the schema runs); the shared schemas
// of each text field (so the browser's checks and the server's agree); the RevenueCat webhook's
// payload (stored whole as jsonb); web vitals; the sign-in, reset and password bodies.

/** Objects and arrays nested below this depth (the top value is at 0) are refused: no input of ours comes near. */
export const STORABLE_JSON_MAX_DEPTH = 32;

/** Message of the zod check when the schema gives no translation key: a code, as the protocol's details carry. */
export const UNSTORABLE_TEXT_MESSAGE = 'unstorable-text';

/** Whether PostgreSQL can store `value` as it is: no NUL character and no lone surrogate. */
export function isStorableText(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const unit = value.charCodeAt(index);
    if (unit === 0) return false;
    if (unit < 0xd800 || unit > 0xdfff) continue;
    // A surrogate: only a high one followed by a low one makes a character.
    if (unit > 0xdbff) return false;
    const next = value.charCodeAt(index + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    index += 1;
  }
  return true;
}

/**
 * Whether a JSON value (as parsed from a request) can be stored: every string and every object key
 * passes `isStorableText`, and no object or array lies deeper than `maxDepth`.
 */
export function isStorableJson(value: unknown, maxDepth: number = STORABLE_JSON_MAX_DEPTH): boolean {
  return storable(value, maxDepth, 0);
}

function storable(value: unknown, maxDepth: number, depth: number): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (typeof value !== 'object' || value === null) return true;
  if (depth > maxDepth) return false;
  if (Array.isArray(value)) return value.every((item) => storable(item, maxDepth, depth + 1));
  return Object.entries(value).every(([key, item]) => isStorableText(key) && storable(item, maxDepth, depth + 1));
}

/**
 * The zod check of the rule, for `zod` and `zod/mini` schemas alike:
 * `z.string().check(storableText())`, or with the form's translation key as message. For the keys
 * of a free-form record, give the record a key schema with this check.
 */
export function storableText(message: string = UNSTORABLE_TEXT_MESSAGE) {
  return z.refine<string>(isStorableText, message);
}
