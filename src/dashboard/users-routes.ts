// The dashboard's users (D24): the owner lists the chain's users, changes their roles and removes them.
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import * as accounts from '../modules/accounts/service.js';
import { sessionOf } from './request.js';
import * as service from './service.js';

const RoleName = Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('staff')]);
const VenueIds = Type.Union([Type.Array(Type.String({ format: 'uuid' }), { maxItems: 500 }), Type.Null()], {
  description: 'The venues a manager or staff may open; null: every venue of the chain (always, for an owner).',
});
const User = Type.Object({ id: Type.String({ format: 'uuid' }), email: Type.String(), role: RoleName, venue_ids: VenueIds }, { title: 'DashboardUser' });
const UserParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const UserChange = Type.Object({ role: Type.Optional(RoleName), venue_ids: Type.Optional(VenueIds) }, { additionalProperties: false, minProperties: 1 });

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardUserRoutes(app: App, tags: string[]): Promise<void> {
  app.get('/users', { schema: { tags, summary: "The chain's dashboard users and their roles", response: withErrors({ 200: Type.Array(User) }) } }, async (req) =>
    (await accounts.listUsers(app.deps.db, sessionOf(req).venue.chainId)).map(service.presentUser),
  );

  app.patch(
    '/users/:id',
    {
      schema: {
        tags,
        summary: "Change a user's role, or the venues a manager or staff may open; one given less to do is signed out at once",
        params: UserParams,
        body: UserChange,
        response: withErrors({ 200: User }),
      },
    },
    async (req) => inTransaction(app.deps.db, (trx) => service.changeUser(trx, sessionOf(req), req.params.id, { role: req.body.role, venueIds: req.body.venue_ids })),
  );

  app.delete(
    '/users/:id',
    { schema: { tags, summary: 'Remove a user from the chain; never its last owner', params: UserParams, response: withErrors({ 200: User }) } },
    async (req) => inTransaction(app.deps.db, (trx) => service.changeUser(trx, sessionOf(req), req.params.id, { role: null })),
  );
}
