// HTTP routes for campaigns: create, list, get, change (pause, resume, end through `status`) and their results.
import { Type } from 'typebox';
import { callerOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import { Campaign, CampaignListQuery, CampaignParams, CampaignResults, CreateCampaign, UpdateCampaign } from './schemas.js';
import * as service from './service.js';

const tags = ['Campaigns'];

export async function campaignRoutes(app: App): Promise<void> {
  app.post(
    '/v1/campaigns',
    {
      schema: {
        operationId: 'createCampaign',
        errors: ['venue_not_found', 'venue_not_allowed'],
        tags,
        summary: 'Set up a campaign of the chain (bonus, welcome, birthday or referral)',
        description:
          'Each type takes its own fields (docs/campaigns.md); a field of another type is 400 parameter_invalid naming it. ' +
          'Bonus and referral campaigns credit with checks (their shares in the check’s campaigns[]), welcome campaigns at enrolment, birthday campaigns on the day.',
        body: CreateCampaign,
        response: withErrors({ 201: Campaign }),
      },
    },
    (req, reply) => runMutation(req, reply, 201, (trx) => service.createCampaign(trx, callerOf(req), req.body)),
  );

  app.get(
    '/v1/campaigns',
    {
      schema: {
        operationId: 'listCampaigns',
        tags,
        summary: "The chain's campaigns, newest first",
        querystring: Type.Object({ ...PageQuery, ...CampaignListQuery }, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(Campaign) }),
      },
    },
    (req) => service.listCampaigns(app.deps.db, callerOf(req), pageFromQuery(req.query), { type: req.query.type, livemode: req.query.livemode }),
  );

  app.get(
    '/v1/campaigns/:id',
    { schema: { operationId: 'getCampaign', errors: ['campaign_not_found'], tags, summary: 'Get a campaign', params: CampaignParams, response: withErrors({ 200: Campaign }) } },
    (req) => service.getCampaign(app.deps.db, callerOf(req), req.params.id),
  );

  app.get(
    '/v1/campaigns/:id/results',
    {
      schema: {
        operationId: 'getCampaignResults',
        errors: ['campaign_not_found'],
        tags,
        summary: 'What a campaign gave, to how many members, and their checks and spend while it ran',
        description:
          'credits and credited (equal to spent) come from its ledger entries; checks and spend are the completed checks of the members it credited, ' +
          'closed from its start to its end (to null: it still runs) at its venues, less refunds (docs/campaigns.md, Results).',
        params: CampaignParams,
        response: withErrors({ 200: CampaignResults }),
      },
    },
    (req) => service.campaignResults(app.deps.db, callerOf(req), req.params.id),
  );

  app.patch(
    '/v1/campaigns/:id',
    {
      schema: {
        operationId: 'updateCampaign',
        errors: ['campaign_not_found', 'invalid_status_transition', 'venue_not_found', 'venue_not_allowed'],
        tags,
        summary: 'Change a campaign; status paused stops it, active resumes it, ended ends it for good',
        params: CampaignParams,
        body: UpdateCampaign,
        response: withErrors({ 200: Campaign }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.updateCampaign(trx, callerOf(req), req.params.id, req.body)),
  );
}
