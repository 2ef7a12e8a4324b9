// A check counts as a visit, and keeps its stamps, only while what it was paid after refunds stays at or above the
// program's minimum (issue 25): each check remembers that minimum, and null once it counts no visit.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table transactions add column visit_min_paid bigint`.execute(db);
  await sql`alter table refunds add column visit_reversed boolean not null default false`.execute(db);
  // Every completed check with a member counted its visit before this rule; from now on a refund that takes it below
  // 0.01 paid takes the visit back (a stamps program's own minimum was not kept with older checks).
  await sql`update transactions set visit_min_paid = 1 where status = 'completed' and member_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table refunds drop column visit_reversed`.execute(db);
  await sql`alter table transactions drop column visit_min_paid`.execute(db);
}
