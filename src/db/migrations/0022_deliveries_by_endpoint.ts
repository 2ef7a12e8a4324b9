// Due deliveries by endpoint (issue 25): the worker claims a few of each endpoint's in turn, so one endpoint's backlog
// cannot keep another's deliveries waiting; this index serves that claim.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_deliveries_due_by_endpoint on webhook_deliveries (chain_id, endpoint_id, next_attempt_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_deliveries_due_by_endpoint`.execute(db);
}
