// HTTP routes for a member's data on request: the export (one JSON document, streamed) and the erasure.
import { Readable } from 'node:stream';
import { callerOf, eventRequestOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { MemberParams } from '../../modules/members/schemas.js';
import { MemberErasure, MemberExport } from '../../modules/privacy/schemas.js';
import * as service from './service.js';

const tags = ['Members'];

export async function privacyRoutes(app: App): Promise<void> {
  app.get(
    '/v1/members/:id/export',
    {
      schema: {
        operationId: 'exportMember',
        errors: ['member_not_found'],
        tags,
        summary: 'Everything held about the member, as one JSON document',
        description:
          "Profile, cards, ledger, transactions with their lines, refunds, holds, visits, scans and the events that name the member, at every venue of the chain. An erased member's export shows what the chain keeps, anonymised. Errors: 404 member_not_found. See /api/errors.",
        params: MemberParams,
        response: withErrors({ 200: MemberExport }),
      },
    },
    async (req, reply) => {
      const document = await service.exportMember(app.deps.db, callerOf(req), req.params.id);
      // Streamed as it is read: the pieces form one MemberExport, which the schema documents (streams skip serialising).
      return reply.type('application/json; charset=utf-8').send(Readable.from(document) as never);
    },
  );

  app.post(
    '/v1/members/:id/erase',
    {
      schema: {
        operationId: 'eraseMember',
        errors: ['member_not_found'],
        tags,
        summary: "Erase the member's personal data; the ledger and transactions stay, anonymised",
        description:
          'Releases active holds first. Afterwards no look-up, scan or check finds the member (404 member_not_found, as for an unknown card). Erasing again answers 200 with already_erased true. Errors: 404 member_not_found. See /api/errors.',
        params: MemberParams,
        response: withErrors({ 200: MemberErasure }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.eraseMember(trx, callerOf(req), req.params.id, app.deps.clock, eventRequestOf(req))),
  );
}
