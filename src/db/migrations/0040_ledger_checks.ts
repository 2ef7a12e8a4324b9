// A ledger entry names the check it belongs to (issue 41, D27): a member's activity groups a check's entries, its
// void's and its refunds' under the check, which a reference alone cannot do (two registers may number a check alike,
// and a refund's reference is its own number).
import { sql, type Kysely } from 'kysely';

/** The kinds a check's write, its void and its refunds write for its member (flows/checks). */
const CHECK_KINDS = sql`('check', 'earn', 'earn_reversal', 'redemption', 'redemption_reversal', 'campaign', 'void', 'refund')`;

export async function up(db: Kysely<any>): Promise<void> {
  // No foreign key: the check path would pay its check on every entry, and the entries are written with the check.
  await sql`alter table ledger_entries add column transaction_id uuid`.execute(db);
  await nameChecksOfEntries(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ledger_entries drop column transaction_id`.execute(db);
}

/**
 * Names the check of the entries written before: a check's, its void's and its refunds' entries are written in one
 * statement with the row that records them, at the same instant, so that instant with the member and venue finds
 * them. Exported for its test.
 */
export async function nameChecksOfEntries(db: Kysely<any>): Promise<void> {
  await sql`update ledger_entries e set transaction_id = t.id from transactions t
    where e.transaction_id is null and e.kind in ${CHECK_KINDS} and t.chain_id = e.chain_id and t.venue_id = e.venue_id and t.member_id = e.member_id
      and (t.created_at = e.created_at or t.voided_at = e.created_at)
      and e.reference = t.external_id`.execute(db);
  await sql`update ledger_entries e set transaction_id = t.id from refunds r
    join transactions t on t.chain_id = r.chain_id and t.id = r.transaction_id
    where e.transaction_id is null and e.kind in ${CHECK_KINDS} and r.chain_id = e.chain_id and r.venue_id = e.venue_id
      and t.member_id = e.member_id and r.created_at = e.created_at and e.reference = r.external_id`.execute(db);
}
