// The dashboard's menu over HTTP: dishes with their prices and the stop list, one at a time or many prices at once.
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import type { App } from '../../http/context.js';
import { shownAs, withErrors } from '../../http/responses.js';
import { ListOf } from '../../shared/pagination.js';
import { Dish, DishBody, DishParams, DishPatch, DishPrice, MAX_BULK_DISHES } from '../menu/schemas.js';
import * as menu from '../menu/service.js';
import * as dishes from './dishes.js';
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
export async function dashboardDishRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;
  const owner = (req: Parameters<typeof sessionOf>[0]) => service.ownerCallerOf(sessionOf(req), clock.now());

  app.get('/dishes', { schema: { tags, summary: 'Dishes, newest first', querystring: PageQuery, response: withErrors({ 200: ListOf(Dish) }) } }, async (req) =>
    menu.listDishes(db, owner(req), { limit: req.query.limit ?? 100, startingAfter: req.query.starting_after }, {}),
  );

  app.put(
    '/dishes/:external_id',
    { schema: { tags, summary: 'Add a dish, or replace it whole (201 when added)', params: DishParams, body: DishBody, response: withErrors({ 200: Dish, 201: Dish }) } },
    async (req, reply) => {
      const { dish, created } = await inTransaction(db, (trx) => dishes.putDish(trx, owner(req), req.params.external_id, req.body));
      return reply.code(created ? 201 : 200).send(dish);
    },
  );

  app.patch(
    '/dishes/:external_id',
    { schema: { tags, summary: "Change a dish's price, name, category, description, or put it on the stop list (available: false)", params: DishParams, body: DishPatch, response: withErrors({ 200: Dish }) } },
    async (req) => inTransaction(db, (trx) => dishes.changeDish(trx, owner(req), req.params.external_id, req.body)),
  );

  app.delete('/dishes/:external_id', { schema: { tags, summary: 'Remove a dish from the menu', params: DishParams, response: withErrors({ 200: Type.Object({ object: Type.Literal('dish'), external_id: Type.String(), deleted: Type.Literal(true) }) }) } }, async (req) =>
    inTransaction(db, (trx) => dishes.removeDish(trx, owner(req), req.params.external_id)),
  );

  app.post(
    '/dishes/prices',
    { schema: { tags, summary: 'New prices for many dishes at once: all or none', body: NewPrices, response: withErrors({ 200: ChangedPrices }) } },
    async (req) => {
      const data = await inTransaction(db, (trx) => dishes.changePrices(trx, owner(req), req.body.items));
      return { changed: data.length, data };
    },
  );
}
