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
 * Names the check of the entries written before. An entry's candidates: the member's checks at its venue numbered as
 * its reference (a check's, its void's and a later capture's entries), the refund of that number written at the same
 * instant (a refund's), and for a referee's referral credit the check written or voided at that instant. One
 * candidate at the entry's own instant wins; else a single candidate at all. Where two registers numbered a check of
 * the member alike and neither instant decides, the entry stays a row of its own. Exported for its test; running it
 * again names only what is still unnamed.
 */
export async function nameChecksOfEntries(db: Kysely<any>): Promise<void> {
  await sql`with candidates as (
      select e.chain_id, e.id, t.id as check_id, (t.created_at = e.created_at or t.voided_at = e.created_at) as same_instant
      from ledger_entries e
      join transactions t on t.chain_id = e.chain_id and t.venue_id = e.venue_id and t.member_id = e.member_id and t.external_id = e.reference
      where e.transaction_id is null and e.kind in ${CHECK_KINDS}
      union all
      select e.chain_id, e.id, r.transaction_id, true
      from ledger_entries e
      join refunds r on r.chain_id = e.chain_id and r.venue_id = e.venue_id and r.external_id = e.reference and r.created_at = e.created_at
      join transactions t on t.chain_id = r.chain_id and t.id = r.transaction_id and t.member_id = e.member_id
      where e.transaction_id is null and e.kind in ${CHECK_KINDS}
      union all
      select e.chain_id, e.id, t.id, true
      from ledger_entries e
      join transactions t on t.chain_id = e.chain_id and t.venue_id = e.venue_id and t.member_id = e.member_id
        and (t.created_at = e.created_at or t.voided_at = e.created_at)
      where e.transaction_id is null and e.kind = 'campaign' and e.reference = 'referral-' || e.member_id::text
    ), chosen as (
      select chain_id, id, coalesce(
          case when count(distinct check_id) filter (where same_instant) = 1 then min(check_id::text) filter (where same_instant) end,
          case when count(distinct check_id) = 1 then min(check_id::text) end)::uuid as check_id
      from candidates group by chain_id, id
    )
    update ledger_entries e set transaction_id = c.check_id from chosen c
    where e.chain_id = c.chain_id and e.id = c.id and c.check_id is not null`.execute(db);
}
