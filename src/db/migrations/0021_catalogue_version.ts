// A version of each chain's category rules (issue 21), drawn anew by the database itself in the transaction of every
// change to them, so a process may keep the rules in memory and a check's own gather tells it when they are stale.
// A random token, not a counter: a version seen inside a transaction that then rolls back is never drawn again.
import { sql, type Kysely } from 'kysely';

/** The tables of the rules, and the columns whose change changes a rule (a rename or a touch does not). */
const RULE_TABLES = {
  catalog_categories: ['chain_id', 'external_id', 'earns_cashback', 'payable_with_cashback', 'cashback_percent_bp'],
  category_venue_rules: ['chain_id', 'venue_id', 'category_id', 'earns_cashback', 'payable_with_cashback', 'cashback_percent_bp'],
};

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table chains add column catalogue_version uuid not null default gen_random_uuid()`.execute(db);
  // Row-level: each changed row names its chain; a delete (or a merge moving rows) changes the chain it leaves too.
  await sql`create function bump_catalogue_version() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update chains set catalogue_version = gen_random_uuid() where chain_id = new.chain_id;
      elsif tg_op = 'DELETE' then
        update chains set catalogue_version = gen_random_uuid() where chain_id = old.chain_id;
      else
        update chains set catalogue_version = gen_random_uuid() where chain_id in (old.chain_id, new.chain_id);
      end if;
      return null;
    end $$`.execute(db);
  for (const [table, columns] of Object.entries(RULE_TABLES)) {
    const row = (which: string) => sql.raw(`(${columns.map((c) => `${which}.${c}`).join(', ')})`);
    await sql`create trigger ${sql.id(`${table}_version`)} after insert or delete on ${sql.id(table)}
      for each row execute function bump_catalogue_version()`.execute(db);
    await sql`create trigger ${sql.id(`${table}_version_change`)} after update on ${sql.id(table)}
      for each row when (${row('old')} is distinct from ${row('new')}) execute function bump_catalogue_version()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(RULE_TABLES)) {
    await sql`drop trigger ${sql.id(`${table}_version`)} on ${sql.id(table)}`.execute(db);
    await sql`drop trigger ${sql.id(`${table}_version_change`)} on ${sql.id(table)}`.execute(db);
  }
  await sql`drop function bump_catalogue_version()`.execute(db);
  await sql`alter table chains drop column catalogue_version`.execute(db);
}
