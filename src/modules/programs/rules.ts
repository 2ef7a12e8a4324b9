// The level and discount rules of D9: pure functions of a program's rules and a member's totals.
import type { LevelRule, ProgramRules } from './schemas.js';

/** The level a member is at with this total spend: the highest whose min_spend is reached. */
export function levelAt(levels: LevelRule[], totalSpend: number): LevelRule {
  return levels.filter((l) => l.minSpend <= totalSpend).at(-1) ?? levels[0]!;
}

export function nextLevelAfter(levels: LevelRule[], totalSpend: number): LevelRule | undefined {
  return levels.find((l) => l.minSpend > totalSpend);
}

export function visitDiscountBp(tiers: { minVisits: number; percentBp: number }[], visits: number): number {
  return tiers.filter((t) => t.minVisits <= visits).at(-1)?.percentBp ?? 0;
}

/**
 * The least a check must be paid, after its refunds, to count as a visit and earn its stamps: a stamps program's
 * min_check_amount, and more than nothing in every program (a check refunded in full was no visit).
 */
export const visitMinPaid = (program: ProgramRules): number => Math.max(1, program.type === 'stamps' ? program.minCheckAmount : 0);
