// SQL for a member's export and erasure: their row whether erased or not, their cards, ledger pages, the erasure.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { LedgerEntriesTable, MembersTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

type LedgerRow = Selectable<LedgerEntriesTable>;

export interface HeldMember extends Selectable<MembersTable> {
  cards: { card_number: string; created_at: Date }[];
  /** The members who enrolled with their referral code. */
  referred: string[];
}

/** The member as held, erased or not, with their cards; with `lock`, their row locked first (lock order). */
export async function heldMember(db: Db, chainId: string, id: string, lock: boolean): Promise<HeldMember | undefined> {
  const row = await db
    .selectFrom('members as m')
    .selectAll('m')
    .select([
      sql<{ card_number: string; created_at: string }[]>`coalesce((select json_agg(json_build_object('card_number', c.card_number,
        'created_at', c.created_at) order by c.created_at, c.card_number) from member_cards c
        where c.chain_id = m.chain_id and c.member_id = m.id), '[]')`.as('cards'),
      sql<string[]>`coalesce((select array_agg(r.id order by r.id) from members r where r.chain_id = m.chain_id and r.referred_by = m.id), '{}')`.as('referred'),
    ])
    .where('m.chain_id', '=', chainId)
    .where('m.id', '=', id)
    .$if(lock, (q) => q.forUpdate('m'))
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    cashback: Number(row.cashback),
    spend: Number(row.spend),
    visits: Number(row.visits),
    stamps: Number(row.stamps),
    cards: row.cards.map((c) => ({ card_number: c.card_number, created_at: new Date(c.created_at) })),
  };
}

/** A page of the member's ledger, newest first: all of it, one kind, or the entries with a reason. */
export async function ledgerPage(db: Db, chainId: string, memberId: string, page: Page, only: { kind?: string; withReason?: boolean } = {}): Promise<LedgerRow[]> {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('member_id', '=', memberId)
    .$if(only.kind !== undefined, (q) => q.where('kind', '=', only.kind!))
    .$if(only.withReason === true, (q) => q.where('reason', 'is not', null))
    .$call(keysetPage(page))
    .execute();
}

/** Replaces a ledger entry's reason text (it quoted the member); its amounts are never touched. */
export async function replaceReason(db: Db, chainId: string, id: string, reason: string): Promise<void> {
  await db.updateTable('ledger_entries').set({ reason }).where('chain_id', '=', chainId).where('id', '=', id).execute();
}

/**
 * Removes the member's personal data: their cards go (the numbers are free for another member), name, phone, e-mail,
 * birthday, referral code and who referred them are cleared, as is their name on the members they referred (who
 * referred whom is theirs too); the serial is replaced by one no card was ever printed with, and the row is marked erased.
 */
export async function eraseMember(db: Db, chainId: string, id: string, at: Date): Promise<void> {
  await db.deleteFrom('member_cards').where('chain_id', '=', chainId).where('member_id', '=', id).execute();
  await db
    .updateTable('members')
    .set({ name: null, phone: null, email: null, birthday: null, birthday_set_at: null, referral_code: null, referred_by: null, serial: `erased-${id}`, erased_at: at })
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .execute();
  await db.updateTable('members').set({ referred_by: null }).where('chain_id', '=', chainId).where('referred_by', '=', id).execute();
}
