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

/**
 * Registers the device for the member's pass, or renews its push token; whether it is new. Stamped by the database's
 * clock, as the changes a device asks about are.
 */
export async function register(db: Db, row: { chain_id: string; member_id: string; device_library_id: string; push_token: string }): Promise<boolean> {
  const at = sql<Date>`clock_timestamp()`;
  const written = await db
    .insertInto('apple_pass_registrations')
    .values({ ...row, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['chain_id', 'member_id', 'device_library_id']).doUpdateSet({ push_token: row.push_token, updated_at: at }))
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  return written.inserted;
}

export async function unregister(db: Db, chainId: string, memberId: string, deviceId: string): Promise<void> {
  await db.deleteFrom('apple_pass_registrations').where('chain_id', '=', chainId).where('member_id', '=', memberId).where('device_library_id', '=', deviceId).execute();
}

/** Deletes the member's registrations but the `keep` most recently renewed. */
export async function keepNewestDevices(db: Db, chainId: string, memberId: string, keep: number): Promise<void> {
  await sql`delete from apple_pass_registrations where chain_id = ${chainId} and member_id = ${memberId} and device_library_id in (
    select device_library_id from apple_pass_registrations where chain_id = ${chainId} and member_id = ${memberId}
    order by updated_at desc, device_library_id offset ${keep})`.execute(db);
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

// Changes are stamped by the database's clock, so "now" here is the database's too.

/** The passes a device holds, each with when it last changed, and the database's time. */
export async function devicePasses(db: Db, deviceId: string): Promise<{ passes: { member_id: string; changed_at: Date }[]; now: Date }> {
  const { rows } = await sql<{ member_id: string | null; changed_at: Date | null; now: Date }>`
    select r.member_id, ${changedAt} as changed_at, statement_timestamp() as now
    from (select 1) one
    left join apple_pass_registrations r on r.device_library_id = ${deviceId}
    left join members m on m.chain_id = r.chain_id and m.id = r.member_id`.execute(db);
  const passes = rows.filter((r) => r.member_id && r.changed_at).map((r) => ({ member_id: r.member_id!, changed_at: new Date(r.changed_at!) }));
  return { passes, now: new Date(rows[0]!.now) };
}

/** When the member's pass last changed, and the database's time. */
export async function passChangedAt(db: Db, chainId: string, memberId: string): Promise<{ changedAt: Date; now: Date }> {
  const { rows } = await sql<{ changed_at: Date; now: Date }>`select ${changedAt} as changed_at, statement_timestamp() as now
    from members m where m.chain_id = ${chainId} and m.id = ${memberId}`.execute(db);
  return { changedAt: new Date(rows[0]!.changed_at), now: new Date(rows[0]!.now) };
}
