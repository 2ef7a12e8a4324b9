// SQL for campaigns: a chain's rows, by id, newest first; budgets taken and given back. A campaign with a budget keeps
// `spent` on its row (locked while it is taken from); one without is never written by a credit, and its `spent` is
// what the ledger's entries naming it add up to, summed when it is read (no row every check of a chain waits for).
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { ValueOrRef, WriteStep } from '../../db/statement.js';
import type { CampaignsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type CampaignRow = Selectable<CampaignsTable>;

/** Where and when a credit happens. */
export interface CreditPlace {
  chainId: string;
  venueId: string | null;
  livemode: boolean;
  now: Date;
}

/** Every column of a campaign but `spent`, which `spentOf` gives. */
const COLUMNS = [
  'chain_id', 'id', 'name', 'type', 'status', 'venue_ids', 'starts_at', 'ends_at', 'budget', 'max_per_member', 'schedule', 'percent_bp',
  'stamps_multiplier', 'categories', 'min_check_amount', 'amount', 'stamps', 'referrer_amount', 'referee_amount', 'livemode', 'created_at', 'updated_at',
  'ended_at',
] as const;

/** What a campaign has credited, less what reversals took back: its row's, or its entries' sum when it has no budget. */
const spentOf = sql<number>`case when campaigns.budget is null then coalesce((select sum(l.cashback + l.stamps) from ledger_entries l
  where l.chain_id = campaigns.chain_id and l.campaign_id = campaigns.id), 0) else campaigns.spent end::bigint`;

const campaignRows = (db: Db) => db.selectFrom('campaigns').select([...COLUMNS, spentOf.as('spent')]);

export async function insertCampaign(db: Db, row: Insertable<CampaignsTable>): Promise<CampaignRow> {
  await db.insertInto('campaigns').values(row).execute();
  return (await findCampaign(db, row.chain_id, row.id))!;
}

/** The campaign, locked to the end of the transaction with `forUpdate` (an update reads what it changes). */
export async function findCampaign(db: Db, chainId: string, id: string, forUpdate = false): Promise<CampaignRow | undefined> {
  return campaignRows(db)
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** `limit + 1` rows, newest first; `status` as stored (a campaign past its end is still stored as it was set). */
export async function listCampaigns(db: Db, chainId: string, page: Page, filter: { type?: CampaignRow['type']; livemode?: boolean }): Promise<CampaignRow[]> {
  return campaignRows(db)
    .where('chain_id', '=', chainId)
    .$if(filter.type !== undefined, (q) => q.where('type', '=', filter.type!))
    .$if(filter.livemode !== undefined, (q) => q.where('livemode', '=', filter.livemode!))
    .$call(keysetPage(page))
    .execute();
}

export async function updateCampaign(db: Db, chainId: string, id: string, changes: Updateable<CampaignsTable>): Promise<CampaignRow> {
  await db.updateTable('campaigns').set(changes).where('chain_id', '=', chainId).where('id', '=', id).execute();
  return (await findCampaign(db, chainId, id))!;
}

/**
 * The chain's campaigns of `type` (or the one `id`) and the mode that may credit at `venueId` now in `unit` (a `welcome`'s amount or stamps),
 * budget left, locked in id order until the transaction ends: two enrolments take from one budget one after the other.
 */
export async function lockCrediting(db: Db, where: CreditPlace, type: CampaignRow['type'], unit: 'amount' | 'stamps', id?: string): Promise<CampaignRow[]> {
  const { chainId, venueId, livemode, now: at } = where;
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('livemode', '=', livemode)
    .where('type', '=', type)
    .$if(id !== undefined, (q) => q.where('id', '=', id!))
    .where('status', '=', 'active')
    .where(unit, 'is not', null)
    .where((eb) => eb.or([eb('venue_ids', 'is', null), ...(venueId === null ? [] : [eb(eb.val(venueId), '=', eb.fn.any('venue_ids'))])]))
    .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', at)]))
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', at)]))
    .where((eb) => eb.or([eb('budget', 'is', null), eb('spent', '<', eb.ref('budget'))]))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Adds what a credit took to a budgeted campaign's `spent` (the row is locked): the check constraint refuses passing the budget. */
export async function addSpent(db: Db, chainId: string, id: string, taken: number, at: Date): Promise<CampaignRow> {
  return db
    .updateTable('campaigns')
    .set((eb) => ({ spent: eb('spent', '+', taken), updated_at: at }))
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A member a birthday campaign may be due to credit, with what decides it: their birthday and home venue's timezone. */
export interface BirthdayCandidate {
  chain_id: string;
  member_id: string;
  home_venue_id: string | null;
  birthday: string;
  livemode: boolean;
  timezone: string;
  campaign_id: string;
  /** No birthday before the latest of these is caught up: the campaign's start, the birthday's setting (at enrolment or after). */
  not_before: Date;
}

/**
 * Members whose birthday (MM-DD of it) is one of `monthDays`, with each active birthday campaign of their chain and
 * mode that credits their program's unit at their home venue, below its max_per_member, and has credited them
 * nothing since `since` (birthdays are a year apart: a credit that recent was for this one); after `after` in
 * (member, campaign) order. A read across the members' tables, as the worker's one pass needs.
 */
export async function birthdayCandidates(
  db: Db,
  now: Date,
  monthDays: string[],
  since: Date,
  after: Pick<BirthdayCandidate, 'chain_id' | 'member_id' | 'campaign_id'> | null,
  limit: number,
): Promise<BirthdayCandidate[]> {
  const { rows } = await sql<BirthdayCandidate>`
    select m.chain_id, m.id as member_id, m.home_venue_id, m.birthday, m.livemode, coalesce(v.timezone, 'UTC') as timezone, c.id as campaign_id,
      greatest(c.created_at, coalesce(c.starts_at, c.created_at), coalesce(m.birthday_set_at, c.created_at)) as not_before
    from members m
    join programs p on p.chain_id = m.chain_id and p.id = m.program_id
    join campaigns c on c.chain_id = m.chain_id and c.type = 'birthday' and c.status = 'active' and c.livemode = m.livemode
      and ((p.type = 'cashback' and c.amount is not null) or (p.type = 'stamps' and c.stamps is not null))
      and (c.venue_ids is null or m.home_venue_id = any(c.venue_ids))
      and (c.starts_at is null or c.starts_at <= ${now}) and (c.ends_at is null or c.ends_at > ${now})
      and (c.budget is null or c.spent < c.budget)
    left join venues v on v.chain_id = m.chain_id and v.venue_id = m.home_venue_id
    where m.birthday is not null and m.erased_at is null and right(m.birthday, 5) in (${sql.join(monthDays)})
      and not exists (select 1 from ledger_entries l where l.chain_id = m.chain_id and l.campaign_id = c.id
        and l.member_id = m.id and l.reference like 'birthday-%' and l.created_at > ${since})
      and (c.max_per_member is null or c.max_per_member > (select count(*) from ledger_entries l where l.chain_id = m.chain_id
        and l.campaign_id = c.id and l.member_id = m.id and l.kind = 'campaign' and (l.cashback > 0 or l.stamps > 0)))
      ${after ? sql`and (m.chain_id, m.id, c.id) > (${after.chain_id}, ${after.member_id}, ${after.campaign_id})` : sql``}
    order by m.chain_id, m.id, c.id
    limit ${limit}`.execute(db);
  return rows;
}

/** The references of the credits a campaign has given a member, one per credit (its max_per_member counts them). */
export async function creditsGiven(db: Db, chainId: string, campaignId: string, memberId: string): Promise<(string | null)[]> {
  const { rows } = await sql<{ reference: string | null }>`select reference from ledger_entries
    where chain_id = ${chainId} and campaign_id = ${campaignId} and member_id = ${memberId} and kind = 'campaign' and (cashback > 0 or stamps > 0)`.execute(db);
  return rows.map((r) => r.reference);
}

/** How many times a referral campaign credited `referrerId` as a referrer (not as a referee: its own referral's credit). */
const referrerCredits = (chainId: ValueOrRef<string>, campaignId: ValueOrRef<string>, referrerId: ValueOrRef<string>) =>
  sql<number>`(select count(*) from ledger_entries l where l.chain_id = ${chainId} and l.campaign_id = ${campaignId} and l.member_id = ${referrerId}
    and l.kind = 'campaign' and l.cashback > 0 and l.reference <> 'referral-' || ${referrerId}::text)`;

/** As the check's gather counts it, read again once the referrer is locked (checks of several referees at once). */
export async function countReferrerCredits(db: Db, chainId: string, campaignId: string, referrerId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select ${referrerCredits(chainId, campaignId, referrerId)} as n`.execute(db);
  return Number(rows[0]!.n);
}

/** The reference of both sides' credits of a referral: the referee's id. */
export const referralReference = (refereeId: string) => `referral-${refereeId}`;

/**
 * The chain's active campaigns of the member's mode (D4: a test campaign credits test members only, whichever key sends
 * the check) that may credit a check of `memberId` at `venueId` at the moment `at`, with
 * budget left, as one JSON array for the check's gather: its bonuses, and the referrals of a referred member who has no
 * completed check paid at least the referral's minimum, nor one the referral credited (a hold captured into it later
 * lowers what it paid, and it stays the qualifying check); a void of the qualifying check makes the next one the first.
 * Each with its terms, window, what its budget has left, and what it gave so far where max_per_member counts it: the
 * member, for a bonus; the referrer as a referrer, for a referral.
 */
export function checkCampaignsJson(where: Omit<CreditPlace, 'now'> & { venueId: string }, memberId: ValueOrRef<string>, at: Date) {
  return sql<unknown>`(select coalesce(jsonb_agg(jsonb_build_object('campaign_id', c.id, 'type', c.type, 'name', c.name, 'schedule', c.schedule,
      'percent_bp', c.percent_bp, 'stamps_multiplier', c.stamps_multiplier, 'categories', c.categories,
      'min_check_amount', c.min_check_amount, 'room', c.budget - c.spent, 'max_per_member', c.max_per_member,
      'referee_amount', c.referee_amount, 'referrer_amount', c.referrer_amount, 'referrer_id', r.referred_by,
      'given', case when c.max_per_member is null then 0 when c.type = 'referral' then ${referrerCredits(sql.ref('c.chain_id'), sql.ref('c.id'), sql.ref('r.referred_by'))}
        else (select count(*) from ledger_entries l where l.chain_id = c.chain_id
          and l.campaign_id = c.id and l.member_id = ${memberId} and l.kind = 'campaign' and (l.cashback > 0 or l.stamps > 0)) end) order by c.id), '[]'::jsonb)
    from campaigns c left join members r on r.chain_id = c.chain_id and r.id = ${memberId} and c.type = 'referral'
    where c.chain_id = ${where.chainId} and c.status = 'active'
      and c.livemode = (select mm.livemode from members mm where mm.chain_id = c.chain_id and mm.id = ${memberId})
      and (c.type = 'bonus' or (c.type = 'referral' and r.referred_by is not null and not exists (select 1 from transactions t
        where t.chain_id = c.chain_id and t.member_id = r.id and t.status = 'completed'
          and (t.paid >= coalesce(c.min_check_amount, 1) or t.campaigns @> jsonb_build_array(jsonb_build_object('campaign_id', c.id::text))))))
      and (c.venue_ids is null or ${where.venueId}::uuid = any(c.venue_ids))
      and (c.starts_at is null or c.starts_at <= ${at}) and (c.ends_at is null or c.ends_at > ${at})
      and (c.budget is null or c.spent < c.budget))`;
}

/** A campaign's row after a credit took from it, with what was taken. */
export type TakenRow = CampaignRow & { taken: number };

/**
 * Takes from each budgeted campaign what is wanted of it, or what its budget has left when less, in one statement: the
 * rows locked in id order (as every credit locks them), `spent` raised. Returns each row after, with what it gave.
 */
export async function takeWanted(db: Db, chainId: string, wanted: { id: string; amount: number }[], at: Date): Promise<TakenRow[]> {
  const { rows } = await sql<TakenRow>`with locked as (
      select id, budget, spent from campaigns where chain_id = ${chainId} and id = any(${wanted.map((w) => w.id)}::uuid[]) and budget is not null
      order by id for update),
    wanted as (select * from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as w(id uuid, amount bigint))
    update campaigns c set spent = c.spent + least(w.amount, coalesce(l.budget - l.spent, w.amount)), updated_at = ${at}
    from locked l join wanted w on w.id = l.id
    where c.chain_id = ${chainId} and c.id = l.id
    returning c.*, least(w.amount, coalesce(l.budget - l.spent, w.amount)) as taken`.execute(db);
  return rows.map((r) => ({ ...r, taken: Number(r.taken) }));
}

/** A campaign's `spent` as a write left it, with its budget. */
export type SpentRow = Pick<CampaignRow, 'id' | 'spent' | 'budget'>;

/**
 * Adds to each budgeted campaign's `spent` (a credit) or takes from it (a reversal), as a step of a larger write, the
 * rows locked in id order; the check constraint refuses passing a budget, so the whole write fails rather than exceed
 * it. A campaign without a budget is left alone: its entries are its spent.
 */
export function spentStep(chainId: string, changes: { id: string; amount: number }[], at: Date): WriteStep {
  return {
    name: 'campaigns_spent',
    query: sql`update campaigns c set spent = c.spent + s.amount, updated_at = ${at}
      from (select id from campaigns where chain_id = ${chainId} and id = any(${changes.map((s) => s.id)}::uuid[]) and budget is not null
        order by id for update) l,
        jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as s(id uuid, amount bigint)
      where c.chain_id = ${chainId} and c.id = l.id and s.id = l.id returning c.id, c.spent, c.budget`,
  };
}

/** A campaign whose `spent` is not what the ledger's entries naming it add up to. */
export interface SpentDifference {
  chain_id: string;
  campaign_id: string;
  stored: number;
  ledger: number;
}

/** Every budgeted campaign's `spent` against the sum of the ledger entries naming it (credits less what reversals took back). */
export async function spentDifferences(db: Db, chainId?: string): Promise<SpentDifference[]> {
  const { rows } = await sql<SpentDifference>`
    select c.chain_id, c.id as campaign_id, c.spent::bigint as stored, coalesce(l.total, 0)::bigint as ledger from campaigns c
    left join (select chain_id, campaign_id, sum(cashback + stamps) as total from ledger_entries where campaign_id is not null group by chain_id, campaign_id) l
      on l.chain_id = c.chain_id and l.campaign_id = c.id
    where c.budget is not null and c.spent <> coalesce(l.total, 0) ${chainId ? sql`and c.chain_id = ${chainId}` : sql``}
    order by c.chain_id, c.id`.execute(db);
  return rows.map((r) => ({ ...r, stored: Number(r.stored), ledger: Number(r.ledger) }));
}

export interface ResultFigures {
  credits: number;
  credited: number;
  members_reached: number;
  checks: number;
  spend: number;
}

/**
 * A campaign's results in one statement: its ledger entries by member (the campaign index serves them), and the
 * checks those members closed in [from, to) at its venues (to null: from on), written once the campaign had reached
 * them (the check its first credit came with included; a referrer's checks before the friend came not), by the
 * member index.
 */
export async function resultFigures(db: Db, row: CampaignRow, from: Date, to: Date | null): Promise<ResultFigures> {
  const { rows } = await sql<{ [K in keyof ResultFigures]: string | number }>`
    with reached as (
      select member_id, count(*) filter (where cashback + stamps > 0) as credits, sum(cashback + stamps) as credited,
        min(created_at) filter (where cashback + stamps > 0) as reached_at
      from ledger_entries where chain_id = ${row.chain_id} and campaign_id = ${row.id}
      group by member_id
    ), checks as (
      select count(*) as checks, coalesce(sum(t.paid - t.refunded_amount), 0) as spend
      from reached r join transactions t on t.chain_id = ${row.chain_id} and t.member_id = r.member_id
      where r.credits > 0 and t.created_at >= r.reached_at and t.status = 'completed' and t.livemode = ${row.livemode}
        and coalesce(t.closed_at, t.created_at) >= ${from} ${to ? sql`and coalesce(t.closed_at, t.created_at) < ${to}` : sql``}
        ${row.venue_ids ? sql`and t.venue_id = any(${row.venue_ids}::uuid[])` : sql``}
    )
    select coalesce(sum(r.credits), 0) as credits, coalesce(sum(r.credited), 0) as credited,
      count(*) filter (where r.credits > 0) as members_reached, c.checks, c.spend
    from checks c left join reached r on true
    group by c.checks, c.spend`.execute(db);
  const r = rows[0]!;
  return { credits: Number(r.credits), credited: Number(r.credited), members_reached: Number(r.members_reached), checks: Number(r.checks), spend: Number(r.spend) };
}
