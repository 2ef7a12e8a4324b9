// Dishes (keyed by the caller's SKU), the bulk sync, and tables (D14).
import { Type, type Static } from 'typebox';
import { shownAs } from '../../http/responses.js';

export const ExternalId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:-]+$', description: "The caller's SKU." });

const DishFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  category: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
  price: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Minor units of the venue currency.' }),
  available: Type.Optional(Type.Boolean({ default: true, description: 'false puts the dish on the stop list.' })),
};

export const DishBody = Type.Object(DishFields, { additionalProperties: false });
export type DishBody = Static<typeof DishBody>;

export const DishPatch = Type.Partial(Type.Object(DishFields), { additionalProperties: false });
export type DishPatch = Static<typeof DishPatch>;

export const BulkDish = Type.Object({ external_id: ExternalId, ...DishFields }, { title: 'BulkDish', additionalProperties: false });
export type BulkDish = Static<typeof BulkDish>;

export const MAX_BULK_DISHES = 500;

/** One dish's new price in a bulk price change. */
export const DishPrice = Type.Object({ external_id: ExternalId, price: DishFields.price }, { title: 'DishPrice', additionalProperties: false });
export type DishPrice = Static<typeof DishPrice>;

export const BulkSync = Type.Object(
  {
    // Each item is checked by the service, so that every bad one is reported at once (src/shared/bulk.ts).
    items: Type.Array(shownAs(Type.Object({}, { additionalProperties: true }), BulkDish), {
      maxItems: MAX_BULK_DISHES,
      description: `Up to ${MAX_BULK_DISHES} dishes, each {external_id, name, description?, category?, price, available?}.`,
    }),
    replace: Type.Optional(Type.Boolean({ default: false, description: 'true removes every dish not in items.' })),
  },
  { additionalProperties: false },
);

export const BulkResult = Type.Object({
  object: Type.Literal('menu_sync'),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  removed: Type.Integer(),
}, { title: 'MenuSync' });
export type BulkResult = Static<typeof BulkResult>;

export const Dish = Type.Object({
  object: Type.Literal('dish'),
  id: Type.String({ format: 'uuid' }),
  external_id: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  category: Type.Union([Type.String(), Type.Null()]),
  price: Type.Integer(),
  available: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}, { title: 'Dish' });
export type Dish = Static<typeof Dish>;

export const DeletedDish = Type.Object({ object: Type.Literal('dish'), external_id: Type.String(), deleted: Type.Literal(true) }, { title: 'DeletedDish' });

// Read loosely, as the catalogue's keys are (SkuParams): the service answers a bad one; the document shows the rule.
export const DishParams = Type.Object({ external_id: shownAs(Type.String(), ExternalId) });

export interface VenueTable {
  id: string;
  tableCode: string;
  name: string;
}
