// Cursor pagination of D7: limit 1..100, starting_after=<id>, newest first, `list` envelope.
import { Type, type TSchema } from 'typebox';
import { ApiError } from './errors.js';
import { isUuid } from './ids.js';

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

/** A page of items; titled after its item (MemberList), so the document names it too. */
export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      object: Type.Literal('list'),
      url: Type.String(),
      has_more: Type.Boolean(),
      data: Type.Array(item),
    },
    typeof (item as { title?: unknown }).title === 'string' ? { title: `${(item as { title?: string }).title}List` } : {},
  );

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


/** Refuses a starting_after that is not an id from this list (D7); `exists` looks it up within the list's scope. */
export async function checkCursor(page: Page, exists: (id: string) => Promise<unknown>): Promise<void> {
  if (page.startingAfter === undefined) return;
  if (isUuid(page.startingAfter) && (await exists(page.startingAfter))) return;
  throw new ApiError('parameter_invalid', { param: 'starting_after', message: 'starting_after is not an id from this list.' });
}
