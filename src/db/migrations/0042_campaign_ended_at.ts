// When a campaign was ended by hand (its results run to then): kept once, as `updated_at` moves with every later
// credit, reversal or save. Campaigns ended before this migration take their last change, the best record there is.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table campaigns add column ended_at timestamptz`.execute(db);
  await sql`update campaigns set ended_at = updated_at where status = 'ended'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table campaigns drop column ended_at`.execute(db);
}
