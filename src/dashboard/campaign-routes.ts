// The dashboard's campaigns (D22): the owner sets them up for the whole chain or some of its venues, in either mode.
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { ListOf } from '../shared/pagination.js';
import { Campaign, CampaignParams, CampaignResults, CreateCampaign, UpdateCampaign } from '../modules/campaigns/schemas.js';
import * as campaigns from '../modules/campaigns/service.js';
import * as accounts from '../modules/accounts/service.js';
import { ApiError } from '../shared/errors.js';
import { sessionOf } from './request.js';
import * as service from './service.js';

const NewCampaign = Type.Object(
  { ...CreateCampaign.properties, livemode: Type.Boolean({ description: 'Live campaigns credit live members, test ones test members.' }) },
  { additionalProperties: false },
);

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardCampaignRoutes(app: App, tags: string[]): Promise<void> {
  // The owner acts for the chain, not for the venue the session shows (a venue's key would be held to its venue).
  const ownerOf = (req: Parameters<typeof sessionOf>[0]) => ({ ...service.ownerCallerOf(sessionOf(req), app.deps.clock.now()), keyVenueId: null });

  // A manager limited to some venues (D24) sees and runs only campaigns of those venues: none of the whole chain's.
  const reaches = (req: Parameters<typeof sessionOf>[0], venueIds: string[] | null | undefined) => {
    const { owner } = sessionOf(req);
    return owner.venueIds === null || (!!venueIds && venueIds.every((v) => accounts.userMayOpen(owner, v)));
  };
  const refuseOutside = (req: Parameters<typeof sessionOf>[0], venueIds: string[] | null | undefined) => {
    if (!reaches(req, venueIds)) {
      throw new ApiError('venue_not_found', { param: 'venue_ids', message: 'Name only venues you run: a campaign of other venues, or of the whole chain, is for the owner.' });
    }
  };

  app.get('/campaigns', { schema: { tags, summary: "The chain's campaigns, newest first", response: withErrors({ 200: ListOf(Campaign) }) } }, async (req) => {
    const list = await campaigns.listCampaigns(app.deps.db, ownerOf(req), { limit: 100 }, {});
    return { ...list, data: list.data.filter((c) => reaches(req, c.venue_ids)) };
  });

  app.post('/campaigns', { schema: { tags, summary: 'Set up a campaign', body: NewCampaign, response: withErrors({ 201: Campaign }) } }, async (req, reply) => {
    const { livemode, ...input } = req.body;
    refuseOutside(req, input.venue_ids);
    const created = await inTransaction(app.deps.db, (trx) => campaigns.createCampaign(trx, { ...ownerOf(req), livemode }, input));
    return reply.code(201).send(created);
  });

  app.get('/campaigns/:id/results', { schema: { tags, summary: "A campaign's results", params: CampaignParams, response: withErrors({ 200: CampaignResults }) } }, async (req) => {
    const db = app.deps.db;
    if (!reaches(req, (await campaigns.getCampaign(db, ownerOf(req), req.params.id)).venue_ids)) throw new ApiError('campaign_not_found');
    return campaigns.campaignResults(db, ownerOf(req), req.params.id);
  });

  app.patch('/campaigns/:id', { schema: { tags, summary: 'Change, pause, resume or end a campaign', params: CampaignParams, body: UpdateCampaign, response: withErrors({ 200: Campaign }) } }, async (req) =>
    inTransaction(app.deps.db, async (trx) => {
      // Another venue's campaign is not found, as another chain's.
      if (!reaches(req, (await campaigns.getCampaign(trx, ownerOf(req), req.params.id)).venue_ids)) throw new ApiError('campaign_not_found');
      if (req.body.venue_ids !== undefined) refuseOutside(req, req.body.venue_ids);
      return campaigns.updateCampaign(trx, ownerOf(req), req.params.id, req.body);
    }),
  );
}
