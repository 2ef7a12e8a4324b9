// HTTP routes for holds: create, read, release; a check with hold_id captures one.
import { placeCallerOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { CreateHold, Hold, HoldParams } from './schemas.js';
import * as service from './service.js';

const tags = ['Holds'];

export async function holdRoutes(app: App): Promise<void> {
  app.post(
    '/v1/holds',
    {
      schema: {
        operationId: 'createHold',
        errors: ['redeem_not_supported', 'insufficient_balance', 'member_not_found'],
        tags,
        summary: 'Reserve cashback for a coming check; capture it with POST /v1/checks and hold_id',
        body: CreateHold,
        response: withErrors({ 201: Hold }),
      },
    },
    (req, reply) =>
      runMutation(req, reply, 201, (trx, key) => service.createHold(trx, placeCallerOf(req), req.body, app.deps.clock, key), { folded: true }),
  );

  app.get(
    '/v1/holds/:id',
    { schema: { operationId: 'getHold', errors: ['hold_not_found'], tags, summary: 'A hold; status is expired from expires_at on', params: HoldParams, response: withErrors({ 200: Hold }) } },
    (req) => service.getHold(app.deps.db, placeCallerOf(req), req.params.id),
  );

  app.post(
    '/v1/holds/:id/release',
    {
      schema: {
        operationId: 'releaseHold',
        errors: ['hold_not_found', 'hold_captured', 'hold_released', 'hold_expired'],
        tags,
        summary: 'Give the reserved cashback back now',
        params: HoldParams,
        response: withErrors({ 200: Hold }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.releaseHold(trx, placeCallerOf(req), req.params.id, app.deps.clock)),
  );
}
