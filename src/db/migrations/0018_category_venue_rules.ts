// A venue's own money rules for one of its chain's categories (D21): where a row exists, it wins over the chain's rule
// at that venue, whole (earns, payable and percent together), so what a line gets is one rule, never a mix of two.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table category_venue_rules (
    chain_id uuid not null,
    venue_id uuid not null,
    category_id uuid not null,
    earns_cashback boolean not null,
    payable_with_cashback boolean not null,
    cashback_percent_bp integer check (cashback_percent_bp between 0 and 10000),
    updated_at timestamptz(3) not null default now(),
    primary key (chain_id, category_id, venue_id),
    foreign key (chain_id, category_id) references catalog_categories (chain_id, id) on delete cascade,
    foreign key (chain_id, venue_id) references venues (chain_id, venue_id)
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table category_venue_rules`.execute(db);
}
