// Levels judged on a rolling window (D22, issue 22): a member of a program with level_period_days keeps the paid
// spend of their checks in that window (`level_spend`) and when its oldest part leaves it (`level_leaves_at`), when
// the worker judges their level again.
import { sql, type Kysely } from 'kysely';
import { rewriteStoredAnswers, withAddedFields } from '../stored-answers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table members add column level_spend bigint not null default 0`.execute(db);
  await sql`alter table members add column level_leaves_at timestamptz`.execute(db);
  // The worker's look-up of members due: only those whose window holds spend (an erased member is never judged again).
  await sql`create index members_level_due on members (level_leaves_at, chain_id, id) where level_leaves_at is not null and erased_at is null`.execute(db);
  // Members answered before this had their level judged on all spend: level_spend was total_spend (null without levels).
  await rewriteStoredAnswers(db, (body) =>
    withAddedFields(body, (object, member) => (object === 'member' ? { level_spend: member.level === null ? null : member.total_spend } : undefined)),
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index members_level_due`.execute(db);
  await sql`alter table members drop column level_leaves_at`.execute(db);
  await sql`alter table members drop column level_spend`.execute(db);
}
