// Reading what raw statements answer. Typed queries map their columns themselves; a raw statement's
// row type is declared next to it, and the few values the drivers may hand over in two shapes are
// read here, once.

/**
 * A `json`/`jsonb` value of a raw statement's row: node-postgres and PGlite parse it, but a driver
 * that does not would hand over the text.
 */
export function jsonValue<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** A `bigint` sum of cents: node-postgres answers it as text, PGlite as a number or a bigint. */
export type SqlBigint = string | number | bigint;

/** Cents from a `bigint` column or sum (null is 0); throws beyond what a JavaScript number holds exactly. */
export function centsValue(value: SqlBigint | null | undefined): number {
  const cents = Number(value ?? 0);
  if (!Number.isSafeInteger(cents)) throw new Error(`amount out of range: ${String(value)}`);
  return cents;
}
