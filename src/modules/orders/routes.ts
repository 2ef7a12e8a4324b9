// HTTP routes for orders: the till's list, read and status moves, and the guests' public order endpoint.
import { Type } from 'typebox';
import { callerOf, placeCallerOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ApiError } from '../../shared/errors.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import * as accounts from '../accounts/service.js';
import { MoveOrder, Order, OrderParams, ORDER_STATUSES, PlaceOrder, PublicOrderParams } from './schemas.js';
import * as service from './service.js';

const tags = ['Orders'];

export async function orderRoutes(app: App): Promise<void> {
  app.get(
    '/v1/orders',
    {
      schema: {
        operationId: 'listOrders',
        tags,
        summary: 'Table orders, newest first; poll every 10-15 s or use the order.created webhook',
        querystring: Type.Object(
          {
            ...PageQuery,
            status: Type.Optional(Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)) as [ReturnType<typeof Type.Literal<'new'>>])),
            created_after: Type.Optional(Type.String({ format: 'date-time' })),
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: ListOf(Order) }),
      },
    },
    (req) => service.listOrders(app.deps.db, callerOf(req), pageFromQuery(req.query), req.query),
  );

  app.get(
    '/v1/orders/:id',
    { schema: { operationId: 'getOrder', errors: ['order_not_found'], tags, summary: 'Get an order', params: OrderParams, response: withErrors({ 200: Order }) } },
    (req) => service.getOrder(app.deps.db, placeCallerOf(req), req.params.id),
  );

  app.post(
    '/v1/orders/:id/status',
    {
      schema: {
        operationId: 'moveOrder',
        errors: ['order_not_found', 'invalid_status_transition'],
        tags,
        summary: 'Move an order: new → accepted | rejected; accepted → preparing → ready → served → closed; new…ready → cancelled',
        description: 'Any other move is 409 invalid_status_transition, naming both states.',
        params: OrderParams,
        body: MoveOrder,
        response: withErrors({ 200: Order }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.moveOrder(trx, placeCallerOf(req), req.params.id, req.body as MoveOrder)),
  );
}

/** The guests' endpoint behind the QR menu: no key, prices from the server, limited per client address. */
export async function publicOrderRoutes(app: App): Promise<void> {
  app.post(
    '/public/v1/menus/:venue_slug/orders',
    {
      schema: {
        operationId: 'placeOrder',
        errors: ['menu_not_found', 'table_not_found', 'dish_unavailable'],
        tags: ['Public menu'],
        summary: 'Place a table order from the QR menu (no key)',
        description:
          'Limited per client address. Unknown dishes: 400; stop-listed dishes: 409 dish_unavailable; unknown table: 404 table_not_found. ' +
          'Send an Idempotency-Key to retry safely: a retry with the same key and body gets the first answer.',
        security: [],
        params: PublicOrderParams,
        body: PlaceOrder,
        response: withErrors({ 201: Order }),
      },
      preHandler: async (req) => {
        const { limiter, clock, config } = app.deps;
        const limit = config.publicOrdersPerMinute;
        const decision = await limiter.hit(`public-order:${req.ip}`, limit, 60_000, clock.now().getTime());
        if (!decision.allowed) {
          throw new ApiError('rate_limited', {
            message: `Too many orders from this address: the limit is ${limit} per minute. Ask the staff for help.`,
            headers: { 'retry-after': String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))) },
          });
        }
      },
    },
    async (req, reply) => {
      // A guest's phone retries on a bad network: with an Idempotency-Key the retry gets the first answer, not a second
      // order. Guests' keys are kept per venue, apart from the keys of the venue's own API keys.
      const venue = await accounts.findVenueBySlug(app.deps.db, req.params.venue_slug);
      if (!venue) throw new ApiError('menu_not_found');
      return runMutation(req, reply, 201, (trx) => service.placeOrder(trx, req.params.venue_slug, req.body), {
        scope: { ...accounts.placeOf(venue), namespace: 'public' },
      });
    },
  );
}
