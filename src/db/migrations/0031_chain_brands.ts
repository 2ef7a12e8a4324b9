// A chain's brand (D25, and the wallet of D23): the name guests see, its colours and its logo. One row per chain, kept
// apart from `chains` so reading a chain never carries the logo's bytes; it goes with its chain (a merged chain's
// brand gives way to the target's).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table chain_brands (
    chain_id uuid primary key references chains (chain_id) on delete cascade,
    display_name text,
    background_color text not null check (background_color ~ '^#[0-9a-f]{6}$'),
    foreground_color text not null check (foreground_color ~ '^#[0-9a-f]{6}$'),
    label_color text not null check (label_color ~ '^#[0-9a-f]{6}$'),
    logo bytea,
    logo_updated_at timestamptz,
    updated_at timestamptz not null
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table chain_brands`.execute(db);
}
