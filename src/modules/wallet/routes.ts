// The wallet over HTTP (D23): the member's Apple Wallet pass.
import { callerOf, type App } from '../../http/context.js';
import { nonJson, withErrors } from '../../http/responses.js';
import { MemberParams } from '../members/schemas.js';
import { applePass } from './apple-pass.js';

const tags = ['Members'];

export async function walletRoutes(app: App): Promise<void> {
  app.get(
    '/v1/members/:id/pass.pkpass',
    {
      schema: {
        operationId: 'getMemberApplePass',
        errors: ['member_not_found', 'wallet_not_configured'],
        tags,
        summary: "The member's card as an Apple Wallet pass",
        description:
          'A store card signed with the server\'s Pass Type ID certificate, in the chain\'s brand, with the member\'s barcode and balance or stamps; it updates itself through the pass web service. 409 wallet_not_configured names the settings the server still needs.',
        params: MemberParams,
        response: withErrors({ 200: nonJson('application/vnd.apple.pkpass', 'The pass (a signed zip archive)', 'binary') }),
      },
    },
    async (req, reply) => {
      const pass = await applePass(app.deps.db, callerOf(req), req.params.id, {
        settings: app.deps.config.appleWallet,
        secrets: app.deps.secretBox,
        publicBaseUrl: app.deps.config.publicBaseUrl,
      });
      return reply.type('application/vnd.apple.pkpass').header('content-disposition', 'attachment; filename="card.pkpass"').send(pass);
    },
  );
}
