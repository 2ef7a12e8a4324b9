// Managers and staff limited to some venues of their chain (D24): null, as every user so far, is every venue.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table owners add column venue_ids uuid[] check (venue_ids is null or (cardinality(venue_ids) > 0 and role <> 'owner'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table owners drop column venue_ids`.execute(db);
}
