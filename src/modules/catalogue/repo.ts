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

/**
 * For check lines, in one query: the category rules reached through each SKU's product, and those of the
 * categories lines name directly. A row's `sku` is null when it was reached by name only.
 */
export interface LineRuleRow {
  sku: string | null;
  external_id: string;
  earns_cashback: boolean;
  payable_with_cashback: boolean;
  cashback_percent_bp: number | null;
}

/**
 * The category rules of the named SKUs (through their products) and categories at the venue `place` names, as a
 * read of a gather: the venue's own rule for a category where it has one, else the chain's.
 */
export function rulesForLines(place: Place, skus: string[], categories: string[]): Read<LineRuleRow[]> {
  return {
    query: sql`
      with products as (
        select sku, category from catalog_products where chain_id = ${place.chainId} and sku = any(${skus}::text[])
      )
      select coalesce(jsonb_agg(case when v.category_id is null
          then jsonb_build_object('sku', p.sku, 'external_id', c.external_id, 'earns_cashback', c.earns_cashback,
            'payable_with_cashback', c.payable_with_cashback, 'cashback_percent_bp', c.cashback_percent_bp)
          else jsonb_build_object('sku', p.sku, 'external_id', c.external_id, 'earns_cashback', v.earns_cashback,
            'payable_with_cashback', v.payable_with_cashback, 'cashback_percent_bp', v.cashback_percent_bp) end), '[]'::jsonb)
      from catalog_categories c
      left join products p on p.category = c.external_id
      left join category_venue_rules v on v.chain_id = c.chain_id and v.category_id = c.id and v.venue_id = ${place.venueId}
      where c.chain_id = ${place.chainId} and (p.sku is not null or c.external_id = any(${categories}::text[]))`,
    parse: (value) => value as LineRuleRow[],
  };
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
