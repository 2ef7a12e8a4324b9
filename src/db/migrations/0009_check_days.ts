// Each check's venue day (the per-day cap counts by it), what its voids and refunds took back so far, and each
// stored line's rule_source (for lines stored before it existed: the best reading of sku and category).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('venue_day', 'date')
    .addColumn('earned_reversed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('redeemed_returned', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update transactions t set venue_day = (coalesce(t.closed_at, t.created_at) at time zone v.timezone)::date
    from venues v where v.venue_id = t.venue_id`.execute(db);
  await sql`
    update transactions t set
      earned_reversed = case when t.status = 'voided' then t.earned else coalesce(r.earned, 0) end,
      redeemed_returned = case when t.status = 'voided' then t.redeemed else coalesce(r.redeemed, 0) end
    from (select venue_id, transaction_id, sum(earned_reversed) as earned, sum(redeemed_returned) as redeemed
          from refunds group by venue_id, transaction_id) r
    where r.venue_id = t.venue_id and r.transaction_id = t.id`.execute(db);
  await sql`update transactions set earned_reversed = earned, redeemed_returned = redeemed where status = 'voided'`.execute(db);
  await sql`
    update transactions t set line_items = (
      select jsonb_agg(l || jsonb_build_object('rule_source',
        case when l->>'category' is null then 'default' when l->>'sku' is not null then 'product' else 'category' end))
      from jsonb_array_elements(t.line_items) l)`.execute(db);
  await db.schema.alterTable('transactions').alterColumn('venue_day', (c) => c.setNotNull()).execute();
  await db.schema
    .createIndex('transactions_member_day_idx')
    .on('transactions')
    .columns(['venue_id', 'member_id', 'venue_day'])
    .where(sql.ref('member_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('transactions_member_day_idx').execute();
  await db.schema.alterTable('transactions').dropColumn('venue_day').dropColumn('earned_reversed').dropColumn('redeemed_returned').execute();
}
