// Members gain an optional e-mail (issue 41): stored trimmed and lower-cased, naming at most one member of a chain, so
// a look-up or a connector's guest finds one member by it.
import { sql, type Kysely } from 'kysely';
import { rewriteStoredAnswers, withAddedFields } from '../stored-answers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table members add column email text`.execute(db);
  await sql`create unique index members_email on members (chain_id, email) where email is not null`.execute(db);
  // Members answered before this had no e-mail.
  await rewriteStoredAnswers(db, (body) => withAddedFields(body, (object) => (object === 'member' ? { email: null } : undefined)));
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index members_email`.execute(db);
  await sql`alter table members drop column email`.execute(db);
}
