// SQL for a chain's brand (chain_brands); the logo's bytes are read only where they are served.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ChainBrandsTable } from '../../db/schema.js';

export type BrandRow = Omit<Selectable<ChainBrandsTable>, 'logo'> & { has_logo: boolean };

export async function findBrand(db: Db, chainId: string): Promise<BrandRow | undefined> {
  return db
    .selectFrom('chain_brands')
    .select(['chain_id', 'display_name', 'background_color', 'foreground_color', 'label_color', 'logo_updated_at', 'updated_at', sql<boolean>`logo is not null`.as('has_logo')])
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
}

/** Writes the chain's brand whole (the first write makes its row). */
export async function putBrand(db: Db, row: Insertable<ChainBrandsTable>): Promise<void> {
  const { chain_id: _chainId, ...changes } = row;
  await db.insertInto('chain_brands').values(row).onConflict((oc) => oc.column('chain_id').doUpdateSet(changes)).execute();
}

export async function findLogo(db: Db, chainId: string): Promise<{ logo: Buffer; logo_updated_at: Date } | undefined> {
  const row = await db.selectFrom('chain_brands').select(['logo', 'logo_updated_at']).where('chain_id', '=', chainId).where('logo', 'is not', null).executeTakeFirst();
  return row && { logo: row.logo!, logo_updated_at: row.logo_updated_at! };
}
