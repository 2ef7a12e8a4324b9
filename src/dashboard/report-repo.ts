// Reporting SQL for the dashboard's overview and reports: checks, cashback and enrolments per venue day and mode, what
// members hold, the ledger's cashback by day and kind, members active in a window, campaigns' credits in a period.
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
  /** Completed checks naming a member: visits by members. */
  memberChecks: number;
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
      eb.fn.count<string>('member_id').filterWhere('status', '=', 'completed').as('member_checks'),
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
    memberChecks: Number(r.member_checks),
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

/** Σ cashback of the chain's ledger entries of one mode in [from, to), by day in `timezone`, venue and kind. */
export async function cashbackByDay(db: Db, chainId: string, livemode: boolean, period: { from: Date; to: Date }, timezone: string) {
  const { rows } = await sql<{ day: string; venue_id: string | null; kind: string; cashback: string }>`
    select to_char(created_at at time zone ${timezone}, 'YYYY-MM-DD') as day, venue_id, kind, sum(cashback) as cashback
    from ledger_entries
    where chain_id = ${chainId} and livemode = ${livemode} and created_at >= ${period.from} and created_at < ${period.to} and cashback <> 0
    group by 1, 2, 3`.execute(db);
  return rows.map((r) => ({ day: r.day, venueId: r.venue_id, kind: r.kind, cashback: Number(r.cashback) }));
}

/**
 * What the chain's members of one mode hold now (Σ balances, held cashback included: the ledger's sum), and what the
 * ledger added to it since `since`: outstanding at `since` is the difference, read without summing older history.
 */
export async function outstandingSince(db: Db, chainId: string, livemode: boolean, since: Date): Promise<{ now: number; since: number }> {
  const { rows } = await sql<{ now: string | null; since: string | null }>`
    select (select sum(cashback) from members where chain_id = ${chainId} and livemode = ${livemode}) as now,
      (select sum(cashback) from ledger_entries where chain_id = ${chainId} and livemode = ${livemode} and created_at >= ${since}) as since`.execute(db);
  return { now: Number(rows[0]?.now ?? 0), since: Number(rows[0]?.since ?? 0) };
}

/** Members of one mode with a completed check in the 30 and in the 90 venue days up to `toDay`. */
export async function activeMembers(db: Db, chainId: string, livemode: boolean, toDay: string, from30: string, from90: string) {
  const { rows } = await sql<{ active_30: string; active_90: string }>`
    select count(distinct member_id) filter (where venue_day >= ${from30}) as active_30, count(distinct member_id) as active_90
    from transactions
    where chain_id = ${chainId} and livemode = ${livemode} and status = 'completed' and member_id is not null
      and venue_day >= ${from90} and venue_day <= ${toDay}`.execute(db);
  return { active30: Number(rows[0]?.active_30 ?? 0), active90: Number(rows[0]?.active_90 ?? 0) };
}

/** Each campaign's credits in [from, to) (less what was taken back then), in its unit, and the members they went to. */
export async function campaignCredits(db: Db, chainId: string, livemode: boolean, period: { from: Date; to: Date }) {
  const { rows } = await sql<{ campaign_id: string; name: string; unit: 'cashback' | 'stamps'; credited: string; members: string }>`
    select l.campaign_id, c.name, case when c.stamps is null and c.stamps_multiplier is null then 'cashback' else 'stamps' end as unit, sum(l.cashback + l.stamps) as credited, count(distinct l.member_id) filter (where l.cashback + l.stamps > 0) as members
    from ledger_entries l join campaigns c on c.chain_id = l.chain_id and c.id = l.campaign_id
    where l.chain_id = ${chainId} and l.campaign_id is not null and l.livemode = ${livemode} and l.kind = 'campaign' and l.created_at >= ${period.from} and l.created_at < ${period.to}
    group by l.campaign_id, c.name, 3
    order by c.name, l.campaign_id`.execute(db);
  return rows.map((r) => ({ campaign_id: r.campaign_id, name: r.name, unit: r.unit, credited: Number(r.credited), members: Number(r.members) }));
}
