// The dashboard's campaigns (D22): the owner sets them up for the whole chain or some of its venues, in either mode.
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import type { App } from '../../http/context.js';
import { withErrors } from '../../http/responses.js';
import { ListOf } from '../../shared/pagination.js';
import { Campaign, CampaignParams, CreateCampaign, UpdateCampaign } from '../campaigns/schemas.js';
import * as campaigns from '../campaigns/service.js';
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

  app.get('/campaigns', { schema: { tags, summary: "The chain's campaigns, newest first", response: withErrors({ 200: ListOf(Campaign) }) } }, async (req) =>
    campaigns.listCampaigns(app.deps.db, ownerOf(req), { limit: 100 }, {}),
  );

  app.post('/campaigns', { schema: { tags, summary: 'Set up a campaign', body: NewCampaign, response: withErrors({ 201: Campaign }) } }, async (req, reply) => {
    const { livemode, ...input } = req.body;
    const created = await inTransaction(app.deps.db, (trx) => campaigns.createCampaign(trx, { ...ownerOf(req), livemode }, input));
    return reply.code(201).send(created);
  });

  app.patch('/campaigns/:id', { schema: { tags, summary: 'Change, pause, resume or end a campaign', params: CampaignParams, body: UpdateCampaign, response: withErrors({ 200: Campaign }) } }, async (req) =>
    inTransaction(app.deps.db, (trx) => campaigns.updateCampaign(trx, ownerOf(req), req.params.id, req.body)),
  );
}
