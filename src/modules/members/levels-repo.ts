// SQL for levels judged on a rolling window (D22): the spend a window holds, read from the checks themselves, and the
// members due to be judged again.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WriteStep } from '../../db/statement.js';

/** When a check happened, as the window counts it: when it closed, else when it was received. */
const checkTime = sql`coalesce(t.closed_at, t.created_at)`;

// A window's days are 24 hours each, whatever the session's time zone says of calendar days (summer time).
const DAY_MS = 86_400_000;

export interface WindowSpend {
  spend: number;
  /** When the oldest check the window holds leaves it; null when it holds none. */
  leavesAt: Date | null;
}

/**
 * The paid spend, after refunds, of the member's completed checks of the last `days` days as of `now`, and when the
 * oldest of them leaves the window. The checks are the truth: no total kept for speed is read.
 */
export async function spendInWindow(db: Db, chainId: string, memberId: string, days: number, now: Date): Promise<WindowSpend> {
  const since = new Date(now.getTime() - days * DAY_MS);
  const { rows } = await sql<{ spend: string | null; first: Date | null }>`
    select sum(t.paid - t.refunded_amount) as spend, min(${checkTime}) as first from transactions t
    where t.chain_id = ${chainId} and t.member_id = ${memberId} and t.status = 'completed' and ${checkTime} > ${since}::timestamptz`.execute(db);
  const { spend, first } = rows[0]!;
  return { spend: Number(spend ?? 0), leavesAt: first && new Date(new Date(first).getTime() + days * DAY_MS) };
}

/** The member's level spend as the window now holds it (a write's step). */
export function setLevelSpendStep(db: Db, chainId: string, memberId: string, window: WindowSpend): WriteStep {
  return {
    name: 'level_spend',
    query: db
      .updateTable('members')
      .set({ level_spend: window.spend, level_leaves_at: window.leavesAt })
      .where('chain_id', '=', chainId)
      .where('id', '=', memberId),
  };
}

export interface DueMember {
  chain_id: string;
  id: string;
  level_leaves_at: Date;
}

/** Members whose oldest counted spend has left the window by `now`, the longest due first, after `after`. */
export async function membersDue(db: Db, now: Date, batch: number, after: DueMember | null): Promise<DueMember[]> {
  const { rows } = await sql<DueMember>`select chain_id, id, level_leaves_at from members
    where level_leaves_at <= ${now} and erased_at is null
      ${after ? sql`and (level_leaves_at, chain_id, id) > (${after.level_leaves_at}::timestamptz, ${after.chain_id}::uuid, ${after.id}::uuid)` : sql``}
    order by level_leaves_at, chain_id, id limit ${batch}`.execute(db);
  return rows;
}

/**
 * Every member of a program judged again on a window of `days` days as of `now` (the program's window was set or
 * changed); `days` undefined: the program judges on all spend again, and no window is kept.
 */
export async function judgeProgramAgain(db: Db, chainId: string, programId: string, period: number | undefined, now: Date): Promise<void> {
  const inWindow = sql`t.chain_id = m.chain_id and t.member_id = m.id and t.status = 'completed'
    and ${checkTime} > ${new Date(now.getTime() - (period ?? 0) * DAY_MS)}::timestamptz`;
  // Each member is also due at once: the worker judges them again under their lock, so a check that committed while
  // this ran (its spend unseen here) or one written with the rules a process had not yet heard were changed is counted.
  await sql`update members m set
      level_spend = ${period === undefined ? sql`0` : sql`coalesce((select sum(t.paid - t.refunded_amount) from transactions t where ${inWindow}), 0)`},
      level_leaves_at = ${period === undefined ? sql`null` : sql`${now}::timestamptz`}
    where m.chain_id = ${chainId} and m.program_id = ${programId}`.execute(db);
}

export interface LevelSpendDifference {
  chain_id: string;
  member_id: string;
  stored: number;
  checks: number;
}

/**
 * `ledger verify`: members of windowed programs whose level spend differs from what their checks in the window sum
 * to as of `now`. A member due (their oldest spend has left, the worker has not judged them yet) is not compared.
 */
export async function levelSpendDifferences(db: Db, now: Date, chainId?: string): Promise<LevelSpendDifference[]> {
  const { rows } = await sql<LevelSpendDifference>`
    select m.chain_id, m.id as member_id, m.level_spend as stored, coalesce(w.spend, 0) as checks
    from members m join programs p on p.chain_id = m.chain_id and p.id = m.program_id
    cross join lateral (select (p.settings ->> 'levelPeriodDays')::int as days) d
    left join lateral (select sum(t.paid - t.refunded_amount) as spend from transactions t
      where t.chain_id = m.chain_id and t.member_id = m.id and t.status = 'completed'
        and ${checkTime} > ${now}::timestamptz - make_interval(secs => d.days * 86400)) w on true
    where d.days is not null and (m.level_leaves_at is null or m.level_leaves_at > ${now})
      and m.level_spend <> coalesce(w.spend, 0) ${chainId ? sql`and m.chain_id = ${chainId}` : sql``}
    order by m.chain_id, m.id`.execute(db);
  return rows.map((r) => ({ ...r, stored: Number(r.stored), checks: Number(r.checks) }));
}
