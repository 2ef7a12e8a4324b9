// A card added stamps only the members who hold a wallet pass, once per statement: an import's 100,000 new members
// each rewrote their own fresh row (every index, the name's trigram one too), which doubled the import's time.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger member_cards_pass_change on member_cards`.execute(db);
  await sql`drop function card_changes_pass()`.execute(db);
  // A member without a pass has nothing to update; a pass made later is made from the member as they are then.
  await sql`create function cards_change_passes() returns trigger language plpgsql as $$
    begin
      update members m set pass_changed_at = clock_timestamp()
      from (select distinct chain_id, member_id from added) a
      where m.chain_id = a.chain_id and m.id = a.member_id
        and (exists (select 1 from apple_pass_registrations r where r.chain_id = m.chain_id and r.member_id = m.id)
          or exists (select 1 from google_wallet_objects g where g.chain_id = m.chain_id and g.member_id = m.id));
      return null;
    end $$`.execute(db);
  await sql`create trigger member_cards_pass_change after insert on member_cards
    referencing new table as added for each statement execute function cards_change_passes()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger member_cards_pass_change on member_cards`.execute(db);
  await sql`drop function cards_change_passes()`.execute(db);
  await sql`create function card_changes_pass() returns trigger language plpgsql as $$
    begin
      update members set pass_changed_at = clock_timestamp() where chain_id = new.chain_id and id = new.member_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger member_cards_pass_change after insert on member_cards
    for each row execute function card_changes_pass()`.execute(db);
}
