// HTTP routes of the account: what the calling key sees of its venue and chain, with the chain's programs.
import { callerOf, type App } from '../../http/context.js';
import { withErrors } from '../../http/responses.js';
import { Account } from './schemas.js';
import * as programs from '../programs/service.js';
import * as service from './service.js';

export async function accountRoutes(app: App): Promise<void> {
  app.get(
    '/v1/account',
    {
      schema: {
        operationId: 'getAccount',
        tags: ['Account'],
        summary: 'The venue of the calling key (a chain key: its chain), with the register rules in effect for that key',
        response: withErrors({ 200: Account }),
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const chainPrograms = (await programs.listPrograms(app.deps.db, caller.chainId)).map(programs.presentProgram);
      return service.getAccount(app.deps.db, caller, chainPrograms);
    },
  );
}
