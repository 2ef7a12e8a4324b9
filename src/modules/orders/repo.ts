// SQL for table orders.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { OrdersTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type OrderRow = Selectable<OrdersTable>;

export async function insertOrder(db: Db, row: Insertable<OrdersTable>): Promise<OrderRow> {
  return db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findOrder(db: Db, venueId: string, id: string, forUpdate = false): Promise<OrderRow | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function listOrders(db: Db, venueId: string, page: Page, filter: { status?: string; createdAfter?: string }): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('venue_id', '=', venueId)
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
    .$if(filter.createdAfter !== undefined, (q) => q.where('created_at', '>', new Date(filter.createdAfter!)))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export async function setStatus(db: Db, venueId: string, id: string, status: string, reason: string | null): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ status, status_reason: reason, updated_at: new Date() })
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
