// Each member's totals kept on their row, written with the ledger rows that move them; the ledger stays the truth.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('members')
    .addColumn('cashback', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('spend', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('visits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stamps', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update members m set cashback = l.cashback, spend = l.spend, visits = l.visits, stamps = l.stamps
    from (select venue_id, member_id, sum(cashback) as cashback, sum(spend) as spend, sum(visits) as visits, sum(stamps) as stamps
          from ledger_entries group by venue_id, member_id) l
    where l.venue_id = m.venue_id and l.member_id = m.id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').dropColumn('cashback').dropColumn('spend').dropColumn('visits').dropColumn('stamps').execute();
}
