// The wallet in the dashboard (D23): what the server still needs for Apple and Google Wallet, and on a member's page
// their card page link (renewable), how many devices hold their card, and revoking their Apple pass.
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import * as wallet from '../modules/wallet/service.js';
import { sessionOf } from './request.js';
import { IdParams } from './schemas.js';
import * as service from './service.js';

const Setup = Type.Object({
  configured: Type.Boolean(),
  missing: Type.Array(Type.String(), { description: 'The environment variables the server still needs set.' }),
  warnings: Type.Array(Type.String(), { description: 'What is wrong with the cards as the server issues them (an http PUBLIC_BASE_URL for Apple passes).' }),
});
const WalletStatus = Type.Object({ apple: Setup, google: Setup }, { title: 'DashboardWalletStatus' });
const MemberWallet = Type.Object(
  {
    card_link: Type.String({ description: "The guest's card page." }),
    apple_devices: Type.Integer({ description: 'Devices the Apple Wallet pass is registered on.' }),
    google_saved: Type.Boolean({ description: 'Whether a Google Wallet save link was given (whether the guest saved it, Google does not say).' }),
  },
  { title: 'DashboardMemberWallet' },
);

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardWalletRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock, config, secretBox } = app.deps;

  app.get('/wallet', { schema: { tags, summary: 'Whether Apple and Google Wallet cards are set up on the server, and what they still need', response: withErrors({ 200: WalletStatus }) } }, async () =>
    wallet.walletStatus(config.appleWallet, config.googleWallet, config.publicBaseUrl),
  );

  const memberWallet = async (caller: ReturnType<typeof service.ownerCallerOf>, id: string, link: { url: string }) => {
    const use = await wallet.walletUse(db, caller, id);
    return { card_link: link.url, apple_devices: use.apple_devices, google_saved: use.google_saved };
  };

  app.get('/members/:id/wallet', { schema: { tags, summary: "A member's card page link and wallet devices", params: IdParams, response: withErrors({ 200: MemberWallet }) } }, async (req) => {
    const caller = service.ownerCallerOf(sessionOf(req), clock.now());
    return memberWallet(caller, req.params.id, await wallet.cardLink(db, caller, req.params.id, secretBox, config.publicBaseUrl));
  });

  app.post('/members/:id/pass/revoke', { schema: { tags, summary: "Revoke the member's Apple Wallet pass: every installed one stops updating", params: IdParams, response: withErrors({ 200: MemberWallet }) } }, async (req) => {
    const caller = service.ownerCallerOf(sessionOf(req), clock.now());
    await inTransaction(db, (trx) => wallet.revokePass(trx, caller, req.params.id));
    return memberWallet(caller, req.params.id, await wallet.cardLink(db, caller, req.params.id, secretBox, config.publicBaseUrl));
  });

  app.post('/members/:id/card_link', { schema: { tags, summary: "A new card page link; the member's earlier links stop working", params: IdParams, response: withErrors({ 200: MemberWallet }) } }, async (req) => {
    const caller = service.ownerCallerOf(sessionOf(req), clock.now());
    const link = await inTransaction(db, (trx) => wallet.renewCardLink(trx, caller, req.params.id, secretBox, config.publicBaseUrl));
    return memberWallet(caller, req.params.id, link);
  });
}
