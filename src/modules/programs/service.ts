// Programs: creation and changes (by the owner's tools: CLI, demo seed, dashboard), their settings checked into rules (D9).
import { Value } from 'typebox/value';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import { valueError } from '../../shared/value-errors.js';
import { newId } from '../../shared/ids.js';
import { formatTimestamp } from '../../shared/time.js';
import { cachedPrograms, programsChanged } from './cache.js';
import * as repo from './repo.js';
import {
  CashbackSettings,
  StampsSettings,
  VipSettings,
  VisitDiscountSettings,
  type BarcodeFormat,
  type LevelRule,
  type Program,
  type ProgramInfo,
  type ProgramRules,
  type ProgramType,
} from './schemas.js';

const SETTINGS_SCHEMA = { cashback: CashbackSettings, stamps: StampsSettings, visit_discount: VisitDiscountSettings, vip: VipSettings };
const toBp = (percent: number) => Math.round(percent * 100);
const toPercent = (bp: number) => bp / 100;

export interface NewProgram {
  name: string;
  type: ProgramType;
  settings: Record<string, unknown>;
  barcodeFormat?: BarcodeFormat;
  isDefault?: boolean;
}

function invalid(message: string): ApiError {
  return new ApiError('parameter_invalid', { param: 'settings', message });
}

function levelRules(levels: { name: string; min_spend: number; percent: number }[]): LevelRule[] {
  const sorted = levels.map((l) => ({ name: l.name, minSpend: l.min_spend, percentBp: toBp(l.percent) })).sort((a, b) => a.minSpend - b.minSpend);
  if (sorted[0]!.minSpend !== 0) throw invalid('The first level must start at min_spend 0.');
  if (new Set(sorted.map((l) => l.minSpend)).size !== sorted.length) throw invalid('Two levels start at the same min_spend.');
  return sorted;
}

const periodRule = (s: { level_period_days?: number }) => (s.level_period_days === undefined ? {} : { levelPeriodDays: s.level_period_days });
const periodSetting = (r: { levelPeriodDays?: number }) => (r.levelPeriodDays === undefined ? {} : { level_period_days: r.levelPeriodDays });

/** Checks settings against the type and turns them into rules. */
export function rulesFrom(type: ProgramType, settings: Record<string, unknown>): ProgramRules {
  const schema = SETTINGS_SCHEMA[type];
  const withDefaults = Value.Default(schema, structuredClone(settings)) as Record<string, unknown>;
  if (!Value.Check(schema, withDefaults)) {
    const first = Value.Errors(schema, withDefaults)[0];
    if (!first) throw invalid(`The settings do not fit a ${type} program.`);
    throw new ApiError('parameter_invalid', valueError(first, 'settings'));
  }
  const s = withDefaults as any;
  switch (type) {
    case 'cashback':
      return {
        type,
        levels: levelRules(s.levels),
        ...periodRule(s),
        maxRedeemBp: toBp(s.max_redeem_percent),
        ...(s.cashback_expires_after_days === undefined
          ? {}
          : { expiresAfterDays: s.cashback_expires_after_days, expiryWarningDays: s.cashback_expiry_warning_days ?? 7 }),
      };
    case 'stamps':
      return { type, stampsRequired: s.stamps_required, rewardName: s.reward_name, stampsPerVisit: s.stamps_per_visit, minCheckAmount: s.min_check_amount };
    case 'visit_discount': {
      const tiers = s.tiers.map((t: any) => ({ minVisits: t.min_visits, percentBp: toBp(t.percent) })).sort((a: any, b: any) => a.minVisits - b.minVisits);
      return { type, tiers };
    }
    case 'vip':
      return { type, levels: levelRules(s.levels), ...periodRule(s) };
  }
}

/** The settings as the API shows them. */
function settingsOf(rules: ProgramRules): Record<string, unknown> {
  const levels = (ls: LevelRule[]) => ls.map((l) => ({ name: l.name, min_spend: l.minSpend, percent: toPercent(l.percentBp) }));
  switch (rules.type) {
    case 'cashback':
      return {
        levels: levels(rules.levels),
        ...periodSetting(rules),
        max_redeem_percent: toPercent(rules.maxRedeemBp),
        ...(rules.expiresAfterDays === undefined
          ? {}
          : { cashback_expires_after_days: rules.expiresAfterDays, cashback_expiry_warning_days: rules.expiryWarningDays }),
      };
    case 'stamps':
      return {
        stamps_required: rules.stampsRequired,
        reward_name: rules.rewardName,
        stamps_per_visit: rules.stampsPerVisit,
        min_check_amount: rules.minCheckAmount,
      };
    case 'visit_discount':
      return { tiers: rules.tiers.map((t) => ({ min_visits: t.minVisits, percent: toPercent(t.percentBp) })) };
    case 'vip':
      return { levels: levels(rules.levels), ...periodSetting(rules) };
  }
}

function info(row: repo.ProgramRow): ProgramInfo {
  return {
    id: row.id,
    name: row.name,
    barcodeFormat: row.barcode_format,
    isDefault: row.is_default,
    rules: row.settings as unknown as ProgramRules,
    createdAt: formatTimestamp(row.created_at),
  };
}

export function presentProgram(p: ProgramInfo): Program {
  return {
    object: 'program',
    id: p.id,
    name: p.name,
    type: p.rules.type,
    barcode_format: p.barcodeFormat,
    is_default: p.isDefault,
    settings: settingsOf(p.rules),
    created_at: p.createdAt,
  };
}

export async function createProgram(db: Db, chainId: string, input: NewProgram): Promise<ProgramInfo> {
  if (!input.name.trim()) throw new ApiError('parameter_invalid', { param: 'name', message: 'name must not be empty.' });
  const rules = rulesFrom(input.type, input.settings);
  const existing = await repo.listPrograms(db, chainId);
  const isDefault = input.isDefault ?? existing.length === 0;
  if (isDefault) await repo.clearDefault(db, chainId);
  const row = await repo.insertProgram(db, {
    chain_id: chainId,
    id: newId(),
    name: input.name,
    type: input.type,
    settings: JSON.stringify(rules),
    barcode_format: input.barcodeFormat ?? 'qr_card_number',
    is_default: isDefault,
  });
  await programsChanged(db, chainId);
  return info(row);
}

export interface ProgramChanges {
  name?: string;
  settings?: Record<string, unknown>;
  barcodeFormat?: BarcodeFormat;
  /** true makes it the default; the previous default stops being one. */
  isDefault?: true;
}

/**
 * Changes a program's name, settings (of its own type) or barcode format, or makes it the default. What the change
 * means for members' cashback (expiry turned off, another warning lead) is the members module's: the caller settles
 * it first (dashboard/service.ts, changeProgram).
 */
export async function updateProgram(db: Db, chainId: string, id: string, changes: ProgramChanges): Promise<ProgramInfo> {
  const current = (await repo.listPrograms(db, chainId)).find((p) => p.id === id);
  if (!current) throw new ApiError('parameter_invalid', { param: 'program_id', message: 'No such program in this chain.' });
  if (changes.name !== undefined && !changes.name.trim()) throw new ApiError('parameter_invalid', { param: 'name', message: 'name must not be empty.' });
  const rules = changes.settings === undefined ? undefined : rulesFrom(current.type, changes.settings);
  const set = {
    ...(changes.name === undefined ? {} : { name: changes.name }),
    ...(rules === undefined ? {} : { settings: JSON.stringify(rules) }),
    ...(changes.barcodeFormat === undefined ? {} : { barcode_format: changes.barcodeFormat }),
    ...(changes.isDefault ? { is_default: true } : {}),
  };
  // Nothing asked to change (an empty PATCH): the program as it is.
  if (Object.keys(set).length === 0) return info(current);
  if (changes.isDefault) await repo.clearDefault(db, chainId);
  const row = await repo.updateProgram(db, chainId, id, set);
  await programsChanged(db, chainId);
  return info(row!);
}

/** The chain's programs, from this process's cache (see cache.ts). */
export async function listPrograms(db: Db, chainId: string): Promise<ProgramInfo[]> {
  return cachedPrograms(db, chainId, async () => (await repo.listPrograms(db, chainId)).map(info));
}
