// SQL for scans and for finding a visit by its external_id.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Read, WriteStep } from '../../db/statement.js';
import type { Page } from '../../shared/pagination.js';

/** Records a scan of the member the statement's `named_member` step found, if it found one. */
export function scanOfNamedStep(db: Db, row: { venue_id: string; id: string; key_id: string; created_at: Date }): WriteStep {
  return {
    name: 'recorded_scan',
    query: sql`insert into scans (venue_id, id, key_id, member_id, created_at)
      select ${row.venue_id}, ${row.id}, ${row.key_id}, n.id, ${row.created_at} from named_member n`,
  };
}

export function scannedSince(db: Db, venueId: string, keyId: string, memberId: string, since: Date): Read<boolean> {
  return {
    query: sql`exists (${db
      .selectFrom('scans')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('key_id', '=', keyId)
      .where('member_id', '=', memberId)
      .where('created_at', '>', since)})`,
    parse: (value) => value === true,
  };
}

/** The member's scans, newest first. */
export async function listScans(db: Db, venueId: string, memberId: string, page: Page) {
  return db
    .selectFrom('scans')
    .select(['id', 'key_id', 'created_at'])
    .where('venue_id', '=', venueId)
    .where('member_id', '=', memberId)
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export async function findVisitEntry(db: Db, venueId: string, externalId: string) {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('kind', '=', 'visit')
    .where('reference', '=', externalId)
    .executeTakeFirst();
}

/** Holds the visit's external id for the rest of the transaction, so a visit sent twice at once counts once. */
export async function lockVisitExternalId(trx: Db, venueId: string, externalId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${venueId}:visit:${externalId}`}, 0))`.execute(trx);
}
