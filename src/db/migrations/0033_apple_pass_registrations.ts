// The devices that installed a member's Apple Wallet pass (D23): registered by the pass web service, each with the
// push token a change is announced to.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table apple_pass_registrations (
    chain_id uuid not null,
    member_id uuid not null,
    device_library_id text not null,
    push_token text not null,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    primary key (chain_id, member_id, device_library_id),
    foreign key (chain_id, member_id) references members (chain_id, id)
  )`.execute(db);
  // A device asks which of its passes changed, naming no chain.
  await sql`create index apple_pass_registrations_by_device on apple_pass_registrations (device_library_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table apple_pass_registrations`.execute(db);
}
