// SQL for members, their cards and their ledger.
import { sql, type ExpressionBuilder, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { DB, LedgerEntriesTable, MembersTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type MemberRow = Selectable<MembersTable>;
export type LedgerRow = Selectable<LedgerEntriesTable>;

/** A member with its cards and ledger totals: everything a member's view is computed from. */
export interface MemberRecord extends MemberRow {
  card_numbers: string[];
  cashback: number;
  spend: number;
  visits: number;
  stamps: number;
  /** Cashback in active holds that have not expired by `now`. */
  held: number;
}

export type MemberMatch =
  | { by: 'id'; id: string }
  | { by: 'ids'; ids: string[] }
  | { by: 'card'; cardNumber: string }
  | { by: 'code'; code: string }
  | { by: 'phone'; phone: string };

/** The condition on members `m` that a match stands for. */
function matching(eb: ExpressionBuilder<DB & { m: MembersTable }, 'm'>, match: MemberMatch) {
  switch (match.by) {
    case 'id':
      return eb('m.id', '=', match.id);
    case 'ids':
      return eb('m.id', 'in', match.ids);
    case 'phone':
      return eb('m.phone', '=', match.phone);
    case 'card':
    case 'code': {
      const code = match.by === 'card' ? match.cardNumber : match.code;
      const byCard = eb.exists(
        eb
          .selectFrom('member_cards as c')
          .select('c.card_number')
          .whereRef('c.venue_id', '=', 'm.venue_id')
          .whereRef('c.member_id', '=', 'm.id')
          .where('c.card_number', '=', code),
      );
      return match.by === 'card' ? byCard : eb.or([byCard, eb('m.serial', '=', code)]);
    }
  }
}

/** Finds the member a match names and locks their row for the rest of the transaction, in one statement. */
export async function lockMatchingMember(db: Db, venueId: string, match: MemberMatch): Promise<string | undefined> {
  const row = await db
    .selectFrom('members as m')
    .select('m.id')
    .where('m.venue_id', '=', venueId)
    .where((eb) => matching(eb, match))
    .orderBy('m.id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
  return row?.id;
}

/** Members with cards, ledger sums and what holds keep as of `now`, in one statement, newest first. */
export async function findMembers(db: Db, venueId: string, now: Date, match: MemberMatch, limit = 1): Promise<MemberRecord[]> {
  if (match.by === 'ids' && match.ids.length === 0) return [];
  const rows = await db
    .selectFrom('members as m')
    .leftJoin('ledger_entries as l', (j) => j.onRef('l.venue_id', '=', 'm.venue_id').onRef('l.member_id', '=', 'm.id'))
    .selectAll('m')
    .select((eb) => [
      sql<string[]>`coalesce((select array_agg(c.card_number order by c.created_at, c.card_number) from member_cards c
        where c.venue_id = m.venue_id and c.member_id = m.id), '{}')`.as('card_numbers'),
      eb.fn.coalesce(eb.fn.sum<number>('l.cashback'), sql<number>`0`).as('cashback'),
      eb.fn.coalesce(eb.fn.sum<number>('l.spend'), sql<number>`0`).as('spend'),
      eb.fn.coalesce(eb.fn.sum<number>('l.visits'), sql<number>`0`).as('visits'),
      eb.fn.coalesce(eb.fn.sum<number>('l.stamps'), sql<number>`0`).as('stamps'),
      sql<number>`coalesce((select sum(h.amount) from holds h where h.venue_id = m.venue_id and h.member_id = m.id
        and h.status = 'active' and h.expires_at > ${now}), 0)`.as('held'),
    ])
    .where('m.venue_id', '=', venueId)
    .where((eb) => matching(eb, match))
    .groupBy(['m.venue_id', 'm.id'])
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    cashback: Number(r.cashback),
    spend: Number(r.spend),
    visits: Number(r.visits),
    stamps: Number(r.stamps),
    held: Number(r.held),
  }));
}

/** Ids of a page of members, newest first, `limit + 1` to tell whether more exist. */
export async function listMemberIds(
  db: Db,
  venueId: string,
  page: Page,
  filter: { programId?: string; phone?: string; livemode?: boolean },
): Promise<string[]> {
  const rows = await db
    .selectFrom('members')
    .select('id')
    .where('venue_id', '=', venueId)
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .$if(filter.programId !== undefined, (q) => q.where('program_id', '=', filter.programId!))
    .$if(filter.phone !== undefined, (q) => q.where('phone', '=', filter.phone!))
    .$if(filter.livemode !== undefined, (q) => q.where('livemode', '=', filter.livemode!))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return rows.map((r) => r.id);
}

export async function memberExists(db: Db, venueId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('members').select('id').where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Locks the member's row for the rest of the transaction: changes to one member's balance go one at a time. */
export async function lockMember(db: Db, venueId: string, id: string): Promise<boolean> {
  const row = await db.selectFrom('members').select('id').where('venue_id', '=', venueId).where('id', '=', id).forUpdate().executeTakeFirst();
  return row !== undefined;
}

/** Inserts the member unless its serial is taken; undefined then, so the caller draws another. */
export async function insertMember(db: Db, row: Insertable<MembersTable>): Promise<MemberRow | undefined> {
  return db.insertInto('members').values(row).onConflict((oc) => oc.columns(['venue_id', 'serial']).doNothing()).returningAll().executeTakeFirst();
}

/** Attaches the card unless the venue already has it; false then. */
export async function insertCard(db: Db, venueId: string, memberId: string, cardNumber: string): Promise<boolean> {
  const row = await db
    .insertInto('member_cards')
    .values({ venue_id: venueId, member_id: memberId, card_number: cardNumber })
    .onConflict((oc) => oc.columns(['venue_id', 'card_number']).doNothing())
    .returning('card_number')
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateMember(db: Db, venueId: string, id: string, changes: Updateable<MembersTable>): Promise<void> {
  await db.updateTable('members').set(changes).where('venue_id', '=', venueId).where('id', '=', id).execute();
}

export async function insertLedgerEntries(db: Db, rows: Insertable<LedgerEntriesTable>[]): Promise<LedgerRow[]> {
  if (rows.length === 0) return [];
  return db.insertInto('ledger_entries').values(rows).returningAll().execute();
}

export async function listLedger(db: Db, venueId: string, memberId: string, page: Page): Promise<LedgerRow[]> {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('member_id', '=', memberId)
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export async function ledgerEntryExists(db: Db, venueId: string, memberId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('venue_id', '=', venueId)
    .where('member_id', '=', memberId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

