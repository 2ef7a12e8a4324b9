// What a provider's object stands for beyond its number: a Toast check's redemption and accrual, each standing until
// Toast reverses it (D26), so that a REVERSE acts on what its transaction did, not on whichever check it first found.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table integration_handled add column state jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table integration_handled drop column state`.execute(db);
}
