// The dashboard's users (D24): the owner lists the chain's users, changes their roles and removes them.
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import type { App } from '../../http/context.js';
import { withErrors } from '../../http/responses.js';
import * as accounts from '../accounts/service.js';
import { sessionOf } from './request.js';
import * as service from './service.js';

const RoleName = Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('staff')]);
const User = Type.Object({ id: Type.String({ format: 'uuid' }), email: Type.String(), role: RoleName }, { title: 'DashboardUser' });
const UserParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const RoleChange = Type.Object({ role: RoleName }, { additionalProperties: false });

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardUserRoutes(app: App, tags: string[]): Promise<void> {
  app.get('/users', { schema: { tags, summary: "The chain's dashboard users and their roles", response: withErrors({ 200: Type.Array(User) }) } }, async (req) =>
    (await accounts.listUsers(app.deps.db, sessionOf(req).venue.chainId)).map((u) => ({ id: u.id, email: u.email, role: u.role })),
  );

  app.patch(
    '/users/:id',
    { schema: { tags, summary: "Change a user's role; one given less to do is signed out at once", params: UserParams, body: RoleChange, response: withErrors({ 200: User }) } },
    async (req) => inTransaction(app.deps.db, (trx) => service.changeUser(trx, sessionOf(req), req.params.id, req.body.role)),
  );

  app.delete(
    '/users/:id',
    { schema: { tags, summary: 'Remove a user from the chain; never its last owner', params: UserParams, response: withErrors({ 200: User }) } },
    async (req) => inTransaction(app.deps.db, (trx) => service.changeUser(trx, sessionOf(req), req.params.id, null)),
  );
}
