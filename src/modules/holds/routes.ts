// HTTP routes for holds: create, read, release; a check with hold_id captures one.
import { callerOf, type App } from '../../http/context.js';
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
        tags,
        summary: 'Reserve cashback for a coming check; capture it with POST /v1/checks and hold_id',
        description: 'Errors: 400 parameter_invalid, redeem_not_supported; 402 insufficient_balance (with available); 404 member_not_found.',
        body: CreateHold,
        response: withErrors({ 201: Hold }),
      },
    },
    (req, reply) => runMutation(req, reply, 201, (trx) => service.createHold(trx, callerOf(req), req.body, app.deps.clock)),
  );

  app.get(
    '/v1/holds/:id',
    { schema: { operationId: 'getHold', tags, summary: 'A hold; status is expired from expires_at on', params: HoldParams, response: withErrors({ 200: Hold }) } },
    (req) => service.getHold(app.deps.db, callerOf(req), req.params.id),
  );

  app.post(
    '/v1/holds/:id/release',
    {
      schema: {
        operationId: 'releaseHold',
        tags,
        summary: 'Give the reserved cashback back now',
        description: 'Errors: 404 hold_not_found; 409 hold_captured, hold_released, hold_expired.',
        params: HoldParams,
        response: withErrors({ 200: Hold }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.releaseHold(trx, callerOf(req), req.params.id, app.deps.clock)),
  );
}
