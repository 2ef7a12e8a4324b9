// HTTP routes of the account: what the calling key sees of its venue.
import { callerOf, type App } from '../../http/context.js';
import { withErrors } from '../../http/responses.js';
import { Account } from './schemas.js';
import * as service from './service.js';

export async function accountRoutes(app: App): Promise<void> {
  app.get(
    '/v1/account',
    {
      schema: {
        operationId: 'getAccount',
        tags: ['Account'],
        summary: "The venue of the calling key, with the register rules in effect for that key",
        response: withErrors({ 200: Account }),
      },
    },
    (req) => service.getAccount(app.deps.db, callerOf(req)),
  );
}
