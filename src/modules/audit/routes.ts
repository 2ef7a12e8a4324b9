// HTTP route for the audit log: the chain's entries, newest first, filtered.
import { Type } from 'typebox';
import { callerOf, type App } from '../../http/context.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import { AuditEvent, AuditListQuery } from './schemas.js';
import * as service from './service.js';

export async function auditRoutes(app: App): Promise<void> {
  app.get(
    '/v1/audit_events',
    {
      schema: {
        operationId: 'listAuditEvents',
        tags: ['Audit'],
        summary: "The chain's audit log, newest first: who changed what, from where",
        querystring: Type.Object({ ...PageQuery, ...AuditListQuery }, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(AuditEvent) }),
      },
    },
    (req) => {
      const q = req.query;
      const filter = { action: q.action, targetId: q.target_id, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined };
      return service.listAuditEvents(app.deps.db, callerOf(req).chainId, pageFromQuery(q), filter);
    },
  );
}
