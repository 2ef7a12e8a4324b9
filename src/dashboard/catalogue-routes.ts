// The dashboard's categories and their money rules: the chain's, and a venue's own (D21), as the CLI's `category rules`.
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { ListOf } from '../shared/pagination.js';
import * as accounts from '../modules/accounts/service.js';
import { Category, type CategoryRules } from '../modules/catalogue/schemas.js';
import * as catalogue from '../modules/catalogue/service.js';
import { sessionOf } from './request.js';
import { CategoryUpdate, CategoryVenueParams, ExternalIdParams, NewCategory, PageQuery, VenueCategoryRule } from './schemas.js';
import * as service from './service.js';

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardCatalogueRoutes(app: App, tags: string[]): Promise<void> {
  // Categories and their money rules (owner only).
  app.get('/categories', { schema: { tags, summary: 'Categories, newest first', querystring: PageQuery, response: withErrors({ 200: ListOf(Category) }) } }, async (req) =>
    catalogue.listCategories(app.deps.db, service.ownerCallerOf(sessionOf(req), app.deps.clock.now()), { limit: req.query.limit ?? 100, startingAfter: req.query.starting_after }),
  );

  app.post('/categories', { schema: { tags, summary: 'Create a category (or rename one) with its money rules', body: NewCategory, response: withErrors({ 201: Category }) } }, async (req, reply) => {
    const { external_id, ...category } = req.body as { external_id: string; name: string } & CategoryRules;
    const caller = service.ownerCallerOf(sessionOf(req), app.deps.clock.now());
    const created = await inTransaction(app.deps.db, (trx) => catalogue.putCategoryWithRules(trx, caller, external_id, category));
    return reply.code(201).send(created);
  });

  app.patch('/categories/:external_id', { schema: { tags, summary: 'Rename a category or change its money rules', params: ExternalIdParams, body: CategoryUpdate, response: withErrors({ 200: Category }) } }, async (req) => {
    const caller = service.ownerCallerOf(sessionOf(req), app.deps.clock.now());
    const { name, ...rules } = req.body;
    return inTransaction(app.deps.db, async (trx) => {
      // setCategoryRules answers 404 for a category the chain does not have, before any rename could create it.
      let category = await catalogue.setCategoryRules(trx, caller.chainId, req.params.external_id, rules, service.sessionWho(sessionOf(req)));
      if (name !== undefined) category = (await catalogue.putCategory(trx, caller, req.params.external_id, { name })).category;
      return category;
    });
  });

  // A venue's own rule for a category of the chain (D21), the CLI's `category rules --venue-only | --chain-rule`:
  // one path per venue's rule; the venue is any of the owner's chain (the page sends the session's).
  app.put(
    '/categories/:external_id/venue-rules/:venue_id',
    {
      schema: {
        tags,
        summary: "Give a venue a rule of its own for a category, which wins there over the chain's",
        params: CategoryVenueParams,
        body: VenueCategoryRule,
        response: withErrors({ 200: Category }),
      },
    },
    async (req) => {
      const session = sessionOf(req);
      return inTransaction(app.deps.db, async (trx) => {
        const venue = await service.chainVenueOf(trx, session, req.params.venue_id);
        return catalogue.setVenueCategoryRules(trx, accounts.placeOf(venue), req.params.external_id, req.body, service.sessionWho(session));
      });
    },
  );

  app.delete(
    '/categories/:external_id/venue-rules/:venue_id',
    { schema: { tags, summary: "The venue follows the chain's rule for the category again", params: CategoryVenueParams, response: withErrors({ 200: Category }) } },
    async (req) => {
      const session = sessionOf(req);
      return inTransaction(app.deps.db, async (trx) => {
        const venue = await service.chainVenueOf(trx, session, req.params.venue_id);
        return catalogue.clearVenueCategoryRules(trx, accounts.placeOf(venue), req.params.external_id, service.sessionWho(session));
      });
    },
  );
}
