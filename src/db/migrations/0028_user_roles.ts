// Staff roles (D24, issue 24): every dashboard user (a row of `owners`) has a role in their chain — owner, manager or
// staff. Everyone until now was the chain's owner.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table owners add column role text not null default 'owner' check (role in ('owner', 'manager', 'staff'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table owners drop column role`.execute(db);
}
