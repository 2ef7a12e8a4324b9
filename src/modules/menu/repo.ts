// SQL for dishes and tables; the bulk sync is one upsert and one delete, whatever the number of dishes.
import { sql, type Insertable, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { DishesTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import type { Place } from '../accounts/schemas.js';

export type DishRow = Selectable<DishesTable>;

/** Applied with `.$call(atPlace(place))` to a select, update or delete: only the rows of the place's venue in its chain. */
function atPlace(place: Place) {
  return <QB extends { where(lhs: RawBuilder<unknown>, op: '=', rhs: string): QB }>(qb: QB): QB =>
    qb.where(sql.ref('chain_id'), '=', place.chainId).where(sql.ref('venue_id'), '=', place.venueId);
}

/**
 * Inserts new dishes and updates changed ones; a dish whose fields are all the same is left alone and not
 * returned. `inserted` tells a new row from an updated one.
 */
export async function upsertDishes(db: Db, rows: Insertable<DishesTable>[]): Promise<(DishRow & { inserted: boolean })[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('dishes')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['chain_id', 'venue_id', 'external_id'])
        .doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          description: eb.ref('excluded.description'),
          category: eb.ref('excluded.category'),
          price: eb.ref('excluded.price'),
          available: eb.ref('excluded.available'),
          updated_at: sql<Date>`now()`,
        }))
        .where(
          sql<boolean>`(dishes.name, dishes.description, dishes.category, dishes.price, dishes.available)
            is distinct from (excluded.name, excluded.description, excluded.category, excluded.price, excluded.available)`,
        ),
    )
    .returningAll()
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .execute();
}

export async function deleteDishesExcept(db: Db, place: Place, keep: string[]): Promise<number> {
  const result = await db
    .deleteFrom('dishes')
    .$call(atPlace(place))
    .$if(keep.length > 0, (q) => q.where('external_id', 'not in', keep))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findDish(db: Db, place: Place, externalId: string): Promise<DishRow | undefined> {
  return db
    .selectFrom('dishes')
    .selectAll()
    .$call(atPlace(place))
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function findDishes(db: Db, place: Place, externalIds: string[], lock: 'lock' | 'read' = 'read'): Promise<DishRow[]> {
  if (externalIds.length === 0) return [];
  return db
    .selectFrom('dishes')
    .selectAll()
    .$call(atPlace(place))
    .where('external_id', 'in', externalIds)
    .$if(lock === 'lock', (q) => q.orderBy('id').forUpdate())
    .execute();
}

export async function dishIdExists(db: Db, place: Place, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('dishes')
    .select('id')
    .$call(atPlace(place))
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listDishes(db: Db, place: Place, page: Page, filter: { available?: boolean; category?: string }): Promise<DishRow[]> {
  return db
    .selectFrom('dishes')
    .selectAll()
    .$call(atPlace(place))
    .$if(filter.available !== undefined, (q) => q.where('available', '=', filter.available!))
    .$if(filter.category !== undefined, (q) => q.where('category', '=', filter.category!))
    .$call(keysetPage(page))
    .execute();
}

/** Every dish on offer, for the guest menu: by category, then name. */
export async function availableDishes(db: Db, place: Place): Promise<DishRow[]> {
  return db
    .selectFrom('dishes')
    .selectAll()
    .$call(atPlace(place))
    .where('available', '=', true)
    .orderBy(sql`coalesce(category, '')`)
    .orderBy('name')
    .execute();
}

export async function updateDish(db: Db, place: Place, externalId: string, changes: Partial<Insertable<DishesTable>>): Promise<DishRow | undefined> {
  return db
    .updateTable('dishes')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .$call(atPlace(place))
    .where('external_id', '=', externalId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteDish(db: Db, place: Place, externalId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('dishes')
    .$call(atPlace(place))
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertTable(db: Db, row: { chain_id: string; venue_id: string; id: string; table_code: string; name: string }) {
  return db
    .insertInto('venue_tables')
    .values(row)
    .onConflict((oc) => oc.columns(['chain_id', 'venue_id', 'table_code']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findTable(db: Db, place: Place, tableCode: string) {
  return db
    .selectFrom('venue_tables')
    .selectAll()
    .$call(atPlace(place))
    .where('table_code', '=', tableCode)
    .executeTakeFirst();
}

export async function listTables(db: Db, place: Place) {
  return db
    .selectFrom('venue_tables')
    .selectAll()
    .$call(atPlace(place))
    .orderBy('name')
    .execute();
}
