// What the soak proves at the end, read from its own database and the receiver: nothing acknowledged was lost,
// nothing applied twice, the ledger adds up, no balance went below zero without a documented reason, and every
// event reached the receiver.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import type { Receiver } from './receiver.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const sample = (items: unknown[]) => (items.length ? ` e.g. ${JSON.stringify(items.slice(0, 3))}` : '');

/** Every check and refund answered 2xx is there exactly once, by external_id. */
export async function acknowledgedExactlyOnce(db: Db, acknowledged: { apply: Set<string>; refund: Set<string> }): Promise<Check> {
  const checks = [...acknowledged.apply];
  const refunds = [...acknowledged.refund];
  const { rows: found } = await sql<{ external_id: string; n: number }>`
    select external_id, count(*)::int as n from transactions where external_id = any(${checks}::text[]) group by external_id`.execute(db);
  const { rows: foundRefunds } = await sql<{ external_id: string; n: number }>`
    select external_id, count(*)::int as n from refunds where external_id = any(${refunds}::text[]) group by external_id`.execute(db);
  const count = new Map([...found, ...foundRefunds].map((r) => [r.external_id, r.n]));
  const wrong = [...checks, ...refunds].filter((id) => count.get(id) !== 1).map((id) => ({ external_id: id, rows: count.get(id) ?? 0 }));
  return {
    name: 'every check and refund acknowledged with 2xx exists exactly once (by external_id)',
    ok: wrong.length === 0,
    detail: `${checks.length} checks and ${refunds.length} refunds acknowledged; ${wrong.length} missing or repeated${sample(wrong)}`,
  };
}

/**
 * No check or refund of this run applied twice, acknowledged or not (a request cut off by a killed process may or
 * may not have committed, but never twice): one row per external_id, one `check` ledger entry per check, one
 * `refund` entry per refund.
 */
export async function noneAppliedTwice(db: Db, runId: string): Promise<Check> {
  const prefix = `${runId}-%`;
  const { rows } = await sql<{ what: string; reference: string; n: number }>`
    select 'transaction' as what, external_id as reference, count(*)::int as n from transactions where external_id like ${prefix} group by chain_id, venue_id, external_id having count(*) > 1
    union all
    select 'refund', external_id, count(*)::int from refunds where external_id like ${prefix} group by chain_id, external_id having count(*) > 1
    union all
    select 'ledger ' || kind, reference, count(*)::int from ledger_entries
      where kind in ('check', 'refund') and reference like ${prefix} group by chain_id, member_id, kind, reference having count(*) > 1`.execute(db);
  const { rows: totals } = await sql<{ checks: number; refunds: number }>`
    select (select count(*)::int from transactions where external_id like ${prefix}) as checks,
           (select count(*)::int from refunds where external_id like ${prefix}) as refunds`.execute(db);
  return {
    name: 'no check or refund applied twice',
    ok: rows.length === 0,
    detail: `${totals[0]!.checks} checks and ${totals[0]!.refunds} refunds of this run in the database; ${rows.length} applied more than once${sample(rows)}`,
  };
}

/**
 * available = balance − what active holds keep. Below zero only for a member in debt, which the design allows
 * after a void or a refund took back cashback already spent (shared/design.md on debt, docs/checks.md#debt): such a
 * member has an `earn_reversal` entry.
 */
export async function availableNotNegative(db: Db): Promise<Check> {
  const { rows } = await sql<{ member_id: string; available: number; in_debt: boolean }>`
    select m.id as member_id, (m.cashback - coalesce(h.held, 0))::int as available,
      exists (select 1 from ledger_entries l where l.chain_id = m.chain_id and l.member_id = m.id and l.kind = 'earn_reversal') as in_debt
    from members m
    -- Holds at every venue of the chain keep the member's money.
    left join (select chain_id, member_id, sum(amount) as held from holds where status = 'active' and expires_at > now() group by chain_id, member_id) h
      on h.chain_id = m.chain_id and h.member_id = m.id
    where m.cashback - coalesce(h.held, 0) < 0`.execute(db);
  const unexplained = rows.filter((r) => !r.in_debt);
  return {
    name: 'available ≥ 0 for every member not in documented debt',
    ok: unexplained.length === 0,
    detail: `${rows.length} members below zero, ${rows.length - unexplained.length} of them in debt after a refund or void; ${unexplained.length} unexplained${sample(unexplained)}`,
  };
}

/** The events that have a delivery to an endpoint and have not reached the receiver yet. */
export async function undelivered(db: Db, receiver: Receiver): Promise<{ events: number; missing: string[] }> {
  const { rows } = await sql<{ event_id: string }>`select distinct event_id from webhook_deliveries`.execute(db);
  return { events: rows.length, missing: rows.map((r) => r.event_id).filter((id) => !receiver.seen.has(id)) };
}

export async function everyEventDelivered(db: Db, receiver: Receiver): Promise<Check> {
  const { events, missing } = await undelivered(db, receiver);
  const repeated = [...receiver.seen.values()].filter((n) => n > 1).length;
  // Why the missing ones did not arrive, as the worker recorded it.
  const { rows: failures } = await sql<{ error: string; status_code: number; n: number }>`
    select coalesce(error, '') as error, status_code, count(*)::int as n from webhook_attempts
    where event_id = any(${missing.slice(0, 1000)}::uuid[]) group by 1, 2 order by 3 desc limit 3`.execute(db);
  const { rows: states } = await sql<{ status: string; attempts: number; endpoint: string; due_in_s: number | null; n: number }>`
    select d.status, d.attempts, e.status as endpoint, round(extract(epoch from d.next_attempt_at - now()))::int as due_in_s, count(*)::int as n
    from webhook_deliveries d join webhook_endpoints e on e.chain_id = d.chain_id and e.id = d.endpoint_id
    where d.event_id = any(${missing.slice(0, 1000)}::uuid[]) group by 1, 2, 3, 4 order by 5 desc limit 5`.execute(db);
  return {
    name: 'every event delivered at least once to the receiver',
    ok: missing.length === 0 && events > 0,
    detail:
      `${events} events, ${receiver.seen.size} distinct ids received in ${receiver.requests} requests (${repeated} more than once: at-least-once); ` +
      `${missing.length} never arrived${sample(missing)}${failures.length ? `; their attempts: ${JSON.stringify(failures)}, their deliveries: ${JSON.stringify(states)}` : ''}`,
  };
}
