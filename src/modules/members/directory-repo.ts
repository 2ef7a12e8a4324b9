// SQL of the members directory (D27): a chain's members filtered, searched, sorted and paged by keyset.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';

export type MemberSort = 'newest' | 'name' | 'last_visit' | 'balance' | 'spend';

/** The members a search term finds: exactly by card, serial, phone or e-mail, or by every word in their name. */
export interface Search {
  /** The term as given (trimmed): a card number or serial. */
  code: string;
  phone?: string;
  email?: string;
  /** The words of the term as given; the query lower-cases, unaccents and escapes them. */
  words: string[];
}

/** The members of one program at one level: their level spend in [min, below), or set to it by hand (VIP). */
export interface LevelBand {
  programId: string;
  spendColumn: 'spend' | 'level_spend';
  min: number | null;
  below: number | null;
  /** VIP: a level set by hand wins when it names one of the program's levels (`names`), so it is this one or none. */
  vipLevel?: { name: string; names: string[] };
}

export interface MemberFilter {
  programId?: string;
  phone?: string;
  livemode?: boolean;
  homeVenueId?: string;
  /** Undefined: any level; empty: no member (no program has the level). */
  levels?: LevelBand[];
  lastVisitAfter?: Date;
  lastVisitBefore?: Date;
  search?: Search;
  sort: MemberSort;
}

/** The ordering of each sort, all one direction so that a row comparison pages it; the id breaks ties. */
const SORTS: Record<MemberSort, { keys: RawBuilder<unknown>[]; direction: 'asc' | 'desc' }> = {
  newest: { keys: [], direction: 'desc' },
  // The expressions of index members_by_name (migration 0039); members without a name last.
  name: { keys: [sql`(m.name is null)`, sql`coalesce(m.name_key, '')`], direction: 'asc' },
  last_visit: { keys: [sql`coalesce(m.last_visit_at, '-infinity'::timestamptz)`], direction: 'desc' },
  balance: { keys: [sql`m.cashback`], direction: 'desc' },
  spend: { keys: [sql`m.spend`], direction: 'desc' },
};

/**
 * The ids of one page of the chain's members (limit + 1, so the caller knows whether more follow). A search first
 * gathers the members it finds (a materialised CTE, each marked exact or by name), then filters and sorts only
 * those: a plan that stays small whatever the planner knows (the embedded database keeps no statistics).
 */
export async function listMemberIds(db: Db, chainId: string, filter: MemberFilter, page: { limit: number; startingAfter?: string }): Promise<string[]> {
  const { keys, direction } = SORTS[filter.sort];
  const search = filter.search;
  // Exact matches first: their rank sorts before the name matches' in the sort's direction.
  const rank = search ? [direction === 'asc' ? sql`(case when f.exact then 0 else 1 end)` : sql`(case when f.exact then 1 else 0 end)`] : [];
  const order = [...rank, ...keys, sql`m.id`];
  const tuple = sql.join(order);
  const found = search ? sql`join found f on f.id = m.id` : sql``;
  const after = page.startingAfter
    ? sql`and (${tuple}) ${sql.raw(direction === 'asc' ? '>' : '<')} (select ${tuple} from members m ${search ? sql`left ${found}` : sql``}
        where m.chain_id = ${chainId} and m.id = ${page.startingAfter})`
    : sql``;
  const { rows } = await sql<{ id: string }>`${search ? sql`with found as materialized (${foundIds(chainId, search)}) ` : sql``}
    select m.id from members m ${found}
    where m.chain_id = ${chainId} and m.erased_at is null ${conditions(filter)} ${after}
    order by ${sql.join(order.map((key) => sql`${key} ${sql.raw(direction)}`))}
    limit ${page.limit + 1}`.execute(db);
  return rows.map((r) => r.id);
}

/** Each member a search finds once, `exact` when a card, serial, phone or e-mail is the term. */
function foundIds(chainId: string, s: Search): RawBuilder<unknown> {
  const exact = [
    sql`select c.member_id as id from member_cards c where c.chain_id = ${chainId} and c.card_number = ${s.code}`,
    sql`select s.id from members s where s.chain_id = ${chainId} and s.serial = ${s.code}`,
    ...(s.phone ? [sql`select s.id from members s where s.chain_id = ${chainId} and s.phone = ${s.phone}`] : []),
    ...(s.email ? [sql`select s.id from members s where s.chain_id = ${chainId} and s.email = ${s.email}`] : []),
  ];
  return sql`select id, bool_or(exact) as exact from (
      ${sql.join([...exact.map((q) => sql`select id, true as exact from (${q}) e`), sql`select id, false from (${nameMatches(chainId, s.words)}) n`], sql` union all `)}
    ) a group by id`;
}

function conditions(f: MemberFilter): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (f.programId !== undefined) parts.push(sql`m.program_id = ${f.programId}`);
  if (f.phone !== undefined) parts.push(sql`m.phone = ${f.phone}`);
  if (f.livemode !== undefined) parts.push(sql`m.livemode = ${f.livemode}`);
  if (f.homeVenueId !== undefined) parts.push(sql`m.home_venue_id = ${f.homeVenueId}`);
  if (f.lastVisitAfter) parts.push(sql`m.last_visit_at >= ${f.lastVisitAfter}`);
  if (f.lastVisitBefore) parts.push(sql`m.last_visit_at < ${f.lastVisitBefore}`);
  if (f.levels) parts.push(f.levels.length === 0 ? sql`false` : sql`(${sql.join(f.levels.map(atLevel), sql` or `)})`);
  return sql.join(parts.map((p) => sql`and ${p}`), sql` `);
}

/** Members whose name holds every word, through the trigram index members_name_search. */
function nameMatches(chainId: string, words: string[]): RawBuilder<unknown> {
  const name = sql`s.name_key`;
  // Escaped after unaccenting: unaccent turns look-alikes (a full-width ％, ＿ or ＼) into LIKE's own characters.
  const pattern = (word: string) => sql`'%' || replace(replace(replace(lower(f_unaccent(${word})), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
  return sql`select s.id from members s where s.chain_id = ${chainId} and s.erased_at is null
    and ${sql.join(words.map((w) => sql`${name} like ${pattern(w)}`), sql` and `)}`;
}

function atLevel(band: LevelBand): RawBuilder<unknown> {
  const spend = sql.ref(`m.${band.spendColumn}`);
  const bySpend = sql.join(
    [
      sql`m.program_id = ${band.programId}`,
      ...(band.min !== null ? [sql`${spend} >= ${band.min}`] : []),
      ...(band.below !== null ? [sql`${spend} < ${band.below}`] : []),
      ...(band.vipLevel ? [sql`(m.vip_level is null or not (m.vip_level = any(${band.vipLevel.names}::text[])))`] : []),
    ],
    sql` and `,
  );
  return band.vipLevel ? sql`((${bySpend}) or (m.program_id = ${band.programId} and m.vip_level = ${band.vipLevel.name}))` : sql`(${bySpend})`;
}
