// A check number is taken once per register, however the venue numbers checks: the same check sent at once by
// keys that number checks differently meets this constraint, and the loser's retry answers it as a replay.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index transactions_register_external_id_key on transactions (venue_id, register_id, external_id)
    where register_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('transactions_register_external_id_key').execute();
}
