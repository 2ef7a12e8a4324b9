// Reporting SQL for the dashboard's overview: checks, cashback and enrolments per venue day and mode, and what members hold.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Place } from '../modules/accounts/schemas.js';

export interface DayFigures {
  day: string;
  livemode: boolean;
  checks: number;
  sales: number;
  earned: number;
  redeemed: number;
}

export interface VenueDayFigures extends DayFigures {
  venueId: string;
}

/**
 * Per venue and venue day (the day a check closed, in the venue's time zone) and mode, from `fromDay` to `toDay` included:
 * completed checks, what was paid net of refunds, and cashback earned and redeemed net of what voids and refunds reversed.
 * Every venue of the chain at once (each row is a venue's own day, judged in its time zone), or only `venueId`.
 */
export async function checksByVenueDay(db: Db, chainId: string, fromDay: string, toDay: string, venueId?: string): Promise<VenueDayFigures[]> {
  const rows = await db
    .selectFrom('transactions')
    .select((eb) => [
      'venue_id',
      'venue_day',
      'livemode',
      eb.fn.count<string>('id').filterWhere('status', '=', 'completed').as('checks'),
      eb.fn.sum<string>(sql`case when status = 'completed' then paid - refunded_amount else 0 end`).as('sales'),
      eb.fn.sum<string>(sql`earned - earned_reversed`).as('earned'),
      eb.fn.sum<string>(sql`redeemed - redeemed_returned`).as('redeemed'),
    ])
    .where('chain_id', '=', chainId)
    .$if(venueId !== undefined, (q) => q.where('venue_id', '=', venueId!))
    .where('venue_day', '>=', fromDay)
    .where('venue_day', '<=', toDay)
    .groupBy(['venue_id', 'venue_day', 'livemode'])
    .execute();
  return rows.map((r) => ({
    venueId: r.venue_id,
    day: r.venue_day,
    livemode: r.livemode,
    checks: Number(r.checks),
    sales: Number(r.sales ?? 0),
    earned: Number(r.earned ?? 0),
    redeemed: Number(r.redeemed ?? 0),
  }));
}

/** As checksByVenueDay, for the one venue of `place`. */
export function checksByDay(db: Db, place: Place, fromDay: string, toDay: string): Promise<DayFigures[]> {
  return checksByVenueDay(db, place.chainId, fromDay, toDay, place.venueId);
}

/** The chain's members enrolled per day of the venue and mode, from the start of `fromDay` in the venue's time zone. */
export async function enrolmentsByDay(db: Db, chainId: string, timezone: string, fromDay: string): Promise<{ day: string; livemode: boolean; members: number }[]> {
  const day = sql<string>`to_char(created_at at time zone ${timezone}, 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('members')
    .select((eb) => [day.as('day'), 'livemode', eb.fn.countAll<string>().as('members')])
    .where('chain_id', '=', chainId)
    .where('created_at', '>=', sql<Date>`(${fromDay}::date::timestamp at time zone ${timezone})`)
    // By position: the day expression's time zone is a parameter, and a second copy of it would not match the first.
    .groupBy([sql`1`, sql`2`])
    .execute();
  return rows.map((r) => ({ day: r.day, livemode: r.livemode, members: Number(r.members) }));
}

/** Per mode: the chain's members, and the cashback they could still redeem (positive balances; a debt owes the chain, not the reverse). */
export async function balances(db: Db, chainId: string): Promise<{ livemode: boolean; members: number; liability: number; withBalance: number }[]> {
  const rows = await db
    .selectFrom('members')
    .select((eb) => [
      'livemode',
      eb.fn.countAll<string>().as('members'),
      eb.fn.sum<string>(sql`greatest(cashback, 0)`).as('liability'),
      eb.fn.countAll<string>().filterWhere('cashback', '>', 0).as('with_balance'),
    ])
    .where('chain_id', '=', chainId)
    .groupBy('livemode')
    .execute();
  return rows.map((r) => ({ livemode: r.livemode, members: Number(r.members), liability: Number(r.liability ?? 0), withBalance: Number(r.with_balance) }));
}
