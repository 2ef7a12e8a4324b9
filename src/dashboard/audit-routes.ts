// The dashboard's audit log (D24): the chain's entries filtered, newest first, in words, and as a streamed CSV (ids).
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { App } from '../http/context.js';
import { nonJson, withErrors } from '../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../shared/pagination.js';
import { AuditListQuery } from '../modules/audit/schemas.js';
import * as audit from '../modules/audit/service.js';
import { csvLines } from '../shared/csv.js';
import { inWords } from './audit-names.js';
import { sessionOf } from './request.js';
import { OwnerAuditEvent } from './schemas.js';

const Query = Type.Object({ ...PageQuery, ...AuditListQuery }, { additionalProperties: false });
const ExportQuery = Type.Object(AuditListQuery, { additionalProperties: false });

const filterOf = (q: { action?: string; target_id?: string; from?: string; to?: string }) => ({
  action: q.action,
  targetId: q.target_id,
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
});

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardAuditRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;

  app.get(
    '/audit-events',
    { schema: { tags, summary: "The chain's audit log, newest first, filtered by action, object and time, with names beside the ids", querystring: Query, response: withErrors({ 200: ListOf(OwnerAuditEvent) }) } },
    async (req) => {
      const { chainId } = sessionOf(req).venue;
      return inWords(db, chainId, await audit.listAuditEvents(db, chainId, pageFromQuery(req.query), filterOf(req.query), '/dashboard/api/audit-events'));
    },
  );

  app.get(
    '/audit-events/export.csv',
    {
      schema: {
        tags,
        summary: 'The filtered audit log as CSV, newest first, streamed as it is read',
        querystring: ExportQuery,
        response: withErrors({ 200: nonJson('text/csv', 'CSV, one entry a line, newest first') }),
      },
    },
    async (req, reply) => {
      const lines = audit.auditCsv(db, sessionOf(req).venue.chainId, filterOf(req.query), (fields) => csvLines([fields]));
      const day = clock.now().toISOString().slice(0, 10);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="audit-log-${day}.csv"`);
      return reply.send(Readable.from(lines));
    },
  );
}
