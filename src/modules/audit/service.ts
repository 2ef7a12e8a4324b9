// The audit log (D24): an entry written in the transaction of the change it records, the chain's list, the purge.
import type { Db } from '../../db/database.js';
import type { WriteStep } from '../../db/statement.js';
import { newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import * as repo from './repo.js';
import type { Actor, AuditAction, AuditEvent } from './schemas.js';

/** Who acts, and from which address: a dashboard user, an API key, the CLI or the service itself. */
export interface Who {
  actor: Actor;
  address: string | null;
}

export const CLI: Who = { actor: { type: 'cli', id: null }, address: null };
export const SYSTEM: Who = { actor: { type: 'system', id: null }, address: null };

/**
 * What the log needs of an API caller (accounts' Caller has it): declared here, so that the audit log, which every
 * module writes to, imports none of them.
 */
export interface AuditCaller {
  keyId: string;
  chainId: string;
  venueId: string | null;
  now: Date;
  actor?: Actor;
  address?: string | null;
}

/** Who a caller is: the dashboard user it acts for, else its API key. */
export const whoOf = (caller: Pick<AuditCaller, 'keyId' | 'actor' | 'address'>): Who => ({
  actor: caller.actor ?? { type: 'api_key', id: caller.keyId },
  address: caller.address ?? null,
});

/** Who changes something, where: the chain, the venue acted at (null: the chain as a whole), when (the request's time). */
export interface AuditPlace extends Who {
  chainId: string;
  venueId: string | null;
  /** The app's clock, as the change's other rows have it; absent: the database's. */
  at?: Date;
}

export const placeOf = (caller: AuditCaller): AuditPlace => ({ chainId: caller.chainId, venueId: caller.venueId, at: caller.now, ...whoOf(caller) });

export interface AuditEntry {
  action: AuditAction;
  target: { type: string; id: string | null };
  /** Each changed field as [before, after]: ids, names, amounts and settings, never a secret or personal data. */
  changes?: Record<string, [unknown, unknown]>;
}

const rowOf = (where: AuditPlace, entry: AuditEntry) => ({
  chain_id: where.chainId,
  id: newId(),
  actor_type: where.actor.type,
  actor_id: where.actor.id,
  action: entry.action,
  target_type: entry.target.type,
  target_id: entry.target.id,
  changes: JSON.stringify(entry.changes ?? {}),
  venue_id: where.venueId,
  address: where.address,
  ...(where.at ? { created_at: where.at } : {}),
});

/** A change that changed no field (the same name sent again, an enabled endpoint enabled) is no change to record. */
const changedNothing = (entry: AuditEntry) => entry.action.endsWith('.updated') && entry.changes !== undefined && Object.keys(entry.changes).length === 0;

/** How long a refusal repeated by the same actor at the same target adds no entry. */
export const REFUSAL_QUIET_MS = 60_000;

/**
 * Records a refusal (a change not allowed) unless the same actor was refused the same at the same target within the
 * last minute: a user clicking a forbidden button fifty times writes one entry, not fifty (the log is append-only, so
 * no entry is counted up); the request metrics count every refusal.
 */
export async function recordRefusal(db: Db, where: AuditPlace & { at: Date }, entry: AuditEntry): Promise<void> {
  if (await repo.hasRecent(db, rowOf(where, entry), new Date(where.at.getTime() - REFUSAL_QUIET_MS))) return;
  await repo.insertAuditEvent(db, rowOf(where, entry));
}

/** Records the entry in `trx`, the transaction making the change: both commit, or neither. */
export async function recordAudit(trx: Db, where: AuditPlace, entry: AuditEntry): Promise<void> {
  if (!changedNothing(entry)) await repo.insertAuditEvent(trx, rowOf(where, entry));
}

/** recordAudit as steps of the change's own write (see writeTogether): none when nothing changed. */
export const auditSteps = (trx: Db, where: AuditPlace, entry: AuditEntry): WriteStep[] => (changedNothing(entry) ? [] : [repo.insertStep(trx, rowOf(where, entry))]);

/** The fields of `after` that differ from `before`, as [before, after]; `fields` limits which are compared. */
export function changedFields<T extends Record<string, unknown>>(before: T | null, after: T | null, fields: readonly (keyof T & string)[]): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const f of fields) {
    const [b, a] = [before?.[f] ?? null, after?.[f] ?? null];
    if (JSON.stringify(b) !== JSON.stringify(a)) changes[f] = [b, a];
  }
  return changes;
}

export function presentAuditEvent(row: repo.AuditRow): AuditEvent {
  return {
    object: 'audit_event',
    id: row.id,
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id },
    target: { type: row.target_type, id: row.target_id },
    changes: row.changes,
    venue_id: row.venue_id,
    address: row.address,
    created_at: formatTimestamp(row.created_at),
  };
}

export async function listAuditEvents(db: Db, chainId: string, page: Page, filter: repo.AuditFilter, url = '/v1/audit_events'): Promise<List<AuditEvent>> {
  await checkCursor(page, (id) => repo.auditEventExists(db, chainId, id));
  return toList(url, page, await repo.listAuditEvents(db, chainId, page, filter), presentAuditEvent);
}

const CSV_PAGE = 1_000;

/**
 * The filtered log as CSV lines, newest first, read a page at a time as the download is written: a range of
 * millions of entries is never held in memory. `line` writes one row (the dashboard's CSV rules).
 */
export async function* auditCsv(db: Db, chainId: string, filter: repo.AuditFilter, line: (fields: (string | null)[]) => string): AsyncGenerator<string> {
  yield line(['time', 'action', 'actor_type', 'actor_id', 'target_type', 'target_id', 'venue_id', 'address', 'changes']);
  let startingAfter: string | undefined;
  for (;;) {
    const rows = await repo.listAuditEvents(db, chainId, { limit: CSV_PAGE, startingAfter }, filter);
    for (const row of rows.slice(0, CSV_PAGE)) {
      const e = presentAuditEvent(row);
      yield line([e.created_at, e.action, e.actor.type, e.actor.id, e.target.type, e.target.id, e.venue_id, e.address, JSON.stringify(e.changes)]);
    }
    if (rows.length <= CSV_PAGE) return;
    startingAfter = rows[CSV_PAGE - 1]!.id;
  }
}

/** The worker's purge: entries older than the retention, in batches; how many went. */
export async function purgeAuditEvents(db: Db, retentionDays: number, batch = 5_000): Promise<number> {
  let purged = 0;
  for (;;) {
    const n = await repo.purgeOlderThan(db, retentionDays, batch);
    purged += n;
    if (n < batch) return purged;
  }
}
