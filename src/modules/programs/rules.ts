// The level and discount rules of D9: pure functions of a program's rules and a member's totals.
import type { LevelRule, ProgramRules } from './schemas.js';

/** The level a member is at with this total spend: the highest whose min_spend is reached. */
export function levelAt(levels: LevelRule[], totalSpend: number): LevelRule {
  return levels.filter((l) => l.minSpend <= totalSpend).at(-1) ?? levels[0]!;
}

/** The rolling window a cashback or VIP program judges levels on, in days (D22); undefined: on all spend. */
export const levelPeriodOf = (rules: ProgramRules): number | undefined =>
  rules.type === 'cashback' || rules.type === 'vip' ? rules.levelPeriodDays : undefined;

/** The spend a member's level is judged on: all their paid spend, or what the window holds. */
export const levelSpendOf = (rules: ProgramRules, totals: { spend: number; level_spend: number }): number =>
  levelPeriodOf(rules) === undefined ? totals.spend : totals.level_spend;

/** A cashback or VIP member's level: the one set by hand (VIP), else the one their level spend reaches; null in other programs. */
export function memberLevel(rules: ProgramRules, vipLevel: string | null, levelSpend: number): LevelRule | null {
  if (rules.type !== 'cashback' && rules.type !== 'vip') return null;
  const manual = rules.type === 'vip' && vipLevel ? rules.levels.find((l) => l.name === vipLevel) : undefined;
  return manual ?? levelAt(rules.levels, levelSpend);
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
