// The catalogue (D14): products by SKU and categories with the owner's money rules.
import { Type, type Static } from 'typebox';
import { shownAs } from '../../http/responses.js';

const Key = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:-]+$', description });

export const MAX_BULK_PRODUCTS = 1000;

const ProductFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  category: Type.Optional(Type.Union([Key("The category's external_id; created if new."), Type.Null()])),
  price: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()], { description: 'Minor units; informational.' })),
};

export const ProductBody = Type.Object(ProductFields, { additionalProperties: false });
export type ProductBody = Static<typeof ProductBody>;

export const BulkProduct = Type.Object({ sku: Key('The SKU.'), ...ProductFields }, { title: 'BulkProduct', additionalProperties: false });
export type BulkProduct = Static<typeof BulkProduct>;

export const BulkProducts = Type.Object(
  {
    // Each item is checked by the service, so that every bad one is reported at once (src/shared/bulk.ts).
    items: Type.Array(shownAs(Type.Object({}, { additionalProperties: true }), BulkProduct), {
      maxItems: MAX_BULK_PRODUCTS,
      description: `Up to ${MAX_BULK_PRODUCTS} products, each {sku, name, category?, price?}.`,
    }),
  },
  { additionalProperties: false },
);

export const BulkProductsResult = Type.Object({
  object: Type.Literal('catalog_sync'),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
}, { title: 'CatalogSync' });

export const Product = Type.Object({
  object: Type.Literal('product'),
  id: Type.String({ format: 'uuid' }),
  sku: Type.String(),
  name: Type.String(),
  category: Type.Union([Type.String(), Type.Null()]),
  price: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}, { title: 'Product' });
export type Product = Static<typeof Product>;

export const MoneyRules = {
  earns_cashback: Type.Boolean({ description: 'Lines of this category earn cashback. Owner only.' }),
  payable_with_cashback: Type.Boolean({ description: 'Lines of this category can be paid with cashback. Owner only.' }),
  cashback_percent: Type.Union([Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01 }), Type.Null()], {
    description: "The category's own earning percent; null: the member's level percent. Owner only.",
  }),
};

export const Category = Type.Object({
  object: Type.Literal('category'),
  id: Type.String({ format: 'uuid' }),
  external_id: Type.String(),
  name: Type.String(),
  ...MoneyRules,
  venue_rules: Type.Array(Type.Object({ venue_id: Type.String({ format: 'uuid' }), ...MoneyRules }), {
    description: "Venues of the chain with a rule of their own for this category, which wins there over the chain's (D21). Owner only.",
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}, { title: 'Category' });
export type Category = Static<typeof Category>;

/** Keys may name categories; sending a money rule is answered 403 owner_only rather than "unknown field". */
export const CategoryBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    earns_cashback: Type.Optional(MoneyRules.earns_cashback),
    payable_with_cashback: Type.Optional(MoneyRules.payable_with_cashback),
    cashback_percent: Type.Optional(MoneyRules.cashback_percent),
  },
  { additionalProperties: false },
);
export type CategoryBody = Static<typeof CategoryBody>;

export type CategoryRules = Partial<{ earns_cashback: boolean; payable_with_cashback: boolean; cashback_percent: number | null }>;

// The services answer a bad key in the path in their order and words (a read, a change or a delete: not found; a
// put: parameter_invalid after its other checks), so the path is read loosely; the document shows the rule.
export const SkuParams = Type.Object({ sku: shownAs(Type.String(), Key('The SKU.')) });
export const CategoryParams = Type.Object({ external_id: shownAs(Type.String(), Key("The category's external_id.")) });

/** Where a line's rule came from: the SKU's product's category, the category the line named, or neither. */
export type RuleSource = 'product' | 'category' | 'default';

/** How a check line is treated, resolved sku → product → category → rules. */
export interface LineRule {
  category: string | null;
  source: RuleSource;
  earnsCashback: boolean;
  payableWithCashback: boolean;
  /** null: the member's level percent. */
  percentBp: number | null;
}
