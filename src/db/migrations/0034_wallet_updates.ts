// Wallet cards that update themselves (D23): the card page link's generation; when a member's card last changed as a pass shows it, the Google Wallet
// objects the service has made, and the queue of pushes and object updates the worker sends. Triggers stamp and
// queue every change, in the transaction that makes it: a change of balance, stamps, spend or level moves members'
// columns however it is made (a check, an expiry, the level window, a VIP level set by hand), so no writer can
// forget to announce one, including writers still to come.
import { sql, type Kysely } from 'kysely';

/** The member's columns a card shows, or that decide what it shows (its level, its program's fields, its chain's brand). */
const SHOWN = ['cashback', 'stamps', 'spend', 'level_spend', 'vip_level', 'program_id', 'name', 'chain_id'];
/** A brand's columns a card shows. */
const BRAND = ['display_name', 'background_color', 'foreground_color', 'label_color', 'logo_updated_at'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table members add column pass_changed_at timestamptz not null default clock_timestamp()`.execute(db);
  // The guest's card page link is signed with its own generation: revoking it leaves installed passes alone.
  await sql`alter table members add column card_link_generation integer not null default 0`.execute(db);
  await sql`update members m set pass_changed_at = greatest(m.created_at,
    (select max(l.created_at) from ledger_entries l where l.chain_id = m.chain_id and l.member_id = m.id),
    (select max(c.created_at) from member_cards c where c.chain_id = m.chain_id and c.member_id = m.id))`.execute(db);

  await sql`create table google_wallet_objects (
    chain_id uuid not null,
    member_id uuid not null,
    created_at timestamptz not null default now(),
    primary key (chain_id, member_id),
    foreign key (chain_id, member_id) references members (chain_id, id)
  )`.execute(db);

  // One row per device (Apple) or object (Google) per change, and one for a Google object to retire when its member
  // is erased; sent rows are deleted, failed ones kept for a look.
  await sql`create table wallet_updates (
    chain_id uuid not null,
    id uuid not null default gen_random_uuid(),
    member_id uuid not null,
    channel text not null check (channel in ('apple', 'google', 'google_erased')),
    device_library_id text,
    push_token text,
    status text not null default 'pending' check (status in ('pending', 'failed')),
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text,
    created_at timestamptz not null default now(),
    primary key (chain_id, id)
  )`.execute(db);
  await sql`create index wallet_updates_due on wallet_updates (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index wallet_updates_by_member on wallet_updates (chain_id, member_id)`.execute(db);

  await sql`create function stamp_pass_change() returns trigger language plpgsql as $$
    begin
      new.pass_changed_at := clock_timestamp();
      return new;
    end $$`.execute(db);
  const shown = (which: string) => sql.raw(`(${SHOWN.map((c) => `${which}.${c}`).join(', ')})`);
  await sql`create trigger members_pass_change before update on members
    for each row when (${shown('old')} is distinct from ${shown('new')}) execute function stamp_pass_change()`.execute(db);

  await sql`create function queue_wallet_updates() returns trigger language plpgsql as $$
    begin
      insert into wallet_updates (chain_id, member_id, channel, device_library_id, push_token)
        select chain_id, member_id, 'apple', device_library_id, push_token from apple_pass_registrations
        where chain_id = new.chain_id and member_id = new.id
        union all
        select chain_id, member_id, 'google', null, null from google_wallet_objects
        where chain_id = new.chain_id and member_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger members_wallet_updates after update on members
    for each row when (old.pass_changed_at is distinct from new.pass_changed_at and new.erased_at is null)
    execute function queue_wallet_updates()`.execute(db);

  // A card added, a chain's brand or a program changed: the passes that show them are stamped (and so queued).
  await sql`create function card_changes_pass() returns trigger language plpgsql as $$
    begin
      update members set pass_changed_at = clock_timestamp() where chain_id = new.chain_id and id = new.member_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger member_cards_pass_change after insert on member_cards
    for each row execute function card_changes_pass()`.execute(db);
  await sql`create function chain_changes_passes() returns trigger language plpgsql as $$
    begin
      update members m set pass_changed_at = clock_timestamp()
      where m.chain_id = new.chain_id and (tg_table_name <> 'programs' or m.program_id = (to_jsonb(new) ->> 'id')::uuid)
        and (exists (select 1 from apple_pass_registrations r where r.chain_id = m.chain_id and r.member_id = m.id)
          or exists (select 1 from google_wallet_objects g where g.chain_id = m.chain_id and g.member_id = m.id));
      return null;
    end $$`.execute(db);
  const brand = (which: string) => sql.raw(`(${BRAND.map((c) => `${which}.${c}`).join(', ')})`);
  await sql`create trigger chain_brands_pass_change after insert on chain_brands
    for each row execute function chain_changes_passes()`.execute(db);
  // A save that changes nothing (the dashboard writes the whole row) stamps nobody.
  await sql`create trigger chain_brands_pass_change_update after update on chain_brands
    for each row when (${brand('old')} is distinct from ${brand('new')}) execute function chain_changes_passes()`.execute(db);
  await sql`create trigger programs_pass_change after update on programs
    for each row when ((old.name, old.type, old.settings, old.barcode_format) is distinct from (new.name, new.type, new.settings, new.barcode_format))
    execute function chain_changes_passes()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger programs_pass_change on programs`.execute(db);
  await sql`drop trigger chain_brands_pass_change_update on chain_brands`.execute(db);
  await sql`drop trigger chain_brands_pass_change on chain_brands`.execute(db);
  await sql`drop trigger member_cards_pass_change on member_cards`.execute(db);
  await sql`drop trigger members_wallet_updates on members`.execute(db);
  await sql`drop trigger members_pass_change on members`.execute(db);
  await sql`drop function chain_changes_passes()`.execute(db);
  await sql`drop function card_changes_pass()`.execute(db);
  await sql`drop function queue_wallet_updates()`.execute(db);
  await sql`drop function stamp_pass_change()`.execute(db);
  await sql`drop table wallet_updates`.execute(db);
  await sql`drop table google_wallet_objects`.execute(db);
  await sql`alter table members drop column pass_changed_at`.execute(db);
  await sql`alter table members drop column card_link_generation`.execute(db);
}
