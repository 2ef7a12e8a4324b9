// HTTP routes for dishes: list, get, PUT (create or replace), PATCH (price, stop list), DELETE, bulk sync.
import { Type } from 'typebox';
import { placeCallerOf, type App } from '../../http/context.js';
import { runMutation, runMutationWithStatus } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import { BulkResult, BulkSync, DeletedDish, Dish, DishBody, DishParams, DishPatch } from './schemas.js';
import * as service from './service.js';

const tags = ['Menu'];

export async function menuRoutes(app: App): Promise<void> {
  app.get(
    '/v1/menu/items',
    {
      schema: {
        operationId: 'listDishes',
        tags,
        summary: 'List dishes, newest first; available=false lists the stop list',
        querystring: Type.Object(
          { ...PageQuery, available: Type.Optional(Type.Boolean()), category: Type.Optional(Type.String({ maxLength: 100 })) },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: ListOf(Dish) }),
      },
    },
    (req) => service.listDishes(app.deps.db, placeCallerOf(req), pageFromQuery(req.query), req.query),
  );

  app.get(
    '/v1/menu/items/:external_id',
    { schema: { operationId: 'getDish', errors: ['dish_not_found'], tags, summary: 'Get a dish by its SKU', params: DishParams, response: withErrors({ 200: Dish }) } },
    (req) => service.getDish(app.deps.db, placeCallerOf(req), req.params.external_id),
  );

  app.put(
    '/v1/menu/items/:external_id',
    {
      schema: {
        operationId: 'putDish',
        tags,
        summary: 'Create the dish (201) or replace it whole (200)',
        params: DishParams,
        body: DishBody,
        response: withErrors({ 200: Dish, 201: Dish }),
      },
    },
    (req, reply) =>
      runMutationWithStatus(req, reply, async (trx) => {
        const { dish, created } = await service.putDish(trx, placeCallerOf(req), req.params.external_id, req.body);
        return { status: created ? 201 : 200, body: dish };
      }),
  );

  app.patch(
    '/v1/menu/items/:external_id',
    {
      schema: {
        operationId: 'updateDish',
        errors: ['dish_not_found'],
        tags,
        summary: 'Change some fields: price, or available (false puts the dish on the stop list)',
        params: DishParams,
        body: DishPatch,
        response: withErrors({ 200: Dish }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.patchDish(trx, placeCallerOf(req), req.params.external_id, req.body)),
  );

  app.delete(
    '/v1/menu/items/:external_id',
    { schema: { operationId: 'deleteDish', errors: ['dish_not_found'], tags, summary: 'Remove a dish', params: DishParams, response: withErrors({ 200: DeletedDish }) } },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.deleteDish(trx, placeCallerOf(req), req.params.external_id)),
  );

  app.post(
    '/v1/menu/items/bulk',
    {
      schema: {
        operationId: 'syncDishes',
        tags,
        summary: 'Sync up to 500 dishes at once: all or nothing; replace: true removes dishes not sent',
        description:
          'Any invalid item refuses the whole call with 400 parameter_invalid, param "items", and error.errors listing every bad item by index.',
        body: BulkSync,
        response: withErrors({ 200: BulkResult }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.syncDishes(trx, placeCallerOf(req), req.body)),
  );
}
