// SQL for scans and for finding a visit by its external_id.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { Read, ValueOrRef, WriteStep } from '../../db/statement.js';
import type { Page } from '../../shared/pagination.js';
import { inReach } from '../../db/reach.js';
import type { Place, Reach } from '../accounts/schemas.js';

/** Records a scan of the member the statement's `named_member` step found, if it found one. */
export function scanOfNamedStep(db: Db, row: { chain_id: string; venue_id: string; id: string; key_id: string; created_at: Date }): WriteStep {
  return {
    name: 'recorded_scan',
    query: sql`insert into scans (chain_id, venue_id, id, key_id, member_id, created_at)
      select ${row.chain_id}, ${row.venue_id}, ${row.id}, ${row.key_id}, n.id, ${row.created_at} from named_member n`,
  };
}

export function scannedSince(db: Db, place: Place, keyId: string, memberId: ValueOrRef<string>, since: Date): Read<boolean> {
  return {
    query: sql`exists (${db
      .selectFrom('scans')
      .select('id')
      .where('chain_id', '=', place.chainId)
      .where('venue_id', '=', place.venueId)
      .where('key_id', '=', keyId)
      .where('member_id', '=', memberId)
      .where('created_at', '>', since)})`,
    parse: (value) => value === true,
  };
}

/** The member's scans, newest first. */
export async function listScans(db: Db, reach: Reach, memberId: string, page: Page) {
  return db
    .selectFrom('scans')
    .select(['id', 'venue_id', 'key_id', 'created_at'])
    .where(inReach(reach))
    .where('member_id', '=', memberId)
    .$call(keysetPage(page))
    .execute();
}

/** A visit's external_id is the venue's own number: ledger entries are the chain's, so both filter it. */
export async function findVisitEntry(db: Db, place: Place, externalId: string) {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('kind', '=', sql.lit('visit')) // in the text: the index of visits by number serves only 'visit' named in it
    .where('reference', '=', externalId)
    .executeTakeFirst();
}

/** Holds the visit's external id for the rest of the transaction, so a visit sent twice at once counts once. */
export async function lockVisitExternalId(trx: Db, venueId: string, externalId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${venueId}:visit:${externalId}`}, 0))`.execute(trx);
}
