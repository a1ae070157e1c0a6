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
