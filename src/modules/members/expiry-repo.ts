// SQL for cashback lots (D20): a member's open lots as a read, their new amounts as a step of a write, and the
// worker's look-ups of lots due to expire or to be warned about.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Read, ValueOrRef, WriteStep } from '../../db/statement.js';
import { NO_VENUE, type Lot } from './expiry.js';

/** A member's open lots as one JSON value, for the member `memberId` names (a value or a column). */
function openLots(chainId: unknown, memberId: unknown): RawBuilder<unknown> {
  return sql`(select coalesce(json_agg(json_build_object('venue_id', l.venue_id, 'day', l.day, 'expires_on', l.expires_on,
      'expires_at', l.expires_at, 'remaining', l.remaining) order by l.expires_at, l.day, l.lot_venue), '[]') from cashback_lots l
    where l.chain_id = ${chainId} and l.member_id = ${memberId} and l.remaining > 0)`;
}

export function lotsFromJson(value: unknown): Lot[] {
  return ((value ?? []) as { venue_id: string | null; day: string; expires_on: string; expires_at: string; remaining: number | string }[]).map((l) => ({
    venueId: l.venue_id,
    day: l.day,
    expiresOn: l.expires_on,
    expiresAt: new Date(l.expires_at),
    remaining: Number(l.remaining),
  }));
}

/** The member's open lots, as a read of a gather that follows their lock. */
export function lotsRead(chainId: string, memberId: ValueOrRef<string>): Read<Lot[]> {
  return { query: openLots(chainId, memberId), parse: lotsFromJson };
}

/** The open lots of the members row `m`, as a column of a member query. */
export const lotsColumn = openLots(sql.ref('m.chain_id'), sql.ref('m.id'));

/**
 * The time zone of every venue of the chain, by venue id, as a read of a gather: where a reversal gives cashback
 * back to a lot no longer open, that lot is formed again in its own venue's days (a few rows: a chain's venues).
 * Under NO_VENUE (expiry.ts), the zone of a lot of no venue: the chain's first venue's (oldest, then by id).
 */
export function zonesRead(chainId: string): Read<Record<string, string>> {
  return {
    query: sql`(select coalesce(jsonb_object_agg(v.venue_id, v.timezone), '{}'::jsonb) || jsonb_build_object(${NO_VENUE}::text,
        (select f.timezone from venues f where f.chain_id = ${chainId} order by f.created_at, f.venue_id limit 1))
      from venues v where v.chain_id = ${chainId})`,
    parse: (value) => (value ?? {}) as Record<string, string>,
  };
}

/** The lots a write changed, with their new amounts (a new lot with its dates): a step of that write. */
export function lotsStep(db: Db, chainId: string, memberId: string, lots: Lot[]): WriteStep {
  return {
    name: 'cashback_lots',
    query: db
      .insertInto('cashback_lots')
      .values(
        lots.map((l) => ({
          chain_id: chainId,
          member_id: memberId,
          venue_id: l.venueId,
          day: l.day,
          expires_on: l.expiresOn,
          expires_at: l.expiresAt,
          remaining: l.remaining,
          warn_at: l.warnAt ?? null,
        })),
      )
      .onConflict((oc) => oc.columns(['chain_id', 'member_id', 'lot_venue', 'day']).doUpdateSet({ remaining: (eb) => eb.ref('excluded.remaining') })),
  };
}

/**
 * The venue whose time zone the worker's expiry of members `m` is judged in: their home venue, else (imported
 * without one) the chain's first. Each `expiry` ledger entry names the venue where its lots were earned, and the
 * `cashback.expired` event names none (D21).
 */
const lotVenue = sql`lateral (select v.venue_id, v.timezone from venues v where v.chain_id = m.chain_id
  order by v.venue_id is not distinct from m.home_venue_id desc, v.created_at, v.venue_id limit 1)`;

/** A member with a lot due, and the venue the worker writes their expiry from (lotVenue). */
export interface DueMember {
  chain_id: string;
  member_id: string;
  venue_id: string;
  timezone: string;
}

/** Members with a lot due by `now`, after `after` in (chain, member) order: one batch of the worker's pass. */
export async function membersWithDueLots(db: Db, now: Date, after: DueMember | null, limit: number): Promise<DueMember[]> {
  const { rows } = await sql<DueMember>`
    select d.chain_id, d.member_id, v.venue_id, v.timezone from (
      select distinct l.chain_id, l.member_id from cashback_lots l
      where l.remaining > 0 and l.expires_at <= ${now}
        ${after ? sql`and (l.chain_id, l.member_id) > (${after.chain_id}::uuid, ${after.member_id}::uuid)` : sql``}
      order by l.chain_id, l.member_id limit ${limit}
    ) d
    join members m on m.chain_id = d.chain_id and m.id = d.member_id
    cross join ${lotVenue} v
    order by d.chain_id, d.member_id`.execute(db);
  return rows;
}

export interface LotToWarn {
  chain_id: string;
  /** The venue where the lot was earned (null: a lot of no venue), and that as the primary key names it. */
  venue_id: string | null;
  lot_venue: string;
  member_id: string;
  day: string;
  livemode: boolean;
  /** Whose endpoints besides the chain's hear of it (an expiry is an event of no venue, D21). */
  home_venue_id: string | null;
}

/** Lots whose warning is due by `now` and not yet sent, before they expire. */
export async function lotsToWarn(db: Db, now: Date, limit: number): Promise<LotToWarn[]> {
  const { rows } = await sql<LotToWarn>`
    select l.chain_id, l.venue_id, l.lot_venue, l.member_id, l.day::text as day, m.livemode, m.home_venue_id from cashback_lots l
    join members m on m.chain_id = l.chain_id and m.id = l.member_id
    where l.remaining > 0 and l.warned_at is null and l.warn_at is not null and l.warn_at <= ${now} and l.expires_at > ${now}
      -- An erased member is warned of nothing: there is no one to tell, and the event would name them.
      and m.erased_at is null
    order by l.warn_at limit ${limit}`.execute(db);
  return rows;
}

/** Marks the lot warned, unless another run did: the lot as it is then, or undefined. */
export async function markWarned(db: Db, lot: LotToWarn, now: Date) {
  return db
    .updateTable('cashback_lots')
    .set({ warned_at: now })
    .where('chain_id', '=', lot.chain_id)
    .where('member_id', '=', lot.member_id)
    .where('lot_venue', '=', lot.lot_venue)
    .where('day', '=', lot.day)
    .where('warned_at', 'is', null)
    .where('remaining', '>', 0)
    .returning(['day', 'expires_on', 'expires_at', 'remaining'])
    .executeTakeFirst();
}

/** The program's members with a lot due by `now` (its expiry being turned off: what is due is written first). */
export async function programMembersWithDueLots(db: Db, chainId: string, programId: string, now: Date): Promise<DueMember[]> {
  const { rows } = await sql<DueMember>`select distinct m.chain_id, m.id as member_id, v.venue_id, v.timezone from cashback_lots l
    join members m on m.chain_id = l.chain_id and m.id = l.member_id
    cross join ${lotVenue} v
    where l.chain_id = ${chainId} and m.program_id = ${programId} and l.remaining > 0 and l.expires_at <= ${now}
    order by member_id`.execute(db);
  return rows;
}

/**
 * Sets when the program's members are warned about their open lots not yet warned about, from the warning lead
 * `warningDays` (0: never): the start of the local day that many days before the lot's date in the zone of the
 * venue where the lot was earned (a lot of no venue: the chain's first venue's), as newLot works it out
 * (PostgreSQL's local midnight in that zone).
 */
export async function rewarnProgramLots(db: Db, chainId: string, programId: string, warningDays: number): Promise<void> {
  const zone = sql`(select v.timezone from venues v where v.chain_id = l.chain_id and (v.venue_id = l.venue_id or l.venue_id is null)
    order by v.created_at, v.venue_id limit 1)`;
  await sql`update cashback_lots l set warn_at = ${warningDays > 0 ? sql`((l.expires_on - ${warningDays}::int)::timestamp at time zone ${zone})` : sql`null`}
    from members m
    where l.chain_id = ${chainId} and m.chain_id = l.chain_id and m.id = l.member_id and m.program_id = ${programId}
      and l.remaining > 0 and l.warned_at is null`.execute(db);
}

/** Forgets the lots of a program's members (its expiry turned off: nothing keeps them up to date any more). */
export async function deleteProgramLots(db: Db, chainId: string, programId: string): Promise<void> {
  await sql`delete from cashback_lots l using members m
    where l.chain_id = ${chainId} and m.chain_id = l.chain_id and m.id = l.member_id and m.program_id = ${programId}`.execute(db);
}
