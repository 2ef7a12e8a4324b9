// The member's wallet pass (D23): its generation, which the pass's authentication token is derived from; bumping it
// revokes the token of every pass installed so far.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table members add column pass_generation integer not null default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table members drop column pass_generation`.execute(db);
}
