// HTTP routes for kiosks, door scanners and tills: visits and scans.
import { placeCallerOf, eventRequestOf, type App } from '../../http/context.js';
import { runMutationWithStatus, runSingleStatement } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { Scan, ScanBody, Visit, VisitBody } from './schemas.js';
import * as service from './service.js';

export async function visitRoutes(app: App): Promise<void> {
  app.post(
    '/v1/visits',
    {
      schema: {
        operationId: 'recordVisit',
        errors: ['visit_not_supported', 'scan_required', 'member_not_found', 'external_id_reused'],
        tags: ['Visits and scans'],
        summary: 'Record a visit (stamps, visit count); with external_id, sending it again replays it',
        description: 'A cashback program answers 400 visit_not_supported: send a check instead.',
        body: VisitBody,
        response: withErrors({ 200: Visit, 201: Visit }),
      },
    },
    (req, reply) =>
      runMutationWithStatus(req, reply, async (trx) => {
        const { visit, replayed } = await service.recordVisit(trx, placeCallerOf(req), req.body, app.deps.clock, eventRequestOf(req));
        return { status: replayed ? 200 : 201, body: visit, replayed };
      }),
  );

  app.post(
    '/v1/scans',
    {
      schema: {
        operationId: 'resolveScan',
        errors: ['member_not_found'],
        tags: ['Visits and scans'],
        summary: 'Resolve a scanned code (card number or serial) to the member; remembered for card_scan_required',
        body: ScanBody,
        response: withErrors({ 201: Scan }),
      },
    },
    (req, reply) => runSingleStatement(req, reply, 201, (db) => service.scan(db, placeCallerOf(req), req.body.code)),
  );
}
