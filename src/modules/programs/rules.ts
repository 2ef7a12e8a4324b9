// The level and discount rules of D9: pure functions of a program's rules and a member's totals.
import type { LevelRule } from './schemas.js';

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
