// One keyset page of a list (D7): newest first, the rows after the cursor, `limit + 1` so the caller can tell whether more exist.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Page } from '../shared/pagination.js';

/** Applied with `.$call(keysetPage(page))`; `column` is the id the cursor names (UUIDv7: newest first is id descending). */
export function keysetPage(page: Page, column = 'id') {
  return <DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> =>
    qb
      .$if(page.startingAfter !== undefined, (q) => q.where(sql.ref(column), '<', page.startingAfter!))
      .orderBy(sql.ref(column), 'desc')
      .limit(page.limit + 1);
}
