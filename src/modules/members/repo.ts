// SQL for members, their cards and their ledger.
import { sql, type Expression, type Insertable, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { builtOnce } from '../../db/built-once.js';
import { keysetPage } from '../../db/keyset.js';
import { asNumber, withClause, writeTogether, type Read, type ValueOrRef, type WriteStep } from '../../db/statement.js';
import type { LedgerEntriesTable, MembersTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import { lotsColumn, lotsFromJson } from './expiry-repo.js';
import type { Lot } from './expiry.js';

export type MemberRow = Selectable<MembersTable>;
export type LedgerRow = Selectable<LedgerEntriesTable>;

/** A member's row with its cards. */
export interface LockedMember extends MemberRow {
  card_numbers: string[];
}

/** A member with its cards and totals: everything a member's view is computed from. */
export interface MemberRecord extends LockedMember {
  /** Cashback in active holds that have not expired by `now`. */
  held: number;
  /** Open cashback lots, read only for a program that expires cashback (D20; expiry-service.ts settles them). */
  lots?: Lot[];
}

export type MemberMatch =
  | { by: 'id'; id: string }
  | { by: 'ids'; ids: string[] }
  | { by: 'card'; cardNumber: string }
  | { by: 'code'; code: string }
  | { by: 'phone'; phone: string }
  /** Trimmed and lower-cased, as stored. */
  | { by: 'email'; email: string }
  /** The member another row names: a scalar sub-query giving their id (a hold's, a transaction's). */
  | { by: 'named'; memberId: Expression<string | null> };

/**
 * The condition on members `m` that a match stands for. An erased member is found only through a row of theirs (a
 * check's, a hold's): nothing a guest or a till could give names them any more. SQL text, not the query builder:
 * every money request runs it, and the builder costs more CPU.
 */
function matching(chainId: string, match: MemberMatch): RawBuilder<boolean> {
  return match.by === 'named' ? naming(chainId, match) : sql<boolean>`${naming(chainId, match)} and m.erased_at is null`;
}

function naming(chainId: string, match: MemberMatch): RawBuilder<boolean> {
  switch (match.by) {
    case 'id':
      return sql`m.id = ${match.id}`;
    case 'ids':
      return sql`m.id = any(${match.ids}::uuid[])`;
    case 'phone':
      return sql`m.phone = ${match.phone}`;
    case 'email':
      return sql`m.email = ${match.email}`;
    case 'named':
      return sql`m.id = (${match.memberId})`;
    case 'card':
      return sql`m.id = (select c.member_id from member_cards c where c.chain_id = ${chainId} and c.card_number = ${match.cardNumber})`;
    case 'code':
      // Each alternative by its own index: "card or serial" as one condition makes PostgreSQL walk the chain's members.
      return sql`m.id in (select c.member_id from member_cards c where c.chain_id = ${chainId} and c.card_number = ${match.code}
        union all select s.id from members s where s.chain_id = ${chainId} and s.serial = ${match.code})`;
  }
}

const cardNumbers = sql<string[]>`coalesce((select array_agg(c.card_number order by c.created_at, c.card_number) from member_cards c
  where c.chain_id = m.chain_id and c.member_id = m.id), '{}')`;

const withNumbers = <R extends MemberRow>(r: R): R => ({
  ...r,
  cashback: Number(r.cashback),
  spend: Number(r.spend),
  visits: Number(r.visits),
  stamps: Number(r.stamps),
  level_spend: Number(r.level_spend),
});

/**
 * The member a match names with their cards, in one statement; with `lock`, their row is locked for the rest of the
 * transaction. `alongside` is read by the same statement, so with the snapshot of its start, before the lock was
 * granted: only what may be stale goes there. `before` are steps (CTEs) the statement runs first, and `outcome`
 * what the row reads of them (`key_outcome`).
 */
export async function matchingMember<A>(
  db: Db,
  chainId: string,
  match: MemberMatch,
  options: { lock: boolean; alongside?: Expression<A>; before?: WriteStep[]; outcome?: Expression<unknown> },
): Promise<(LockedMember & { alongside: A | null; key_outcome: unknown }) | undefined> {
  const { rows } = await sql<LockedMember & { alongside: A | null; key_outcome: unknown }>`${withClause(options.before ?? [])}
    select m.*, ${cardNumbers} as card_numbers, ${options.alongside ?? sql`null`} as alongside, ${options.outcome ?? sql`null`} as key_outcome
    from members m where m.chain_id = ${chainId} and ${matching(chainId, match)}
    order by m.id desc limit 1${options.lock ? sql` for update of m` : sql``}`.execute(db);
  const [row] = rows;
  return row && (withNumbers(row) as LockedMember & { alongside: A | null; key_outcome: unknown });
}

/**
 * What the member's active holds keep as of `now`, at every venue of the chain (their balance is one): read after
 * the member's lock, in the gather.
 */
export function heldRead(db: Db, chainId: string, memberId: ValueOrRef<string>, now: Date): Read<number> {
  return {
    query: db
      .selectFrom('holds as h')
      .select(sql`coalesce(sum(h.amount), 0)`.as('held'))
      .where('h.chain_id', '=', chainId)
      .where('h.member_id', '=', memberId)
      // 'active' written into the text: the plan PostgreSQL keeps is made without the values, and only a statement
      // that names 'active' itself can use the index of active holds.
      .where('h.status', '=', sql.lit('active'))
      .where('h.expires_at', '>', now),
    parse: asNumber,
  };
}

/** Members with their cards, totals and what active holds keep as of `now`, in one statement, newest first. */
export async function findMembers(db: Db, chainId: string, now: Date, match: MemberMatch, limit = 1, withLots = false): Promise<MemberRecord[]> {
  if (match.by === 'ids' && match.ids.length === 0) return [];
  const rows = match.by === 'ids' || match.by === 'named' ? await membersQuery(db, chainId, now, match, limit, withLots).execute() : await oneShape(db, chainId, now, match, limit, withLots);
  return rows.map(recordOf);
}

type MemberQueryRow = MemberRow & { card_numbers: string[]; held: number; lots?: unknown };
type ByValue = Extract<MemberMatch, { by: 'id' | 'card' | 'code' | 'phone' | 'email' }>;
const VALUE_OF = { id: 'id', card: 'cardNumber', code: 'code', phone: 'phone', email: 'email' } as const;
const shapes = new Map<string, (db: Db, values: { chainId: string; now: Date; value: string; limit: number }) => Promise<MemberQueryRow[]>>();

/** A look-up by one value (the hot path: a till's look-up by card, a member by id), its statement built once per shape. */
function oneShape(db: Db, chainId: string, now: Date, match: ByValue, limit: number, withLots: boolean): Promise<MemberQueryRow[]> {
  const shape = `${match.by}${withLots ? '+lots' : ''}`;
  let run = shapes.get(shape);
  if (!run) {
    run = builtOnce((db: Db, v: { chainId: string; now: Date; value: string; limit: number }) =>
      membersQuery(db, v.chainId, v.now, { by: match.by, [VALUE_OF[match.by]]: v.value } as ByValue, v.limit, withLots),
    );
    shapes.set(shape, run);
  }
  return run(db, { chainId, now, value: (match as Record<string, string>)[VALUE_OF[match.by]]!, limit });
}

/** A member record as read by membersQuery, numbers as numbers. */
export function recordOf(row: MemberRow & { card_numbers: string[]; held: number; lots?: unknown }): MemberRecord {
  const { lots, ...rest } = row;
  return { ...withNumbers(rest), held: Number(row.held), ...(lots === undefined ? {} : { lots: lotsFromJson(lots) }) };
}

/**
 * The query behind findMembers, for a statement that does more (a scan that records itself); `withLots` reads
 * their open cashback lots along (a chain whose programs expire cashback).
 */
export function membersQuery(db: Db, chainId: string, now: Date, match: MemberMatch, limit = 1, withLots = false) {
  return db
    .selectFrom('members as m')
    .selectAll('m')
    .select([
      cardNumbers.as('card_numbers'),
      sql<number>`coalesce((select sum(h.amount) from holds h where h.chain_id = m.chain_id and h.member_id = m.id
        and h.status = 'active' and h.expires_at > ${now}), 0)`.as('held'),
    ])
    .$if(withLots, (q) => q.select(lotsColumn.as('lots')))
    .where('m.chain_id', '=', chainId)
    .where(matching(chainId, match))
    .orderBy('m.id', 'desc')
    .limit(limit);
}

/** Whether the chain has (or had: erased members count) a member of this id: a list cursor may name them. */
export async function memberExists(db: Db, chainId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('members').select('id').where('chain_id', '=', chainId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The member of the chain (erased or not: an erased member holds no e-mail) with this e-mail, as stored, other than `exceptMemberId`. */
export async function memberWithEmail(db: Db, chainId: string, email: string, exceptMemberId?: string): Promise<string | undefined> {
  let query = db.selectFrom('members').select('id').where('chain_id', '=', chainId).where('email', '=', email);
  if (exceptMemberId) query = query.where('id', '<>', exceptMemberId);
  return (await query.executeTakeFirst())?.id;
}

/** Inserts the member unless its serial is taken; undefined then, so the caller draws another. */
export async function insertMember(db: Db, row: Insertable<MembersTable>): Promise<MemberRow | undefined> {
  // Any key taken (the serial or the referral code drawn): undefined, and the caller draws again.
  return db.insertInto('members').values(row).onConflict((oc) => oc.doNothing()).returningAll().executeTakeFirst();
}

/** The member of the chain and mode whose referral code this is (any case), unless erased. */
export async function memberOfReferralCode(db: Db, chainId: string, code: string, livemode: boolean): Promise<string | undefined> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('referral_code', '=', code.trim().toUpperCase())
    .where('livemode', '=', livemode)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

/** Of `codes`, those that are the serial of a member of the chain other than `exceptMemberId`. */
export async function serialsAmong(db: Db, chainId: string, codes: string[], exceptMemberId?: string): Promise<string[]> {
  if (codes.length === 0) return [];
  let query = db.selectFrom('members').select('serial').where('chain_id', '=', chainId).where('serial', 'in', codes);
  if (exceptMemberId) query = query.where('id', '<>', exceptMemberId);
  return (await query.execute()).map((r) => r.serial);
}

/** Attaches the card unless the chain already has it; false then. */
export async function insertCard(db: Db, chainId: string, memberId: string, cardNumber: string): Promise<boolean> {
  const row = await db
    .insertInto('member_cards')
    .values({ chain_id: chainId, member_id: memberId, card_number: cardNumber })
    .onConflict((oc) => oc.columns(['chain_id', 'card_number']).doNothing())
    .returning('card_number')
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateMember(db: Db, chainId: string, id: string, changes: Updateable<MembersTable>): Promise<void> {
  await db.updateTable('members').set(changes).where('chain_id', '=', chainId).where('id', '=', id).execute();
}

/**
 * The steps of a write that insert ledger rows (`ledger_rows`) and add them to their members' totals in the same
 * statement, so the two can never part. All rows are of one chain.
 */
export function ledgerSteps(
  db: Db,
  chainId: string,
  rows: Insertable<LedgerEntriesTable>[],
  member: { window?: { spend: number; leavesAt: Date | null }; visitedAt?: Date } = {},
): WriteStep[] {
  if (rows.length === 0) return [];
  // A windowed program's level spend (members/levels.ts) and a check's visit, in the same update: the rows are of
  // one member then.
  const { window: level } = member;
  // A check's write names when it closed; a visit (POST /v1/visits) is its own entry's time.
  const visit = rows.find((r) => r.kind === 'visit')?.created_at;
  const visitedAt = member.visitedAt ?? (visit instanceof Date ? visit : undefined);
  const window = sql.join(
    [
      ...(level ? [sql`level_spend = m.level_spend + ${level.spend}`, sql`level_leaves_at = least(m.level_leaves_at, ${level.leavesAt}::timestamptz)`] : []),
      // greatest() skips a null: a check closed before the last visit leaves it.
      ...(visitedAt ? [sql`last_visit_at = greatest(m.last_visit_at, ${visitedAt}::timestamptz)`] : []),
    ].map((set) => sql`, ${set}`),
    sql``,
  );
  return [
    { name: 'ledger_rows', query: db.insertInto('ledger_entries').values(rows).returningAll() },
    {
      name: 'ledger_totals',
      query: sql`update members m set cashback = m.cashback + s.cashback, spend = m.spend + s.spend,
          visits = m.visits + s.visits, stamps = m.stamps + s.stamps${window}
        from (select member_id, sum(cashback) as cashback, sum(spend) as spend, sum(visits) as visits, sum(stamps) as stamps
              from ledger_rows group by member_id) s
        where m.chain_id = ${chainId} and m.id = s.member_id`,
    },
  ];
}

export async function insertLedgerEntries(db: Db, chainId: string, rows: Insertable<LedgerEntriesTable>[]): Promise<LedgerRow[]> {
  return writeTogether<LedgerRow>(db, ledgerSteps(db, chainId, rows), 'ledger_rows');
}

export interface TotalsDifference {
  chain_id: string;
  member_id: string;
  field: 'cashback' | 'spend' | 'visits' | 'stamps';
  stored: number;
  ledger: number;
}

/** Members whose stored totals differ from the sums of their ledger rows (all chains, or one). */
export async function totalsDifferences(db: Db, chainId?: string): Promise<TotalsDifference[]> {
  const { rows } = await sql<TotalsDifference>`
    with sums as (
      select chain_id, member_id, sum(cashback) as cashback, sum(spend) as spend, sum(visits) as visits, sum(stamps) as stamps
      from ledger_entries ${chainId ? sql`where chain_id = ${chainId}` : sql``} group by chain_id, member_id
    ), totals as (
      select m.chain_id, m.id as member_id, f.field, f.stored, f.ledger
      from members m left join sums l on l.chain_id = m.chain_id and l.member_id = m.id
      cross join lateral (values
        ('cashback', m.cashback, coalesce(l.cashback, 0)),
        ('spend', m.spend, coalesce(l.spend, 0)),
        ('visits', m.visits::bigint, coalesce(l.visits, 0)),
        ('stamps', m.stamps::bigint, coalesce(l.stamps, 0))) as f(field, stored, ledger)
      ${chainId ? sql`where m.chain_id = ${chainId}` : sql``}
    )
    select chain_id, member_id, field, stored::bigint as stored, ledger::bigint as ledger from totals
    where stored <> ledger order by chain_id, member_id, field`.execute(db);
  return rows.map((r) => ({ ...r, stored: Number(r.stored), ledger: Number(r.ledger) }));
}

export async function listLedger(db: Db, chainId: string, memberId: string, page: Page): Promise<LedgerRow[]> {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('member_id', '=', memberId)
    .$call(keysetPage(page))
    .execute();
}

export async function ledgerEntryExists(db: Db, chainId: string, memberId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('member_id', '=', memberId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

