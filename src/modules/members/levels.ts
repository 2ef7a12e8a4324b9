// Levels that move both ways (D22): what a change of paid spend does to the member's level spend and level, the
// member.level_changed event of every move, and the worker's pass judging again members whose old spend left the window.
import type { Db } from '../../db/database.js';
import { writeTogether, type WriteStep } from '../../db/statement.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import { levelPeriodOf, levelSpendOf, memberLevel } from '../programs/rules.js';
import type { ProgramInfo, ProgramRules } from '../programs/schemas.js';
import * as programs from '../programs/service.js';
import { eventSteps, type EventRequest } from '../webhooks/events.js';
import * as levelsRepo from './levels-repo.js';
import * as repo from './repo.js';
import type { LevelChange } from './schemas.js';

const DAY_MS = 86_400_000;

export type LevelReason = LevelChange['reason'];

/** What a write adds to a windowed program's level spend: `spend`, and when that check leaves the window (least wins). */
export interface LevelWindow {
  spend: number;
  leavesAt: Date | null;
}

/** A change of the member's paid spend by a check, a capture or a reversal of one, as its write tells it. */
export interface SpendChange {
  member: repo.LockedMember;
  program: ProgramInfo;
  /** When the check happened (closed, else received): the window holds its spend from then for the period. */
  checkAt: Date;
  reason: Extract<LevelReason, 'spend' | 'refund' | 'void'>;
  reference: string | null;
  request: EventRequest;
}

/**
 * What `spend` more (less, for a reversal) of a check does to a windowed program's level spend at `now`: nothing
 * when the check is out of the window already (closed longer ago than the period: its spend left, or never came
 * in); undefined for a program judging levels on all spend.
 */
export function levelWindow(rules: ProgramRules, spend: number, checkAt: Date, now: Date): LevelWindow | undefined {
  const days = levelPeriodOf(rules);
  if (days === undefined) return undefined;
  const leavesAt = new Date(checkAt.getTime() + days * DAY_MS);
  if (leavesAt.getTime() <= now.getTime()) return { spend: 0, leavesAt: null };
  return { spend, leavesAt: spend > 0 ? leavesAt : null };
}

/** The member.level_changed event when the member's level differs after the write, else nothing. */
function levelChangedSteps(
  trx: Db,
  place: { chainId: string; venueId: string | null; livemode: boolean },
  member: repo.LockedMember,
  program: ProgramInfo,
  after: { levelSpend: number; vipLevel: string | null },
  how: { reason: LevelReason; reference: string | null; at: Date; request: EventRequest },
): WriteStep[] {
  const from = memberLevel(program.rules, member.vip_level, levelSpendOf(program.rules, member));
  const to = memberLevel(program.rules, after.vipLevel, after.levelSpend);
  if (!from || !to || from.name === to.name) return [];
  const change: LevelChange = {
    object: 'level_change',
    member_id: member.id,
    program_id: program.id,
    from: from.name,
    to: to.name,
    reason: how.reason,
    level_spend: after.levelSpend,
    reference: how.reference,
    created_at: formatTimestamp(how.at),
  };
  const event = { chainId: place.chainId, venueId: place.venueId, homeVenueId: member.home_venue_id, livemode: place.livemode };
  return eventSteps(trx, { ...event, type: 'member.level_changed', object: change, request: how.request }, 'level_changed');
}

/**
 * What a write moving the member's paid spend by `spend` at `now` does to their level: the window part its ledger
 * update adds (windowed programs), and the event when the level moves.
 */
export function spendLevel(trx: Db, caller: Pick<Caller, 'chainId' | 'venueId' | 'livemode'>, change: SpendChange, spend: number, now: Date) {
  const { member, program } = change;
  const window = levelWindow(program.rules, spend, change.checkAt, now);
  const levelSpend = window ? member.level_spend + window.spend : member.spend + spend;
  const how = { reason: change.reason, reference: change.reference, at: now, request: change.request };
  return { window, steps: levelChangedSteps(trx, caller, member, program, { levelSpend, vipLevel: member.vip_level }, how) };
}

/** A VIP level set by hand (or cleared, back to spend): the event when the member's level moves with it. */
export function manualLevelSteps(trx: Db, caller: Caller, member: repo.LockedMember, program: ProgramInfo, vipLevel: string | null, request: EventRequest): WriteStep[] {
  const after = { levelSpend: levelSpendOf(program.rules, member), vipLevel };
  return levelChangedSteps(trx, caller, member, program, after, { reason: 'manual', reference: null, at: caller.now, request });
}

/** Whether the member's oldest counted spend has left their program's window by `now`: their level spend is stale. */
const isDue = (member: repo.LockedMember, program: ProgramInfo, now: Date) =>
  levelPeriodOf(program.rules) !== undefined && member.level_leaves_at !== null && member.level_leaves_at.getTime() <= now.getTime();

/**
 * The member as judged at `now`: a due member's level spend as their checks in the window sum it (a read), so a
 * calculation or a view never uses spend that has left; `window` is that sum, null when the member was not due.
 */
export async function judgedNow<M extends repo.LockedMember>(db: Db, member: M, program: ProgramInfo, now: Date): Promise<{ member: M; window: levelsRepo.WindowSpend | null }> {
  if (!isDue(member, program, now)) return { member, window: null };
  const window = await levelsRepo.spendInWindow(db, member.chain_id, member.id, levelPeriodOf(program.rules)!, now);
  return { member: { ...member, level_spend: window.spend, level_leaves_at: window.leavesAt }, window };
}

/**
 * A locked member judged again at `now` when due, before a write that moves their money: the level spend written
 * and a move announced (reason `period`), as the worker would have; the member as judged.
 */
export async function judgedForWrite<M extends repo.LockedMember>(trx: Db, member: M, program: ProgramInfo, now: Date): Promise<{ member: M; moved: boolean }> {
  const judged = await judgedNow(trx, member, program, now);
  if (!judged.window) return { member, moved: false };
  const place = { chainId: member.chain_id, venueId: null, livemode: member.livemode };
  const how = { reason: 'period' as const, reference: null, at: now, request: null };
  const moved = levelChangedSteps(trx, place, member, program, { levelSpend: judged.window.spend, vipLevel: member.vip_level }, how);
  await writeTogether(trx, [levelsRepo.setLevelSpendStep(trx, member.chain_id, member.id, judged.window), ...moved]);
  return { member: judged.member, moved: moved.length > 0 };
}

/**
 * Judges one member again as of `now`, in their own transaction: their lock first, then their checks in the window
 * (a check committing meanwhile waits for it). A member judged since, or erased, is left as found; one of a program
 * without a window any more keeps none.
 */
async function judgeAgain(trx: Db, chainId: string, memberId: string, now: Date): Promise<boolean> {
  const member = await repo.matchingMember(trx, chainId, { by: 'id', id: memberId }, { lock: true });
  if (!member?.level_leaves_at || member.level_leaves_at.getTime() > now.getTime()) return false;
  const program = (await programs.listPrograms(trx, chainId)).find((p) => p.id === member.program_id)!;
  if (levelPeriodOf(program.rules) === undefined) {
    await writeTogether(trx, [levelsRepo.setLevelSpendStep(trx, chainId, memberId, { spend: 0, leavesAt: null })]);
    return false;
  }
  return (await judgedForWrite(trx, member, program, now)).moved;
}

/**
 * The worker's pass: every member whose oldest counted spend has left the window by `now` judged again; how many
 * moved. Each batch starts after the last member looked at, so a member who stays due cannot hold the pass.
 */
export async function runLevelPeriods(db: Db, now: Date, batch = 200): Promise<number> {
  let moved = 0;
  let after: levelsRepo.DueMember | null = null;
  for (;;) {
    const due = await levelsRepo.membersDue(db, now, batch, after);
    for (const m of due) if (await db.transaction().execute((trx) => judgeAgain(trx, m.chain_id, m.id, now))) moved++;
    if (due.length < batch) return moved;
    after = due.at(-1)!;
  }
}

/**
 * A program's window set, changed or removed: every member's level spend as the new window holds it, at once, in
 * the program change's transaction. The owner changed the rule, not the members: no member.level_changed.
 */
export async function periodChanging(db: Db, chainId: string, current: ProgramInfo, next: ProgramRules | undefined, now: Date): Promise<void> {
  if (next === undefined || levelPeriodOf(current.rules) === levelPeriodOf(next)) return;
  await levelsRepo.judgeProgramAgain(db, chainId, current.id, levelPeriodOf(next), now);
}

export const levelSpendDifferences = levelsRepo.levelSpendDifferences;
