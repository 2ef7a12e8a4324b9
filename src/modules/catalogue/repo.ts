// SQL for catalogue products and categories; bulk uploads are one statement each, whatever their size.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { Read } from '../../db/statement.js';
import type { CatalogCategoriesTable, CatalogProductsTable, CategoryVenueRulesTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import type { Place } from '../accounts/schemas.js';

export type ProductRow = Selectable<CatalogProductsTable>;
export type CategoryRow = Selectable<CatalogCategoriesTable>;

/** Inserts new products and updates changed ones; unchanged ones are not returned. */
export async function upsertProducts(db: Db, rows: Insertable<CatalogProductsTable>[]): Promise<(ProductRow & { inserted: boolean })[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('catalog_products')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['chain_id', 'sku'])
        .doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          category: eb.ref('excluded.category'),
          price: eb.ref('excluded.price'),
          updated_at: sql<Date>`now()`,
        }))
        .where(sql<boolean>`(catalog_products.name, catalog_products.category, catalog_products.price)
          is distinct from (excluded.name, excluded.category, excluded.price)`),
    )
    .returningAll()
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .execute();
}

/** Creates the categories products name that do not exist yet, named after their external_id. */
export async function ensureCategories(db: Db, chainId: string, rows: { id: string; external_id: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('catalog_categories')
    .values(rows.map((r) => ({ chain_id: chainId, id: r.id, external_id: r.external_id, name: r.external_id })))
    .onConflict((oc) => oc.columns(['chain_id', 'external_id']).doNothing())
    .execute();
}

export async function findProduct(db: Db, chainId: string, sku: string): Promise<ProductRow | undefined> {
  return db.selectFrom('catalog_products').selectAll().where('chain_id', '=', chainId).where('sku', '=', sku).executeTakeFirst();
}

export async function productIdExists(db: Db, chainId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('catalog_products').select('id').where('chain_id', '=', chainId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function listProducts(db: Db, chainId: string, page: Page, category?: string): Promise<ProductRow[]> {
  return db
    .selectFrom('catalog_products')
    .selectAll()
    .where('chain_id', '=', chainId)
    .$if(category !== undefined, (q) => q.where('category', '=', category!))
    .$call(keysetPage(page))
    .execute();
}

export async function deleteProduct(db: Db, chainId: string, sku: string): Promise<boolean> {
  const result = await db.deleteFrom('catalog_products').where('chain_id', '=', chainId).where('sku', '=', sku).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Creates the category or renames it; its money rules are untouched. */
export async function upsertCategoryName(db: Db, chainId: string, id: string, externalId: string, name: string) {
  return db
    .insertInto('catalog_categories')
    .values({ chain_id: chainId, id, external_id: externalId, name })
    .onConflict((oc) => oc.columns(['chain_id', 'external_id']).doUpdateSet({ name, updated_at: sql<Date>`now()` }))
    .returningAll()
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .executeTakeFirstOrThrow();
}

export async function updateCategoryRules(
  db: Db,
  chainId: string,
  externalId: string,
  rules: Partial<Pick<CategoryRow, 'earns_cashback' | 'payable_with_cashback' | 'cashback_percent_bp'>>,
): Promise<CategoryRow | undefined> {
  return db
    .updateTable('catalog_categories')
    .set({ ...rules, updated_at: sql<Date>`now()` })
    .where('chain_id', '=', chainId)
    .where('external_id', '=', externalId)
    .returningAll()
    .executeTakeFirst();
}

export async function findCategory(db: Db, chainId: string, externalId: string): Promise<CategoryRow | undefined> {
  return db.selectFrom('catalog_categories').selectAll().where('chain_id', '=', chainId).where('external_id', '=', externalId).executeTakeFirst();
}

export async function categoryIdExists(db: Db, chainId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('catalog_categories').select('id').where('chain_id', '=', chainId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function listCategories(db: Db, chainId: string, page: Page): Promise<CategoryRow[]> {
  return db
    .selectFrom('catalog_categories')
    .selectAll()
    .where('chain_id', '=', chainId)
    .$call(keysetPage(page))
    .execute();
}

/** A category's money rule as a check line takes it (the chain's, or a venue's own). */
export interface RuleRow {
  earns_cashback: boolean;
  payable_with_cashback: boolean;
  cashback_percent_bp: number | null;
}

/** What a check's gather reads of the catalogue: the version of the chain's category rules, and the named SKUs' categories. */
export interface LineCatalogue {
  version: string;
  products: { sku: string; category: string }[];
}

export function lineCatalogueRead(chainId: string, skus: string[]): Read<LineCatalogue> {
  // Each SKU is its own value, in a list whose length is a power of two (the last SKU repeated): PostgreSQL then
  // estimates the plan it keeps for the gather as it does one made for this check's SKUs, and keeps it. With the
  // SKUs as one array value, the kept plan was estimated for ten and one made for two or three looked cheaper, so
  // the whole gather was planned again on every check: half a calculate's PostgreSQL time (issue 21).
  const slots = skus.length && 2 ** Math.ceil(Math.log2(skus.length));
  const listed = Array.from({ length: slots }, (_, i) => skus[Math.min(i, skus.length - 1)]);
  return {
    query: sql`select jsonb_build_object('version', ch.catalogue_version, 'products', coalesce((
        select jsonb_agg(jsonb_build_object('sku', p.sku, 'category', p.category))
        from catalog_products p where p.chain_id = ${chainId} and p.sku = any(array[${sql.join(listed)}]::text[])), '[]'::jsonb))
      from chains ch where ch.chain_id = ${chainId}`,
    parse: (value) => value as LineCatalogue,
  };
}

/** Every category of the chain with its rule and the venues' own rules (by venue id), at the version they carry. */
export interface CategoryRules {
  version: string;
  categories: (RuleRow & { external_id: string; venues: Record<string, RuleRow> })[];
}

export async function categoryRulesOf(db: Db, chainId: string): Promise<CategoryRules> {
  const rule = (t: string) => sql.raw(`'earns_cashback', ${t}.earns_cashback, 'payable_with_cashback', ${t}.payable_with_cashback, 'cashback_percent_bp', ${t}.cashback_percent_bp`);
  const { rows } = await sql<CategoryRules>`select ch.catalogue_version as version, coalesce((
      select jsonb_agg(jsonb_build_object('external_id', c.external_id, ${rule('c')}, 'venues', coalesce((
        select jsonb_object_agg(v.venue_id, jsonb_build_object(${rule('v')}))
        from category_venue_rules v where v.chain_id = c.chain_id and v.category_id = c.id), '{}'::jsonb)))
      from catalog_categories c where c.chain_id = ch.chain_id), '[]'::jsonb) as categories
    from chains ch where ch.chain_id = ${chainId}`.execute(db);
  return rows[0]!;
}

export type VenueRuleRow = Selectable<CategoryVenueRulesTable>;

/** The venues' own rules of these categories, by venue within each. */
export async function venueRulesOf(db: Db, chainId: string, categoryIds: string[]): Promise<VenueRuleRow[]> {
  if (categoryIds.length === 0) return [];
  return db
    .selectFrom('category_venue_rules')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('category_id', 'in', categoryIds)
    .orderBy('category_id')
    .orderBy('venue_id')
    .execute();
}

/** Sets the venue's whole rule for the category. */
export async function putVenueRule(db: Db, row: Insertable<CategoryVenueRulesTable>): Promise<void> {
  await db
    .insertInto('category_venue_rules')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['chain_id', 'category_id', 'venue_id']).doUpdateSet({
        earns_cashback: row.earns_cashback,
        payable_with_cashback: row.payable_with_cashback,
        cashback_percent_bp: row.cashback_percent_bp,
        updated_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

/** The venue follows the chain's rule for the category again. */
export async function deleteVenueRule(db: Db, place: Place, categoryId: string): Promise<void> {
  await db.deleteFrom('category_venue_rules').where('chain_id', '=', place.chainId).where('venue_id', '=', place.venueId).where('category_id', '=', categoryId).execute();
}
