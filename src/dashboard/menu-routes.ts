// The dashboard's menu over HTTP: dishes with their prices and the stop list, one at a time or many prices at once;
// and the catalogue's products (the chain's), which checks resolve by SKU.
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { shownAs, withErrors } from '../http/responses.js';
import { ListOf } from '../shared/pagination.js';
import { Product, ProductBody } from '../modules/catalogue/schemas.js';
import * as catalogue from '../modules/catalogue/service.js';
import { Dish, DishBody, DishParams, DishPatch, DishPrice, MAX_BULK_DISHES } from '../modules/menu/schemas.js';
import * as menu from '../modules/menu/service.js';
import * as changes from './menu-changes.js';
import { sessionOf } from './request.js';
import { PageQuery } from './schemas.js';
import * as service from './service.js';

const NewPrices = Type.Object(
  {
    // Each item is checked by the service, so every bad one is named at once (src/shared/bulk.ts).
    items: Type.Array(shownAs(Type.Object({}, { additionalProperties: true }), DishPrice), { minItems: 1, maxItems: MAX_BULK_DISHES }),
  },
  { additionalProperties: false },
);
const ChangedPrices = Type.Object({ changed: Type.Integer({ description: 'How many prices changed (the same price again changes nothing).' }), data: Type.Array(Dish) });

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardMenuRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;
  const owner = (req: Parameters<typeof sessionOf>[0]) => service.ownerCallerOf(sessionOf(req), clock.now());

  app.get('/dishes', { schema: { tags, summary: 'Dishes, newest first', querystring: PageQuery, response: withErrors({ 200: ListOf(Dish) }) } }, async (req) =>
    menu.listDishes(db, owner(req), { limit: req.query.limit ?? 100, startingAfter: req.query.starting_after }, {}),
  );

  app.put(
    '/dishes/:external_id',
    { schema: { tags, summary: 'Add a dish, or replace it whole (201 when added)', params: DishParams, body: DishBody, response: withErrors({ 200: Dish, 201: Dish }) } },
    async (req, reply) => {
      const { dish, created } = await inTransaction(db, (trx) => changes.putDish(trx, owner(req), req.params.external_id, req.body));
      return reply.code(created ? 201 : 200).send(dish);
    },
  );

  app.patch(
    '/dishes/:external_id',
    { schema: { tags, summary: "Change a dish's price, name, category, description, or put it on the stop list (available: false)", params: DishParams, body: DishPatch, response: withErrors({ 200: Dish }) } },
    async (req) => inTransaction(db, (trx) => changes.changeDish(trx, owner(req), req.params.external_id, req.body)),
  );

  app.delete('/dishes/:external_id', { schema: { tags, summary: 'Remove a dish from the menu', params: DishParams, response: withErrors({ 200: Type.Object({ object: Type.Literal('dish'), external_id: Type.String(), deleted: Type.Literal(true) }) }) } }, async (req) =>
    inTransaction(db, (trx) => changes.removeDish(trx, owner(req), req.params.external_id)),
  );

  app.post(
    '/dishes/prices',
    { schema: { tags, summary: 'New prices for many dishes at once: all or none', body: NewPrices, response: withErrors({ 200: ChangedPrices }) } },
    async (req) => {
      const data = await inTransaction(db, (trx) => changes.changePrices(trx, owner(req), req.body.items));
      return { changed: data.length, data };
    },
  );

  const SkuParams = Type.Object({ sku: Type.String({ maxLength: 64 }) });
  app.get('/products', { schema: { tags, summary: "The chain's catalogue products, newest first", querystring: PageQuery, response: withErrors({ 200: ListOf(Product) }) } }, async (req) =>
    catalogue.listProducts(db, owner(req), { limit: req.query.limit ?? 100, startingAfter: req.query.starting_after }, {}),
  );

  app.put(
    '/products/:sku',
    { schema: { tags, summary: 'Add a product, or replace it whole (201 when added)', params: SkuParams, body: ProductBody, response: withErrors({ 200: Product, 201: Product }) } },
    async (req, reply) => {
      const { product, created } = await inTransaction(db, (trx) => changes.putProduct(trx, owner(req), req.params.sku, req.body));
      return reply.code(created ? 201 : 200).send(product);
    },
  );

  app.delete('/products/:sku', { schema: { tags, summary: 'Remove a product from the catalogue', params: SkuParams, response: withErrors({ 200: Type.Object({ object: Type.Literal('product'), sku: Type.String(), deleted: Type.Literal(true) }) }) } }, async (req) =>
    inTransaction(db, (trx) => changes.removeProduct(trx, owner(req), req.params.sku)),
  );
}
