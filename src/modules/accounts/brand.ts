// A chain's brand (D25): the name guests see, its colours and its logo, set by the owner in the dashboard and shown on
// the guest's menu page (and on the wallet card, D23). A chain that set none has the defaults.
import type { Db } from '../../db/database.js';
import { parameterInvalid } from '../../shared/errors.js';
import { imageSizes } from '../../shared/on-first-use.js';
import * as audit from '../audit/service.js';
import * as repo from './brand-repo.js';

export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_MAX_SIDE = 1000;

export interface Brand {
  /** The name guests see; null: the chain's name. */
  displayName: string | null;
  backgroundColor: string;
  foregroundColor: string;
  labelColor: string;
  hasLogo: boolean;
  logoUpdatedAt: Date | null;
}

/** The colours of a chain that chose none: the guest menu's dark green header with white text. */
export const BRAND_DEFAULTS = { backgroundColor: '#1f3a34', foregroundColor: '#ffffff', labelColor: '#c9e4da' };

export type BrandChanges = Partial<Pick<Brand, 'displayName' | 'backgroundColor' | 'foregroundColor' | 'labelColor'>>;

export async function getBrand(db: Db, chainId: string): Promise<Brand> {
  const row = await repo.findBrand(db, chainId);
  if (!row) return { displayName: null, ...BRAND_DEFAULTS, hasLogo: false, logoUpdatedAt: null };
  return {
    displayName: row.display_name,
    backgroundColor: row.background_color,
    foregroundColor: row.foreground_color,
    labelColor: row.label_color,
    hasLogo: row.has_logo,
    logoUpdatedAt: row.logo_updated_at,
  };
}

const COLOUR_FIELDS = { backgroundColor: 'background_color', foregroundColor: 'foreground_color', labelColor: 'label_color' } as const;
const AUDITED = ['displayName', 'backgroundColor', 'foregroundColor', 'labelColor'] as const;

/** Changes the brand's name or colours (#rrggbb), recorded in the audit log. */
export async function changeBrand(db: Db, where: audit.AuditPlace, changes: BrandChanges): Promise<Brand> {
  for (const [field, param] of Object.entries(COLOUR_FIELDS)) {
    const value = changes[field as keyof typeof COLOUR_FIELDS];
    if (value !== undefined && !/^#[0-9a-fA-F]{6}$/.test(value)) throw parameterInvalid(param, `${param} must be a colour written #rrggbb, e.g. #087f5b.`);
  }
  const before = await getBrand(db, where.chainId);
  const sent = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as BrandChanges;
  const after = { ...before, ...sent, displayName: changes.displayName === undefined ? before.displayName : changes.displayName?.trim() || null };
  for (const field of Object.keys(COLOUR_FIELDS) as (keyof typeof COLOUR_FIELDS)[]) after[field] = after[field].toLowerCase();
  await write(db, where, before, after, {});
  return after;
}

/**
 * Sets the logo (a PNG of at most 256 KB and 1000 px a side) or removes it (null), recorded in the audit log (as
 * whether there is one, not its bytes).
 */
export async function setLogo(db: Db, where: audit.AuditPlace, png: Buffer | null): Promise<Brand> {
  if (png) checkLogo(png);
  const before = await getBrand(db, where.chainId);
  const at = where.at ?? new Date();
  const after = { ...before, hasLogo: png !== null, logoUpdatedAt: png ? at : null };
  await write(db, where, before, after, { logo: png, logo_updated_at: png ? at : null });
  return after;
}

function checkLogo(png: Buffer): void {
  if (png.length > LOGO_MAX_BYTES) throw parameterInvalid('logo', `The logo may be at most ${LOGO_MAX_BYTES / 1024} KB; this one is ${Math.ceil(png.length / 1024)} KB.`);
  let size: ReturnType<ReturnType<typeof imageSizes>['imageSize']> | undefined;
  try {
    size = imageSizes().imageSize(png);
  } catch {
    size = undefined;
  }
  if (size?.type !== 'png') throw parameterInvalid('logo', 'The logo must be a PNG image.');
  if (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE) {
    throw parameterInvalid('logo', `The logo may be at most ${LOGO_MAX_SIDE} × ${LOGO_MAX_SIDE} pixels; this one is ${size.width} × ${size.height}.`);
  }
}

async function write(db: Db, where: audit.AuditPlace, before: Brand, after: Brand, logo: { logo?: Buffer | null; logo_updated_at?: Date | null }): Promise<void> {
  await repo.putBrand(db, {
    chain_id: where.chainId,
    display_name: after.displayName,
    background_color: after.backgroundColor,
    foreground_color: after.foregroundColor,
    label_color: after.labelColor,
    ...logo,
    updated_at: where.at ?? new Date(),
  });
  const changes = audit.changedFields({ ...before }, { ...after }, [...AUDITED, 'hasLogo']);
  await audit.recordAudit(db, where, { action: 'brand.updated', target: { type: 'chain', id: where.chainId }, changes });
}

/** The logo's PNG bytes and when it was set, to serve; undefined when the chain has none. */
export async function brandLogo(db: Db, chainId: string): Promise<{ png: Buffer; updatedAt: Date } | undefined> {
  const row = await repo.findLogo(db, chainId);
  return row && { png: row.logo, updatedAt: row.logo_updated_at };
}
