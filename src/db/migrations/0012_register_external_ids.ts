// A check number is taken once per register, however the venue numbers checks: the same check sent at once by
// keys that number checks differently meets this constraint, and the loser's retry answers it as a replay.
// Before, a check could be applied twice on one register under two numberings; those stay (they are the
// venue's accounts), flagged `numbered_twice` and left out of the constraint.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('numbered_twice', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
  await sql`
    update transactions t set numbered_twice = true
    where t.register_id is not null and exists (
      select 1 from transactions f
      where f.venue_id = t.venue_id and f.register_id = t.register_id and f.external_id = t.external_id and f.id < t.id)`.execute(db);
  await sql`create unique index transactions_register_external_id_key on transactions (venue_id, register_id, external_id)
    where register_id is not null and not numbered_twice`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('transactions_register_external_id_key').execute();
  await db.schema.alterTable('transactions').dropColumn('numbered_twice').execute();
}
