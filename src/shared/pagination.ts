// Cursor pagination of D7: limit 1..100, starting_after=<id>, newest first, `list` envelope.
import { Type, type TSchema } from 'typebox';

export const PAGE_LIMIT_DEFAULT = 20;

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PAGE_LIMIT_DEFAULT })),
  starting_after: Type.Optional(Type.String({ description: 'Id of the last object of the previous page.' })),
};

export interface Page {
  limit: number;
  startingAfter?: string;
}

export function pageFromQuery(query: { limit?: number; starting_after?: string }): Page {
  return { limit: query.limit ?? PAGE_LIMIT_DEFAULT, startingAfter: query.starting_after };
}

export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({
    object: Type.Literal('list'),
    url: Type.String(),
    has_more: Type.Boolean(),
    data: Type.Array(item),
  });

export interface List<T> {
  object: 'list';
  url: string;
  has_more: boolean;
  data: T[];
}

/** Builds the list from a query that fetched `limit + 1` rows, newest first. */
export function toList<R, T>(url: string, page: Page, rows: R[], present: (row: R) => T): List<T> {
  return {
    object: 'list',
    url,
    has_more: rows.length > page.limit,
    data: rows.slice(0, page.limit).map(present),
  };
}

