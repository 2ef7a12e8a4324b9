// SQL for transactions (applied checks) and refunds.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RefundsTable, TransactionsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type TransactionRow = Selectable<TransactionsTable>;
export type RefundRow = Selectable<RefundsTable>;

/**
 * Holds the external id for the rest of the transaction, in every register scope at once: the same check sent
 * twice at once, even through keys that number checks differently, is applied once.
 */
export async function lockExternalId(trx: Db, venueId: string, externalId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${venueId}:${externalId}`}, 0))`.execute(trx);
}

/**
 * The transaction with this external id in the register scope `registerKey`; else the one applied under another
 * numbering for the same register (a check applied per venue that named the register, or per register by a key
 * that numbered so), so a check stays found when the venue changes how it numbers checks.
 */
export async function findTransaction(db: Db, venueId: string, registerKey: string, registerId: string | undefined | null, externalId: string, forUpdate = false) {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('external_id', '=', externalId)
    .where((eb) => (registerId ? eb.or([eb('register_key', '=', registerKey), eb('register_id', '=', registerId)]) : eb('register_key', '=', registerKey)))
    .orderBy(sql`register_key = ${registerKey}`, 'desc')
    .limit(1)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** What a member's checks of one venue day earned, net of what their voids and refunds took back. */
export async function earnedOnDay(db: Db, venueId: string, memberId: string, day: string, excludeId?: string): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(sql`earned - earned_reversed`), sql<number>`0`).as('net'))
    .where('venue_id', '=', venueId)
    .where('member_id', '=', memberId)
    .where('venue_day', '=', day)
    .$if(excludeId !== undefined, (q) => q.where('id', '<>', excludeId!))
    .executeTakeFirstOrThrow();
  return Number(row.net);
}

export async function insertTransaction(db: Db, row: Insertable<TransactionsTable>): Promise<TransactionRow> {
  return db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listTransactions(db: Db, venueId: string, page: Page, filter: { memberId?: string; status?: string }) {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('venue_id', '=', venueId)
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .$if(filter.memberId !== undefined, (q) => q.where('member_id', '=', filter.memberId!))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status as 'completed'))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export async function transactionIdExists(db: Db, venueId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('transactions').select('id').where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Marks a check voided: everything it earned is taken back and everything it redeemed given back. */
export async function markVoided(db: Db, venueId: string, id: string, at: Date, display: unknown): Promise<TransactionRow> {
  return db
    .updateTable('transactions')
    .set((eb) => ({
      status: 'voided',
      voided_at: at,
      earned_reversed: eb.ref('earned'),
      redeemed_returned: eb.ref('redeemed'),
      display: JSON.stringify(display),
    }))
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addRefund(
  db: Db,
  venueId: string,
  id: string,
  refund: { amount: number; earnedBack: number; redeemedBack: number },
): Promise<TransactionRow> {
  return db
    .updateTable('transactions')
    .set((eb) => ({
      refunded_amount: eb('refunded_amount', '+', refund.amount),
      earned_reversed: eb('earned_reversed', '+', refund.earnedBack),
      redeemed_returned: eb('redeemed_returned', '+', refund.redeemedBack),
    }))
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findRefund(db: Db, venueId: string, transactionId: string, externalId: string): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('transaction_id', '=', transactionId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function insertRefund(db: Db, row: Insertable<RefundsTable>): Promise<RefundRow> {
  return db.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Records a hold captured into an applied check: what it now redeems, earns and was paid. */
export async function recordCapture(
  db: Db,
  venueId: string,
  id: string,
  change: { redeemed: number; earned: number; earnCapped: boolean; paid: number; holdId: string; lineItems: unknown[]; display: unknown },
): Promise<TransactionRow> {
  return db
    .updateTable('transactions')
    .set({
      redeemed: change.redeemed,
      earned: change.earned,
      earn_capped: change.earnCapped,
      paid: change.paid,
      hold_id: change.holdId,
      line_items: JSON.stringify(change.lineItems),
      display: JSON.stringify(change.display),
    })
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
