// SQL for transactions (applied checks) and refunds.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import { inReach } from '../../db/reach.js';
import { asNumber, type Read, type ValueOrRef, type WriteStep } from '../../db/statement.js';
import type { CheckCampaign, RefundsTable, TransactionsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import type { Place, Reach } from '../accounts/schemas.js';

export type TransactionRow = Selectable<TransactionsTable>;
export type RefundRow = Selectable<RefundsTable>;

/**
 * The transaction with this external id in the register scope `registerKey`; else the one applied under another
 * numbering for the same register (a check applied per venue that named the register, or per register by a key
 * that numbered so), so a check stays found when the venue changes how it numbers checks.
 */
function lookup(chainId: string, venueId: string, registerKey: string, registerId: string | undefined | null, externalId: string, lock = false) {
  // SQL text, not the query builder: every check, capture and reversal builds it, and the builder costs more CPU.
  // `not numbered_twice` names the partial index's condition, so each side of the `or` reads its own index's few
  // entries; without it the look-up walked every check of the venue. A check numbered twice (before migration 0012)
  // has a twin under the other numbering, and the one of the caller's numbering matches `register_key` as before.
  const register = registerId
    ? sql`(register_key = ${registerKey} or (register_id = ${registerId} and not numbered_twice))`
    : sql`register_key = ${registerKey}`;
  return sql<TransactionRow>`select * from transactions where chain_id = ${chainId} and venue_id = ${venueId} and external_id = ${externalId}
    and ${register} order by register_key = ${registerKey} desc limit 1${lock ? sql` for update` : sql``}`;
}

export type TransactionKey = [chainId: string, venueId: string, registerKey: string, registerId: string | undefined | null, externalId: string];

export async function findTransaction(db: Db, key: TransactionKey, forUpdate = false): Promise<TransactionRow | undefined> {
  const [row] = (await lookup(...key, forUpdate).execute(db)).rows;
  return row;
}

/** A transaction's row read back from JSON (a read of a gather, or read alongside a lock). */
export function transactionFromJson(value: unknown): TransactionRow | null {
  if (value === null || value === undefined) return null;
  const row = value as TransactionRow;
  return { ...row, created_at: new Date(row.created_at), closed_at: row.closed_at && new Date(row.closed_at), voided_at: row.voided_at && new Date(row.voided_at) };
}

/** The transaction as one JSON value, to be read in the statement that locks the member. */
export function transactionJson(db: Db, key: TransactionKey) {
  return sql<unknown>`(select to_jsonb(t) from (${lookup(...key)}) t)`;
}

/** The transaction as a read of a gather. */
export function transactionRead(db: Db, key: TransactionKey): Read<TransactionRow | null> {
  return { query: transactionJson(db, key), parse: transactionFromJson };
}

/** The id of the transaction's member, as a scalar sub-query (to lock the member first). */
export function memberOfTransaction(db: Db, key: TransactionKey) {
  return sql<string | null>`(select t.member_id from (${lookup(...key)}) t)`;
}

/**
 * What a member's checks of one day earned across the chain, net of what their voids and refunds took back; `of`
 * instead of a day: the day of that transaction, leaving it out. Each check stores the day of the venue where it
 * happened, so the cap counts the member's checks at every venue whose local day is this one (D21): a counter on the
 * member would reset whenever they crossed between time zones.
 */
export function earnedOnDay(db: Db, chainId: string, memberId: ValueOrRef<string>, day: string | { of: TransactionKey }): Read<number> {
  const query =
    typeof day === 'string'
      ? sql`select coalesce(sum(earned - earned_reversed), 0) from transactions
          where chain_id = ${chainId} and member_id = ${memberId} and venue_day = ${day}`
      : sql`select coalesce(sum(x.earned - x.earned_reversed), 0) from transactions x, (${lookup(...day.of)}) t
          where x.chain_id = ${chainId} and x.member_id = ${memberId} and x.venue_day = t.venue_day and x.id <> t.id`;
  return { query, parse: asNumber };
}

/** What the check's redemption still has from each cashback lot, as the column's JSON (null: from no lot). */
const lotsJson = (row: TransactionRow) => (row.redeemed_lots ? JSON.stringify(row.redeemed_lots) : null);

/** A new transaction, as the step of the check's write (a duplicate meets the external-id constraints). */
export function insertStep(db: Db, row: TransactionRow): WriteStep {
  return {
    name: 'inserted_transaction',
    query: db.insertInto('transactions').values({
      ...row,
      line_items: JSON.stringify(row.line_items),
      display: JSON.stringify(row.display),
      redeemed_lots: lotsJson(row),
      campaigns: JSON.stringify(row.campaigns),
      metadata: row.metadata ? JSON.stringify(row.metadata) : null,
    }),
  };
}

/** Records a hold captured into an applied check, as the step of the capture's write. */
export function captureStep(db: Db, row: TransactionRow): WriteStep {
  return {
    name: 'captured_transaction',
    query: db
      .updateTable('transactions')
      .set({
        redeemed: row.redeemed,
        earned: row.earned,
        earn_capped: row.earn_capped,
        stamps_earned: row.stamps_earned,
        visit_min_paid: row.visit_min_paid,
        paid: row.paid,
        hold_id: row.hold_id,
        redeemed_lots: lotsJson(row),
        line_items: JSON.stringify(row.line_items),
        display: JSON.stringify(row.display),
        campaigns: JSON.stringify(row.campaigns),
      })
      .where('chain_id', '=', row.chain_id)
      .where('venue_id', '=', row.venue_id)
      .where('id', '=', row.id),
  };
}

export async function listTransactions(db: Db, reach: Reach, page: Page, filter: { memberId?: string; status?: string }) {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where(inReach(reach))
    .$if(filter.memberId !== undefined, (q) => q.where('member_id', '=', filter.memberId!))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status as 'completed'))
    .$call(keysetPage(page))
    .execute();
}

export async function replaceDisplay(db: Db, place: Place, id: string, display: TransactionRow['display']): Promise<void> {
  await db
    .updateTable('transactions')
    .set({ display: JSON.stringify(display) })
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('id', '=', id)
    .execute();
}

export async function transactionIdExists(db: Db, reach: Reach, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('transactions')
    .select('id')
    .where(inReach(reach))
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks a check voided (everything it earned taken back, everything it redeemed given back): a step of the void's write. */
export function voidStep(db: Db, row: TransactionRow): WriteStep {
  return {
    name: 'voided_transaction',
    query: db
      .updateTable('transactions')
      .set({
        status: 'voided',
        voided_at: row.voided_at,
        earned_reversed: row.earned_reversed,
        redeemed_returned: row.redeemed_returned,
        redeemed_lots: lotsJson(row),
        visit_min_paid: null,
        display: JSON.stringify(row.display),
        campaigns: JSON.stringify(row.campaigns),
      })
      .where('chain_id', '=', row.chain_id)
      .where('venue_id', '=', row.venue_id)
      .where('id', '=', row.id),
  };
}

/** The refund's row and what it adds to its check's refunded and reversed amounts: steps of the refund's write. */
export function refundSteps(
  db: Db,
  row: RefundRow,
  change: { amount: number; earnedBack: number; redeemedBack: number; redeemedLots: Record<string, number> | null; visitBack: boolean; campaigns: CheckCampaign[] },
): WriteStep[] {
  return [
    { name: 'inserted_refund', query: db.insertInto('refunds').values({ ...row, campaigns_reversed: JSON.stringify(row.campaigns_reversed) }) },
    {
      name: 'refunded_transaction',
      query: db
        .updateTable('transactions')
        .set((eb) => ({
          refunded_amount: eb('refunded_amount', '+', change.amount),
          earned_reversed: eb('earned_reversed', '+', change.earnedBack),
          redeemed_returned: eb('redeemed_returned', '+', change.redeemedBack),
          redeemed_lots: change.redeemedLots ? JSON.stringify(change.redeemedLots) : null,
          campaigns: JSON.stringify(change.campaigns),
          ...(change.visitBack ? { visit_min_paid: null } : {}),
        }))
        .where('chain_id', '=', row.chain_id)
        .where('venue_id', '=', row.venue_id)
        .where('id', '=', row.transaction_id),
    },
  ];
}

/** A page of the refunds of the member's checks at every venue of the chain, newest first, `limit + 1` to tell whether more exist. */
export async function listMemberRefunds(db: Db, chainId: string, memberId: string, page: Page) {
  return db
    .selectFrom('refunds as r')
    .innerJoin('transactions as t', (j) => j.onRef('t.chain_id', '=', 'r.chain_id').onRef('t.id', '=', 'r.transaction_id'))
    .selectAll('r')
    .select('t.external_id as transaction_external_id')
    .where('r.chain_id', '=', chainId)
    .where('t.member_id', '=', memberId)
    .$call(keysetPage(page, 'r.id'))
    .execute();
}

export async function findRefund(db: Db, chainId: string, transactionId: string, externalId: string): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('transaction_id', '=', transactionId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

/** The refund of the transaction `key` names with this external id, as a read of a gather. */
export function refundRead(db: Db, key: TransactionKey, externalId: string): Read<RefundRow | null> {
  return {
    query: sql`(select to_jsonb(r) from refunds r, (${lookup(...key)}) t
      where r.chain_id = t.chain_id and r.transaction_id = t.id and r.external_id = ${externalId})`,
    parse: (value) => (value ? { ...(value as RefundRow), created_at: new Date((value as RefundRow).created_at) } : null),
  };
}
