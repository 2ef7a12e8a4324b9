// SQL for the wallet (D23): a member's pass generation; the member itself stays with the members module.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export async function passGeneration(db: Db, chainId: string, memberId: string): Promise<number | undefined> {
  const row = await db.selectFrom('members').select('pass_generation').where('chain_id', '=', chainId).where('id', '=', memberId).executeTakeFirst();
  return row?.pass_generation;
}

/** A member by id alone, as a pass names it (its serial): its chain, home venue and pass generation; erased: none. */
export async function memberOfPass(db: Db, memberId: string) {
  return db
    .selectFrom('members')
    .select(['chain_id', 'home_venue_id', 'pass_generation'])
    .where('id', '=', memberId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
}

/** Registers the device for the member's pass, or renews its push token; whether it is new. */
export async function register(db: Db, row: { chain_id: string; member_id: string; device_library_id: string; push_token: string; at: Date }): Promise<boolean> {
  const { at, ...key } = row;
  const written = await db
    .insertInto('apple_pass_registrations')
    .values({ ...key, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['chain_id', 'member_id', 'device_library_id']).doUpdateSet({ push_token: row.push_token, updated_at: at }))
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  return written.inserted;
}

export async function unregister(db: Db, chainId: string, memberId: string, deviceId: string): Promise<void> {
  await db.deleteFrom('apple_pass_registrations').where('chain_id', '=', chainId).where('member_id', '=', memberId).where('device_library_id', '=', deviceId).execute();
}

export async function unregisterAll(db: Db, chainId: string, memberId: string): Promise<void> {
  await db.deleteFrom('apple_pass_registrations').where('chain_id', '=', chainId).where('member_id', '=', memberId).execute();
}

/**
 * When the member `m` last changed as a pass shows it: a ledger entry (balance, stamps, spend and so level), a card
 * added, or the member's enrolment.
 */
const changedAt = sql<Date>`greatest(m.created_at,
  (select max(l.created_at) from ledger_entries l where l.chain_id = m.chain_id and l.member_id = m.id),
  (select max(c.created_at) from member_cards c where c.chain_id = m.chain_id and c.member_id = m.id))`;

/** The passes a device holds, each with when it last changed. */
export async function devicePasses(db: Db, deviceId: string): Promise<{ member_id: string; changed_at: Date }[]> {
  const { rows } = await sql<{ member_id: string; changed_at: Date }>`
    select r.member_id, ${changedAt} as changed_at
    from apple_pass_registrations r join members m on m.chain_id = r.chain_id and m.id = r.member_id
    where r.device_library_id = ${deviceId}`.execute(db);
  return rows.map((r) => ({ member_id: r.member_id, changed_at: new Date(r.changed_at) }));
}

/** When the member's pass last changed. */
export async function passChangedAt(db: Db, chainId: string, memberId: string): Promise<Date> {
  const { rows } = await sql<{ changed_at: Date }>`select ${changedAt} as changed_at from members m where m.chain_id = ${chainId} and m.id = ${memberId}`.execute(db);
  return new Date(rows[0]!.changed_at);
}
