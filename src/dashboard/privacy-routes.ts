// The dashboard's member data requests: download a member's export, erase a member after a typed confirmation; both
// through the privacy service, as the API's routes.
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import { eventRequestOf, type App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { MemberErasure, MemberExport } from '../modules/privacy/schemas.js';
import * as privacy from '../flows/privacy/service.js';
import { sessionOf } from './request.js';
import { IdParams } from './schemas.js';
import * as service from './service.js';

const EraseBody = Type.Object(
  { confirm: Type.String({ maxLength: 64, description: 'One of the member\'s card numbers, or ERASE, as the owner typed it.' }) },
  { additionalProperties: false },
);

export async function dashboardPrivacyRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;
  const owner = (req: Parameters<typeof sessionOf>[0]) => service.ownerCallerOf(sessionOf(req), clock.now());

  app.get(
    '/members/:id/export',
    { schema: { tags, summary: 'Everything held about the member, as a JSON file to download', params: IdParams, response: withErrors({ 200: MemberExport }) } },
    async (req, reply) => {
      const document = await privacy.exportMember(db, owner(req), req.params.id);
      reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', `attachment; filename="member-${req.params.id}.json"`);
      // Streamed as it is read: the pieces form one MemberExport, which the schema documents (streams skip serialising).
      return reply.send(Readable.from(document) as never);
    },
  );

  app.post(
    '/members/:id/erase',
    { schema: { tags, summary: "Erase the member's personal data, confirmed by typing a card number or ERASE", params: IdParams, body: EraseBody, response: withErrors({ 200: MemberErasure }) } },
    async (req) => {
      const caller = owner(req);
      return inTransaction(db, async (trx) => {
        await privacy.checkErasureConfirmation(trx, caller, req.params.id, req.body.confirm);
        return privacy.eraseMember(trx, caller, req.params.id, clock, eventRequestOf(req));
      });
    },
  );
}
