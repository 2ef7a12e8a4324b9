// SQL for catalogue products and categories; bulk uploads are one statement each, whatever their size.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Read } from '../../db/statement.js';
import type { CatalogCategoriesTable, CatalogProductsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

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
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .$if(category !== undefined, (q) => q.where('category', '=', category!))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
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

export async function categoryIdExists(db: Db, chainId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('catalog_categories').select('id').where('chain_id', '=', chainId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function listCategories(db: Db, chainId: string, page: Page): Promise<CategoryRow[]> {
  return db
    .selectFrom('catalog_categories')
    .selectAll()
    .where('chain_id', '=', chainId)
    .$if(page.startingAfter !== undefined, (q) => q.where('id', '<', page.startingAfter!))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
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

/** The category rules of the named SKUs (through their products) and categories, as a read of a gather. */
export function rulesForLines(chainId: string, skus: string[], categories: string[]): Read<LineRuleRow[]> {
  return {
    query: sql`
      with products as (
        select sku, category from catalog_products where chain_id = ${chainId} and sku = any(${skus}::text[])
      )
      select coalesce(jsonb_agg(jsonb_build_object('sku', p.sku, 'external_id', c.external_id, 'earns_cashback', c.earns_cashback,
        'payable_with_cashback', c.payable_with_cashback, 'cashback_percent_bp', c.cashback_percent_bp)), '[]'::jsonb)
      from catalog_categories c
      left join products p on p.category = c.external_id
      where c.chain_id = ${chainId} and (p.sku is not null or c.external_id = any(${categories}::text[]))`,
    parse: (value) => value as LineRuleRow[],
  };
}
