// A member's activity in SQL (members/activity.ts): their ledger entries, a check's grouped into one row with its
// void and refunds, newest first.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Page } from '../../shared/pagination.js';

type Sum = number | string;

export interface ActivityRow {
  id: string;
  type: string;
  venue_id: string | null;
  at: Date;
  reference: string | null;
  status: 'completed' | 'voided' | null;
  cashback: Sum;
  spend: Sum;
  visits: Sum;
  stamps: Sum;
  earned: Sum;
  redeemed: Sum;
  campaign_cashback: Sum;
  campaign_stamps: Sum;
  reason: string | null;
  campaign_id: string | null;
  livemode: boolean;
  /** A check's refunds, oldest first, read in the same statement; null on other rows. */
  refunds: ActivityRefund[] | null;
}

export interface ActivityRefund {
  id: string;
  external_id: string;
  amount: number;
  earned_reversed: number;
  redeemed_returned: number;
  created_at: string;
}

/**
 * One page of the member's activity, `limit + 1` rows, ordered by when each happened (a check: when it closed) and
 * then by id; the cursor is a row's id. Reads all of the member's entries: a member's history, not the chain's. An
 * entry of kind `check` that names no check (a release's process older than migration 0040 wrote it, or the
 * migration could not tell which check it was) is a `check_entry` row, so only a check's row is a `check`.
 */
export async function listActivity(db: Db, chainId: string, memberId: string, page: Page): Promise<ActivityRow[]> {
  const after = page.startingAfter === undefined ? sql`` : sql`where (at, id) < (select at, id from activity where id = ${page.startingAfter})`;
  const { rows } = await sql<ActivityRow>`
    with activity as (
      select e.id, case when e.kind = 'check' then 'check_entry' else e.kind end as type, e.venue_id, e.created_at as at, e.reference, null::text as status,
        e.cashback, e.spend, e.visits::bigint as visits, e.stamps::bigint as stamps, 0::bigint as earned, 0::bigint as redeemed,
        case when e.kind = 'campaign' then e.cashback else 0 end as campaign_cashback,
        case when e.kind = 'campaign' then e.stamps::bigint else 0 end as campaign_stamps,
        e.reason, e.campaign_id, e.livemode
      from ledger_entries e
      where e.chain_id = ${chainId} and e.member_id = ${memberId} and e.transaction_id is null
      union all
      select t.id, 'check', t.venue_id, coalesce(t.closed_at, t.created_at), t.external_id, t.status,
        g.cashback, g.spend, g.visits, g.stamps, g.earned, g.redeemed, g.campaign_cashback, g.campaign_stamps,
        null, null, t.livemode
      from (
        select transaction_id, sum(cashback)::bigint as cashback, sum(spend)::bigint as spend,
          sum(visits)::bigint as visits, sum(stamps)::bigint as stamps,
          coalesce(sum(cashback) filter (where kind in ('earn', 'earn_reversal')), 0)::bigint as earned,
          coalesce(-sum(cashback) filter (where kind in ('redemption', 'redemption_reversal')), 0)::bigint as redeemed,
          coalesce(sum(cashback) filter (where kind = 'campaign'), 0)::bigint as campaign_cashback,
          coalesce(sum(stamps) filter (where kind = 'campaign'), 0)::bigint as campaign_stamps
        from ledger_entries
        where chain_id = ${chainId} and member_id = ${memberId} and transaction_id is not null
        group by transaction_id
      ) g
      join transactions t on t.chain_id = ${chainId} and t.id = g.transaction_id
    )
    select a.*, case when a.type = 'check' then (
        select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'external_id', r.external_id, 'amount', r.amount,
            'earned_reversed', r.earned_reversed, 'redeemed_returned', r.redeemed_returned, 'created_at', r.created_at)
            order by r.created_at, r.id), '[]'::jsonb)
        from refunds r where r.chain_id = ${chainId} and r.transaction_id = a.id) end as refunds
    from (select * from activity ${after} order by at desc, id desc limit ${page.limit + 1}) a
    order by a.at desc, a.id desc`.execute(db);
  return rows;
}

/** Whether `id` names a row of the member's activity: a check or an entry of theirs. */
export async function activityRowExists(db: Db, chainId: string, memberId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('member_id', '=', memberId)
    .where((eb) => eb.or([eb.and([eb('id', '=', id), eb('transaction_id', 'is', null)]), eb('transaction_id', '=', id)]))
    .executeTakeFirst();
  return row !== undefined;
}
