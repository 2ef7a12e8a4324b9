// SQL for webhook endpoints.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import { inReach } from '../../db/reach.js';
import type { Reach } from '../accounts/schemas.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export async function insertEndpoint(db: Db, row: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findEndpoint(db: Db, reach: Reach, id: string): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where(inReach(reach))
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Newest first, `limit + 1` rows so the caller can tell whether more exist. */
export async function listEndpoints(db: Db, reach: Reach, page: Page, livemode?: boolean): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where(inReach(reach))
    .$if(livemode !== undefined, (q) => q.where('livemode', '=', livemode!))
    .$call(keysetPage(page))
    .execute();
}

export async function updateEndpoint(
  db: Db,
  reach: Reach,
  id: string,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<EndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set(changes)
    .where(inReach(reach))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEndpoint(db: Db, reach: Reach, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where(inReach(reach))
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

type StoredSecret = Pick<EndpointRow, 'chain_id' | 'venue_id' | 'id' | 'secret' | 'secret_key_id'>;

/** One endpoint's secret for each key that sealed some (null: plaintext from before sealing). */
export async function secretOfEachKey(db: Db): Promise<StoredSecret[]> {
  return db
    .selectFrom('webhook_endpoints')
    .distinctOn('secret_key_id')
    .select(['chain_id', 'venue_id', 'id', 'secret', 'secret_key_id'])
    .orderBy('secret_key_id')
    .execute();
}

/** Up to `limit` endpoints whose secret the key `keyId` did not seal, locked (SKIP LOCKED: processes starting together share the work). */
/** Secrets stored in plaintext or sealed by one of `openable` other than `keyId`: those that can be sealed again. */
export async function secretsNotSealedBy(db: Db, keyId: string, openable: string[], limit: number): Promise<StoredSecret[]> {
  return db
    .selectFrom('webhook_endpoints')
    .select(['chain_id', 'venue_id', 'id', 'secret', 'secret_key_id'])
    .where((eb) => eb.or([eb('secret_key_id', 'is', null), eb.and([eb('secret_key_id', '!=', keyId), eb('secret_key_id', 'in', openable)])]))
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function storeSecret(db: Db, chainId: string, id: string, secret: string, keyId: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ secret, secret_key_id: keyId }).where('chain_id', '=', chainId).where('id', '=', id).execute();
}
