// The chain's catalogue, shared by its venues (D21): products by SKU, categories, the owner's money rules, and how a
// check line resolves its rule.
import type { Db } from '../../db/database.js';
import type { Read } from '../../db/statement.js';
import { assertBulkValid, assertItemValid } from '../../shared/bulk.js';
import { ApiError, categoryRulesPlace } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller, Place } from '../accounts/schemas.js';
import * as audit from '../audit/service.js';
import { categoriesAt } from './cache.js';
import * as repo from './repo.js';
import {
  BulkProduct,
  type Category,
  type CategoryBody,
  type CategoryRules,
  type LineRule,
  type Product,
  type ProductBody,
} from './schemas.js';

/** The owner's money rules of a category, each with where the dashboard sets it. */
const MONEY_RULES = { earns_cashback: 'earnsCashback', payable_with_cashback: 'payableWithCashback', cashback_percent: 'ownCashbackPercent' } as const;

function presentProduct(row: repo.ProductRow): Product {
  return {
    object: 'product',
    id: row.id,
    sku: row.sku,
    name: row.name,
    category: row.category,
    price: row.price === null ? null : Number(row.price),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

type RuleColumns = Pick<repo.CategoryRow, 'earns_cashback' | 'payable_with_cashback' | 'cashback_percent_bp'>;

const presentRule = (row: RuleColumns) => ({
  earns_cashback: row.earns_cashback,
  payable_with_cashback: row.payable_with_cashback,
  cashback_percent: row.cashback_percent_bp === null ? null : row.cashback_percent_bp / 100,
});

/** Categories with their venues' own rules, read in one more statement for the lot. */
async function presentCategories(db: Db, chainId: string, rows: repo.CategoryRow[]): Promise<Category[]> {
  const venueRules = await repo.venueRulesOf(db, chainId, rows.map((r) => r.id));
  return rows.map((row) => ({
    object: 'category',
    id: row.id,
    external_id: row.external_id,
    name: row.name,
    ...presentRule(row),
    venue_rules: venueRules.filter((v) => v.category_id === row.id).map((v) => ({ venue_id: v.venue_id, ...presentRule(v) })),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  }));
}

const presentCategory = async (db: Db, chainId: string, row: repo.CategoryRow): Promise<Category> => (await presentCategories(db, chainId, [row]))[0]!;

function productRow(chainId: string, sku: string, body: ProductBody) {
  return { chain_id: chainId, id: newId(), sku, name: body.name, category: body.category ?? null, price: body.price ?? null };
}

async function writeProducts(trx: Db, chainId: string, rows: ReturnType<typeof productRow>[]) {
  const categories = [...new Set(rows.map((r) => r.category).filter((c): c is string => c !== null))];
  await repo.ensureCategories(trx, chainId, categories.map((external_id) => ({ id: newId(), external_id })));
  return repo.upsertProducts(trx, rows);
}

export async function putProduct(trx: Db, caller: Caller, sku: string, body: ProductBody): Promise<{ product: Product; created: boolean }> {
  assertItemValid(BulkProduct, { sku, ...body });
  const [written] = await writeProducts(trx, caller.chainId, [productRow(caller.chainId, sku, body)]);
  if (written) return { product: presentProduct(written), created: written.inserted };
  return { product: presentProduct((await repo.findProduct(trx, caller.chainId, sku))!), created: false };
}

export async function getProduct(db: Db, caller: Caller, sku: string): Promise<Product> {
  const product = await findProduct(db, caller, sku);
  if (!product) throw new ApiError('product_not_found');
  return product;
}

export async function findProduct(db: Db, caller: Caller, sku: string): Promise<Product | undefined> {
  const row = await repo.findProduct(db, caller.chainId, sku);
  return row && presentProduct(row);
}

export async function deleteProduct(trx: Db, caller: Caller, sku: string) {
  if (!(await repo.deleteProduct(trx, caller.chainId, sku))) throw new ApiError('product_not_found');
  return { object: 'product' as const, sku, deleted: true as const };
}

export async function listProducts(db: Db, caller: Caller, page: Page, filter: { category?: string }): Promise<List<Product>> {
  await checkCursor(page, (id) => repo.productIdExists(db, caller.chainId, id));
  return toList('/v1/catalog/products', page, await repo.listProducts(db, caller.chainId, page, filter.category), presentProduct);
}

/** Up to 1000 products, all or nothing, with every bad item reported; categories they name are created. */
export async function syncProducts(trx: Db, caller: Caller, input: { items: unknown[] }) {
  assertBulkValid(BulkProduct, input.items, 'sku', 'products');
  const items = input.items as BulkProduct[];
  const written = await writeProducts(trx, caller.chainId, items.map((i) => productRow(caller.chainId, i.sku, i)));
  const created = written.filter((r) => r.inserted).length;
  return { object: 'catalog_sync' as const, created, updated: written.length - created, unchanged: items.length - written.length };
}

export async function listCategories(db: Db, caller: Caller, page: Page): Promise<List<Category>> {
  await checkCursor(page, (id) => repo.categoryIdExists(db, caller.chainId, id));
  const rows = await repo.listCategories(db, caller.chainId, page);
  const presented = new Map((await presentCategories(db, caller.chainId, rows.slice(0, page.limit))).map((c) => [c.id, c]));
  return toList('/v1/catalog/categories', page, rows, (row) => presented.get(row.id)!);
}

/** A key names categories; their money rules belong to the owner (403 owner_only). */
export async function putCategory(trx: Db, caller: Caller, externalId: string, body: CategoryBody): Promise<{ category: Category; created: boolean }> {
  const sent = (Object.keys(MONEY_RULES) as (keyof typeof MONEY_RULES)[]).filter((rule) => body[rule] !== undefined);
  if (sent.length) {
    throw new ApiError('owner_only', {
      param: sent[0],
      message: `${sent.join(', ')} can be set only by the venue's owner, ${categoryRulesPlace(sent.map((rule) => MONEY_RULES[rule]))}. Send only name.`,
    });
  }
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(externalId)) {
    throw new ApiError('parameter_invalid', { param: 'external_id', message: 'external_id must be 1-64 letters, digits or . _ : -' });
  }
  const row = await repo.upsertCategoryName(trx, caller.chainId, newId(), externalId, body.name);
  return { category: await presentCategory(trx, caller.chainId, row), created: row.inserted };
}

/** The owner's tools name the category by its external_id (the path's, or the CLI's --category). */
const categoryNotFound = () => new ApiError('category_not_found', { param: 'external_id' });

/** The rule columns the owner's changes set (only those sent), checked. */
function ruleChanges(rules: CategoryRules): Partial<RuleColumns> {
  const percent = rules.cashback_percent;
  if (percent !== undefined && percent !== null && !(percent >= 0 && percent <= 100 && Math.round(percent * 100) === percent * 100)) {
    throw new ApiError('parameter_invalid', { param: 'cashback_percent', message: 'cashback_percent must be 0-100 with up to two decimals, or null.' });
  }
  return {
    ...(rules.earns_cashback === undefined ? {} : { earns_cashback: rules.earns_cashback }),
    ...(rules.payable_with_cashback === undefined ? {} : { payable_with_cashback: rules.payable_with_cashback }),
    ...(percent === undefined ? {} : { cashback_percent_bp: percent === null ? null : Math.round(percent * 100) }),
  };
}

const RULE_FIELDS = ['earns_cashback', 'payable_with_cashback', 'cashback_percent'] as const;

/** The change of a category's rule (the chain's, or a venue's own) as its audit entry. */
const ruleAudit = (externalId: string, before: RuleColumns, after: RuleColumns) => ({
  action: 'category_rule.updated' as const,
  target: { type: 'category', id: externalId },
  changes: audit.changedFields(presentRule(before), presentRule(after), RULE_FIELDS),
});

/** The owner's tool (dashboard, CLI) sets a category's money rules for the chain; the category must exist. */
export async function setCategoryRules(db: Db, chainId: string, externalId: string, rules: CategoryRules, by: audit.Who): Promise<Category> {
  const changes = ruleChanges(rules);
  const before = await repo.findCategory(db, chainId, externalId);
  const row = before && (await repo.updateCategoryRules(db, chainId, externalId, changes));
  if (!row) throw categoryNotFound();
  await audit.recordAudit(db, { chainId, venueId: null, ...by }, ruleAudit(externalId, before, row));
  return presentCategory(db, chainId, row);
}

/**
 * The owner's tool sets one venue's own rule for a category of its chain (D21): the changes sent, over the venue's
 * rule if it has one, else over the chain's; the whole rule then wins at that venue.
 */
export async function setVenueCategoryRules(db: Db, place: Place, externalId: string, rules: CategoryRules, by: audit.Who): Promise<Category> {
  const changes = ruleChanges(rules);
  const category = await repo.findCategory(db, place.chainId, externalId);
  if (!category) throw categoryNotFound();
  const own = (await repo.venueRulesOf(db, place.chainId, [category.id])).find((v) => v.venue_id === place.venueId);
  const base: RuleColumns = own ?? category;
  const rule = {
    earns_cashback: changes.earns_cashback ?? base.earns_cashback,
    payable_with_cashback: changes.payable_with_cashback ?? base.payable_with_cashback,
    cashback_percent_bp: changes.cashback_percent_bp === undefined ? base.cashback_percent_bp : changes.cashback_percent_bp,
  };
  await repo.putVenueRule(db, { chain_id: place.chainId, venue_id: place.venueId, category_id: category.id, ...rule });
  await audit.recordAudit(db, { ...place, ...by }, ruleAudit(externalId, base, rule));
  return presentCategory(db, place.chainId, category);
}

/** The venue follows the chain's rule for the category again. */
export async function clearVenueCategoryRules(db: Db, place: Place, externalId: string, by: audit.Who): Promise<Category> {
  const category = await repo.findCategory(db, place.chainId, externalId);
  if (!category) throw categoryNotFound();
  const own = (await repo.venueRulesOf(db, place.chainId, [category.id])).find((v) => v.venue_id === place.venueId);
  await repo.deleteVenueRule(db, place, category.id);
  // The venue follows the chain's rule again: from its own to the chain's.
  if (own) await audit.recordAudit(db, { ...place, ...by }, ruleAudit(externalId, own, category));
  return presentCategory(db, place.chainId, category);
}

/** The owner's "add category" (dashboard, CLI): names it (or renames an existing one) and sets the money rules sent. */
export async function putCategoryWithRules(trx: Db, caller: Caller, externalId: string, body: { name: string } & CategoryRules): Promise<Category> {
  const { name, ...rules } = body;
  const { category } = await putCategory(trx, caller, externalId, { name });
  return Object.values(rules).some((r) => r !== undefined) ? setCategoryRules(trx, caller.chainId, externalId, rules, audit.whoOf(caller)) : category;
}

/**
 * How each check line is treated: sku → product → category → rules; without a product, the category the line
 * names; with neither, the program's defaults (earns, payable, the member's level percent).
 */
export interface LineRules {
  /** What the gather reads; undefined when no line names a SKU or a category (they take the defaults). */
  read: Read<repo.LineCatalogue> | undefined;
  /** Each line's rule, from what `read` gave and the chain's category rules at the version it read. */
  resolve(db: Db, read: repo.LineCatalogue | undefined): Promise<LineRule[]>;
}

const DEFAULT_RULE = { source: 'default', earnsCashback: true, payableWithCashback: true, percentBp: null } as const;

/** The rules of a check's lines: a product's category by SKU first, else the named category, else the defaults. */
export function lineRules(place: Place, lines: { sku?: string; category?: string }[]): LineRules {
  const skus = [...new Set(lines.flatMap((l) => (l.sku ? [l.sku] : [])))];
  const named = lines.some((l) => l.category);
  return {
    read: skus.length || named ? repo.lineCatalogueRead(place.chainId, skus) : undefined,
    async resolve(db, read) {
      if (!read) return lines.map((line) => ({ ...DEFAULT_RULE, category: line.category ?? null }));
      const { byExternalId } = await categoriesAt(db, place.chainId, read.version);
      const productCategory = new Map(read.products.map((p) => [p.sku, p.category]));
      return lines.map((line) => {
        const viaProduct = line.sku ? byExternalId.get(productCategory.get(line.sku) ?? '') : undefined;
        const category = viaProduct ?? (line.category ? byExternalId.get(line.category) : undefined);
        if (!category) return { ...DEFAULT_RULE, category: line.category ?? null };
        // A venue's own rule wins there, whole (D21).
        const rule = category.venues[place.venueId] ?? category;
        return {
          category: category.external_id,
          source: viaProduct ? 'product' : 'category',
          earnsCashback: rule.earns_cashback,
          payableWithCashback: rule.payable_with_cashback,
          percentBp: rule.cashback_percent_bp,
        };
      });
    },
  };
}
