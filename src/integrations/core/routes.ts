// HTTP routes for point-of-sale connections (D26) under /v1/integrations: scopes integrations:read and :write.
import { Type } from 'typebox';
import { callerOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import { CreateIntegration, DeletedIntegration, Integration, IntegrationParams, LogEntry, LogEntryParams, UpdateIntegration } from './schemas.js';
import * as service from './service.js';

const tags = ['Point of sale'];

export async function integrationRoutes(app: App): Promise<void> {
  const { secretBox: box } = app.deps;
  const base = app.deps.config.publicBaseUrl;

  app.post(
    '/v1/integrations',
    {
      schema: {
        operationId: 'createIntegration',
        errors: ['venue_not_found'],
        tags,
        summary: "Connect a point-of-sale provider: its settings (secrets are write-only) and the locations mapped to the chain's venues",
        description: "The answer's endpoint_url is what to paste into the provider (Square's webhook subscription, Toast's loyalty integration).",
        body: CreateIntegration,
        response: withErrors({ 201: Integration }),
      },
    },
    (req, reply) => runMutation(req, reply, 201, (trx) => service.createIntegration(trx, callerOf(req), req.body, box, base)),
  );

  app.get(
    '/v1/integrations',
    {
      schema: {
        operationId: 'listIntegrations',
        tags,
        summary: "The chain's connections, newest first",
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(Integration) }),
      },
    },
    (req) => service.listIntegrations(app.deps.db, callerOf(req), pageFromQuery(req.query), base),
  );

  app.get(
    '/v1/integrations/:id',
    { schema: { operationId: 'getIntegration', errors: ['integration_not_found'], tags, summary: 'Get a connection', params: IntegrationParams, response: withErrors({ 200: Integration }) } },
    (req) => service.getIntegration(app.deps.db, callerOf(req), req.params.id, base),
  );

  app.patch(
    '/v1/integrations/:id',
    {
      schema: {
        operationId: 'updateIntegration',
        errors: ['integration_not_found', 'venue_not_found'],
        tags,
        summary: 'Change a connection: its name, status (pause or resume), locations, rules, or a setting given again',
        params: IntegrationParams,
        body: UpdateIntegration,
        response: withErrors({ 200: Integration }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.updateIntegration(trx, callerOf(req), req.params.id, req.body, box, base)),
  );

  app.delete(
    '/v1/integrations/:id',
    {
      schema: {
        operationId: 'deleteIntegration',
        errors: ['integration_not_found'],
        tags,
        summary: 'Remove a connection and its log; what it applied stays',
        params: IntegrationParams,
        response: withErrors({ 200: DeletedIntegration }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.deleteIntegration(trx, callerOf(req), req.params.id)),
  );

  app.get(
    '/v1/integrations/:id/log',
    {
      schema: {
        operationId: 'listIntegrationLog',
        errors: ['integration_not_found'],
        tags,
        summary: "The connection's log, newest first: what was applied, refunded or reversed, and what was not and why",
        params: IntegrationParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(LogEntry) }),
      },
    },
    (req) => service.listLog(app.deps.db, callerOf(req), req.params.id, pageFromQuery(req.query)),
  );

  app.post(
    '/v1/integrations/:id/log/:entry_id/retry',
    {
      schema: {
        operationId: 'retryIntegrationLogEntry',
        errors: ['integration_not_found', 'integration_log_entry_not_found', 'integration_entry_not_retryable'],
        tags,
        summary: 'Try a failed or waiting entry again: it is queued, due now',
        params: LogEntryParams,
        response: withErrors({ 200: LogEntry }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.retryLogEntry(trx, callerOf(req), req.params.id, req.params.entry_id)),
  );
}
