// SQL for the audit log: one insert (as a step of the change's own write, or alone), the filtered list, the purge.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { WriteStep } from '../../db/statement.js';
import type { AuditEventsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type AuditRow = Selectable<AuditEventsTable>;

export const insertStep = (db: Db, row: Insertable<AuditEventsTable>, name = 'audit'): WriteStep => ({ name, query: db.insertInto('audit_events').values(row) });

export async function insertAuditEvent(db: Db, row: Insertable<AuditEventsTable>): Promise<void> {
  await db.insertInto('audit_events').values(row).execute();
}

/** Whether the chain has an entry like `row` (its actor, action and target) since `since`. */
export async function hasRecent(db: Db, row: Insertable<AuditEventsTable>, since: Date): Promise<boolean> {
  const found = await db
    .selectFrom('audit_events')
    .select('id')
    .where('chain_id', '=', row.chain_id)
    .where('target_id', row.target_id === null ? 'is' : '=', row.target_id ?? null)
    .where('target_type', '=', row.target_type)
    .where('action', '=', row.action)
    .where('actor_type', '=', row.actor_type)
    .where('actor_id', row.actor_id === null ? 'is' : '=', row.actor_id ?? null)
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

export interface AuditFilter {
  action?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
}

export async function listAuditEvents(db: Db, chainId: string, page: Page, filter: AuditFilter): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_events')
    .selectAll()
    .where('chain_id', '=', chainId)
    .$if(filter.action !== undefined, (q) => q.where('action', '=', filter.action!))
    .$if(filter.targetId !== undefined, (q) => q.where('target_id', '=', filter.targetId!))
    .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
    .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!))
    .$call(keysetPage(page))
    .execute();
}

export async function auditEventExists(db: Db, chainId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('audit_events').select('id').where('chain_id', '=', chainId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Deletes entries older than `days` as of the database's clock, at most `batch`; how many. The trigger allows it only
 * for rows past the retention this transaction sets, so the purge sets the configured one for itself alone.
 */
export async function purgeOlderThan(db: Db, days: number, batch: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('venue_loyalty.audit_retention_days', ${String(days)}, true)`.execute(trx);
    const { rows } = await sql<{ n: string }>`with gone as (delete from audit_events where (chain_id, id) in (
        select chain_id, id from audit_events where created_at < now() - make_interval(days => ${days}) limit ${batch}) returning 1)
      select count(*) as n from gone`.execute(trx);
    return Number(rows[0]!.n);
  });
}
