// SQL for table orders.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { OrdersTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import { inReach } from '../../db/reach.js';
import type { Place, Reach } from '../accounts/schemas.js';

export type OrderRow = Selectable<OrdersTable>;

export async function insertOrder(db: Db, row: Insertable<OrdersTable>): Promise<OrderRow> {
  return db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findOrder(db: Db, reach: Reach, id: string, forUpdate = false): Promise<OrderRow | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where(inReach(reach))
    .where('id', '=', id)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function listOrders(db: Db, reach: Reach, page: Page, filter: { status?: string; createdAfter?: string }): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where(inReach(reach))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
    .$if(filter.createdAfter !== undefined, (q) => q.where('created_at', '>', new Date(filter.createdAfter!)))
    .$call(keysetPage(page))
    .execute();
}

export async function setStatus(db: Db, place: Place, id: string, status: string, reason: string | null): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ status, status_reason: reason, updated_at: new Date() })
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
