// Single-use links for dashboard users (D24, issue 24): an invitation to join a chain with a role (7 days), and a
// password reset (24 hours). Only the hash of a link's token is kept; a link is used at most once.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table user_links (
    chain_id uuid not null references chains (chain_id),
    id uuid not null,
    purpose text not null check (purpose in ('invitation', 'password_reset')),
    venue_id uuid not null,
    email text not null,
    role text check (role in ('owner', 'manager', 'staff')),
    user_id uuid,
    token_hash text not null unique,
    created_by uuid,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz,
    primary key (chain_id, id),
    check ((purpose = 'invitation') = (role is not null)),
    check ((purpose = 'password_reset') = (user_id is not null))
  )`.execute(db);
  await sql`create index user_links_pending on user_links (chain_id, purpose, email) where used_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table user_links`.execute(db);
}
