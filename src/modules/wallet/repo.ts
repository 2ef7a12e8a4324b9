// SQL for the wallet (D23): a member's generations, devices and Google object; the member itself stays with the members module.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** A generation of the member's: a new one revokes every pass token (or card link) made with the one before. */
export type Generation = 'pass_generation' | 'card_link_generation';

/** Moves the member's `which` generation on; the new one, or undefined for no such member (or an erased one). */
export async function bumpGeneration(db: Db, chainId: string, memberId: string, which: Generation): Promise<number | undefined> {
  const row = await db
    .updateTable('members')
    .set((eb) => ({ [which]: eb(which, '+', 1) }))
    .where('chain_id', '=', chainId)
    .where('id', '=', memberId)
    .where('erased_at', 'is', null)
    .returning(which)
    .executeTakeFirst();
  return row?.[which];
}

/** The member's generations. */
export async function generations(db: Db, chainId: string, memberId: string) {
  return db.selectFrom('members').select(['pass_generation', 'card_link_generation']).where('chain_id', '=', chainId).where('id', '=', memberId).executeTakeFirst();
}

/** The chain of a program, by the program's id alone (its Google class names only that). */
export async function chainOfProgram(db: Db, programId: string): Promise<string | undefined> {
  const row = await db.selectFrom('programs').select('chain_id').where('id', '=', programId).executeTakeFirst();
  return row?.chain_id;
}

/** The member's Apple pass registrations (device and when) and when their Google object was made: for their export. */
export async function walletRecords(db: Db, chainId: string, memberId: string) {
  const [devices, google] = await Promise.all([
    db.selectFrom('apple_pass_registrations').select(['created_at', 'updated_at']).where('chain_id', '=', chainId).where('member_id', '=', memberId).orderBy('created_at').execute(),
    db.selectFrom('google_wallet_objects').select('created_at').where('chain_id', '=', chainId).where('member_id', '=', memberId).executeTakeFirst(),
  ]);
  return { devices, googleSince: google?.created_at ?? null };
}

/** How many devices have the member's Apple pass, and whether their Google object was made. */
export async function walletUse(db: Db, chainId: string, memberId: string): Promise<{ appleDevices: number; googleSaved: boolean }> {
  const { rows } = await sql<{ devices: string; google: boolean }>`select
      (select count(*) from apple_pass_registrations where chain_id = ${chainId} and member_id = ${memberId}) as devices,
      exists (select 1 from google_wallet_objects where chain_id = ${chainId} and member_id = ${memberId}) as google`.execute(db);
  return { appleDevices: Number(rows[0]!.devices), googleSaved: rows[0]!.google };
}

/** A member by id alone, as a pass or card link names it: its chain, home venue and generations; erased: none. */
export async function memberOfPass(db: Db, memberId: string) {
  return db
    .selectFrom('members')
    .select(['chain_id', 'home_venue_id', 'pass_generation', 'card_link_generation'])
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

/**
 * The member's devices and Google object, and whatever was still owed to them, forgotten; a Google object there was
 * is queued to be retired (its figures and name taken off at Google).
 */
export async function forgetMember(db: Db, chainId: string, memberId: string): Promise<void> {
  for (const table of ['apple_pass_registrations', 'wallet_updates'] as const) {
    await db.deleteFrom(table).where('chain_id', '=', chainId).where('member_id', '=', memberId).execute();
  }
  await sql`with gone as (delete from google_wallet_objects where chain_id = ${chainId} and member_id = ${memberId} returning chain_id, member_id)
    insert into wallet_updates (chain_id, member_id, channel) select chain_id, member_id, 'google_erased' from gone`.execute(db);
}

/** The member's devices unregistered, with the pushes still owed to them. */
export async function unregisterDevices(db: Db, chainId: string, memberId: string): Promise<void> {
  await db.deleteFrom('apple_pass_registrations').where('chain_id', '=', chainId).where('member_id', '=', memberId).execute();
  await db.deleteFrom('wallet_updates').where('chain_id', '=', chainId).where('member_id', '=', memberId).where('channel', '=', 'apple').execute();
}

// Changes are stamped by the database's clock (migration 0034's triggers), so "now" here is the database's too.

/** The passes a device holds, each with when it last changed, and the database's time. */
export async function devicePasses(db: Db, deviceId: string): Promise<{ passes: { member_id: string; changed_at: Date }[]; now: Date }> {
  const { rows } = await sql<{ member_id: string | null; changed_at: Date | null; now: Date }>`
    select r.member_id, m.pass_changed_at as changed_at, statement_timestamp() as now
    from (select 1) one
    left join apple_pass_registrations r on r.device_library_id = ${deviceId}
    left join members m on m.chain_id = r.chain_id and m.id = r.member_id`.execute(db);
  const passes = rows.filter((r) => r.member_id && r.changed_at).map((r) => ({ member_id: r.member_id!, changed_at: new Date(r.changed_at!) }));
  return { passes, now: new Date(rows[0]!.now) };
}

/** When the member's pass last changed, and the database's time. */
export async function passChangedAt(db: Db, chainId: string, memberId: string): Promise<{ changedAt: Date; now: Date }> {
  const { rows } = await sql<{ changed_at: Date; now: Date }>`select m.pass_changed_at as changed_at, statement_timestamp() as now
    from members m where m.chain_id = ${chainId} and m.id = ${memberId}`.execute(db);
  return { changedAt: new Date(rows[0]!.changed_at), now: new Date(rows[0]!.now) };
}
