// HTTP routes for checks: the dry-run calculation (applying, voids and refunds come with the rest of the money engine).
import { callerOf, type App } from '../../http/context.js';
import { withErrors } from '../../http/responses.js';
import { CheckBody, CheckCalculation } from './schemas.js';
import * as service from './service.js';

export async function checkRoutes(app: App): Promise<void> {
  app.post(
    '/v1/checks/calculate',
    {
      schema: {
        tags: ['Checks'],
        summary: 'What a check would earn and redeem, with display text; writes nothing',
        description:
          'Errors: 400 parameter_invalid, 400 redeem_not_supported, 402 insufficient_balance (with available), 402 redeem_limit_exceeded (with max_redeem), 404 member_not_found.',
        body: CheckBody,
        response: withErrors({ 200: CheckCalculation }),
      },
    },
    (req) => service.calculateCheck(app.deps.db, callerOf(req), req.body, app.deps.clock),
  );
}
