// HTTP routes for reports: the venue liability report of the caller's chain.
import { callerOf, type App } from '../../http/context.js';
import { withErrors } from '../../http/responses.js';
import { VenueLiabilityList, VenueLiabilityQuery } from './schemas.js';
import * as service from './service.js';

const tags = ['Reports'];

export async function reportRoutes(app: App): Promise<void> {
  app.get(
    '/v1/reports/venue_liability',
    {
      schema: {
        operationId: 'getVenueLiability',
        errors: ['parameter_invalid'],
        tags,
        summary: "Per venue of the chain, the cashback earned, redeemed, expired, adjusted and imported in a period, and the net",
        description:
          'The whole chain for any key of it (a venue key too): one row per venue, oldest first, then the row of no venue ' +
          "(`venue_id: null`: imports and a chain key's adjustments made without venue_id). `from` is included and `to` is " +
          'not; `from` must come before `to` (else 400 parameter_invalid). Minor units, redeemed and expired positive; ' +
          "net = earned + campaign + adjusted + imported − redeemed − expired, and the nets add up to the change in the " +
          "chain's outstanding cashback over the period, held cashback included.",
        querystring: VenueLiabilityQuery,
        response: withErrors({ 200: VenueLiabilityList }),
      },
    },
    (req) => service.venueLiability(app.deps.db, callerOf(req).chainId, service.periodOf(req.query), { livemode: req.query.livemode }),
  );
}
