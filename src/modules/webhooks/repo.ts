// SQL for webhook endpoints.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export async function insertEndpoint(db: Db, row: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findEndpoint(db: Db, venueId: string, id: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
}

/** Newest first, `limit + 1` rows so the caller can tell whether more exist. */
export async function listEndpoints(db: Db, venueId: string, page: Page, livemode?: boolean): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('venue_id', '=', venueId)
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .$if(livemode !== undefined, (q) => q.where('livemode', '=', livemode!))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export async function updateEndpoint(
  db: Db,
  venueId: string,
  id: string,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<EndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set(changes)
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEndpoint(db: Db, venueId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
