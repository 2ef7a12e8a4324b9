// The wallet over the API (D23): the member's Apple Wallet pass, Google Wallet save link, and guest card page link.
import { Type } from 'typebox';
import { callerOf, type App } from '../../http/context.js';
import { nonJson, withErrors } from '../../http/responses.js';
import { inTransaction } from '../../db/transaction.js';
import { MemberParams } from '../members/schemas.js';
import { applePass } from './apple-pass.js';
import { GoogleWallet } from './google-wallet.js';
import * as wallet from './service.js';

const tags = ['Members'];
const GoogleSaveLink = Type.Object(
  { object: Type.Literal('google_wallet_link'), save_url: Type.String({ description: 'https://pay.google.com/gp/v/save/<JWT>: opens Google Wallet to save the card.' }) },
  { title: 'GoogleWalletLink' },
);
const PassRevocation = Type.Object({ object: Type.Literal('pass_revocation'), member_id: Type.String({ format: 'uuid' }) }, { title: 'PassRevocation' });
const CardLink = Type.Object(
  { object: Type.Literal('card_link'), url: Type.String({ description: "The guest's card page: barcode, balance, and buttons to add the card to a wallet." }) },
  { title: 'CardLink' },
);

export async function walletRoutes(app: App): Promise<void> {
  const { db, config } = app.deps;
  const google = new GoogleWallet(config.googleWallet);

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
      const pass = await applePass(db, callerOf(req), req.params.id, { settings: config.appleWallet, secrets: app.deps.secretBox, publicBaseUrl: config.publicBaseUrl });
      return reply.type('application/vnd.apple.pkpass').header('content-disposition', 'attachment; filename="card.pkpass"').send(pass);
    },
  );

  app.post(
    '/v1/members/:id/pass/revoke',
    {
      schema: {
        operationId: 'revokeMemberApplePass',
        errors: ['member_not_found'],
        tags,
        summary: "Revoke the member's Apple Wallet pass",
        description:
          'Every pass installed so far stops updating (its token no longer works) and no device stays registered; a pass downloaded from now on works. For a pass that went where it should not, for example through a card link sent to the wrong guest (renew that link too).',
        params: MemberParams,
        response: withErrors({ 200: PassRevocation }),
      },
    },
    async (req) => inTransaction(db, (trx) => wallet.revokePass(trx, callerOf(req), req.params.id)),
  );

  app.get(
    '/v1/members/:id/wallet/google',
    {
      schema: {
        operationId: 'getMemberGoogleWalletLink',
        errors: ['member_not_found', 'wallet_not_configured'],
        tags,
        summary: "A link that saves the member's card to Google Wallet",
        description:
          "The save link's JWT carries the program's loyalty class and the member's loyalty object, signed by the configured service account. From then on the object is updated when the balance, stamps, level or card change. 409 wallet_not_configured names the settings the server still needs.",
        params: MemberParams,
        response: withErrors({ 200: GoogleSaveLink }),
      },
    },
    async (req) => ({ object: 'google_wallet_link' as const, save_url: await wallet.googleSaveUrl(db, callerOf(req), req.params.id, google, config.publicBaseUrl) }),
  );

  app.get(
    '/v1/members/:id/card_link',
    {
      schema: {
        operationId: 'getMemberCardLink',
        errors: ['member_not_found'],
        tags,
        summary: "The link of the guest's card page",
        description: 'A page for the guest: their barcode and balance, with Add to Apple Wallet and Save to Google Wallet buttons. The same link each time, until renewed.',
        params: MemberParams,
        response: withErrors({ 200: CardLink }),
      },
    },
    async (req) => ({ object: 'card_link' as const, ...(await wallet.cardLink(db, callerOf(req), req.params.id, app.deps.secretBox, config.publicBaseUrl)) }),
  );

  app.post(
    '/v1/members/:id/card_link',
    {
      schema: {
        operationId: 'renewMemberCardLink',
        errors: ['member_not_found'],
        tags,
        summary: "A new link of the guest's card page; the old ones stop working",
        description: 'For a link that went where it should not: every link given before opens nothing from now on. Passes already in a wallet keep working.',
        params: MemberParams,
        response: withErrors({ 200: CardLink }),
      },
    },
    async (req) => ({
      object: 'card_link' as const,
      ...(await inTransaction(db, (trx) => wallet.renewCardLink(trx, callerOf(req), req.params.id, app.deps.secretBox, config.publicBaseUrl))),
    }),
  );
}
