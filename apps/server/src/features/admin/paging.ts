import { ADMIN_PAGE_SIZE } from '@skanova/shared/admin/schemas';
import type { AdminPage } from '@skanova/shared/admin/responses';
import type { SqlClient } from '../../db/client.ts';

// What the console's lists share: a page of rows with the count of every match, times as ISO
// instants, and user text used safely inside LIKE patterns.

export interface Paging {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
}

export function paging(input: { page?: number | undefined; pageSize?: number | undefined }): Paging {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? ADMIN_PAGE_SIZE;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

/**
 * Runs a list query and its count with the same WHERE clause. `select` takes `$n` placeholders for
 * the filters, then the limit and offset as the two parameters after them.
 */
export async function pageOf<Row, T>(
  sql: Pick<SqlClient, 'query'>,
  query: { select: string; count: string; params: unknown[] },
  at: Paging,
  map: (row: Row) => T,
): Promise<AdminPage<T>> {
  const [{ rows }, counted] = await Promise.all([
    sql.query<Row>(query.select, [...query.params, at.limit, at.offset]),
    sql.query<{ total: number }>(query.count, query.params),
  ]);
  return { items: rows.map(map), total: counted.rows[0]?.total ?? 0, page: at.page, pageSize: at.pageSize };
}

/** `text` as a LIKE pattern that matches it literally (its %, _ and \ escaped). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A timestamp column as an ISO instant (both drivers give a Date; text is accepted too). */
export function isoTime(value: Date | string): string;
export function isoTime(value: Date | string | null): string | null;
export function isoTime(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** Builds a WHERE clause from conditions whose parameters are numbered as they are added. */
export class Conditions {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  /** Adds `clause`, where every `$?` stands for `value` (a condition without a value has none). */
  add(clause: string, ...value: [] | [unknown]): this {
    if (value.length === 0) {
      this.clauses.push(clause);
      return this;
    }
    this.params.push(value[0]);
    this.clauses.push(clause.replaceAll('$?', `$${this.params.length}`));
    return this;
  }

  /** The next placeholder number after the filters (the limit). */
  get next(): number {
    return this.params.length + 1;
  }

  toString(): string {
    return this.clauses.length === 0 ? 'TRUE' : this.clauses.join(' AND ');
  }
}
