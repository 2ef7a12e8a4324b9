// HTTP routes for webhook endpoints (scope webhooks:write).
import { Type } from 'typebox';
import { callerOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import {
  CreateWebhookEndpoint,
  DeletedWebhookEndpoint,
  EndpointParams,
  UpdateWebhookEndpoint,
  WebhookEndpoint,
} from './schemas.js';
import * as service from './service.js';
import type { WebhookUrlPolicy } from './url-guard.js';

const tags = ['Webhook endpoints'];

export async function webhookRoutes(app: App): Promise<void> {
  const policy: WebhookUrlPolicy = {
    allowPrivate: app.deps.config.webhookAllowPrivateUrls,
    resolve: app.deps.resolveHost,
  };

  app.post(
    '/v1/webhook_endpoints',
    {
      schema: {
        tags,
        summary: 'Register an endpoint; the response carries its signing secret, shown only this once',
        body: CreateWebhookEndpoint,
        response: withErrors({ 201: WebhookEndpoint }),
      },
    },
    (req, reply) => runMutation(req, reply, 201, (trx) => service.createEndpoint(trx, callerOf(req), req.body, policy)),
  );

  app.get(
    '/v1/webhook_endpoints',
    {
      schema: {
        tags,
        summary: "List the venue's endpoints, newest first",
        querystring: Type.Object({ ...PageQuery, livemode: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(WebhookEndpoint) }),
      },
    },
    (req) =>
      service.listEndpoints(app.deps.db, callerOf(req), pageFromQuery(req.query), { livemode: req.query.livemode }),
  );

  app.get(
    '/v1/webhook_endpoints/:id',
    { schema: { tags, summary: 'Get an endpoint', params: EndpointParams, response: withErrors({ 200: WebhookEndpoint }) } },
    (req) => service.getEndpoint(app.deps.db, callerOf(req), req.params.id),
  );

  app.patch(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        tags,
        summary: 'Change an endpoint; enabled: true re-enables one that was disabled',
        params: EndpointParams,
        body: UpdateWebhookEndpoint,
        response: withErrors({ 200: WebhookEndpoint }),
      },
    },
    (req, reply) =>
      runMutation(req, reply, 200, (trx) => service.updateEndpoint(trx, callerOf(req), req.params.id, req.body, policy)),
  );

  app.delete(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        tags,
        summary: 'Remove an endpoint; deliveries in progress stop',
        params: EndpointParams,
        response: withErrors({ 200: DeletedWebhookEndpoint }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.deleteEndpoint(trx, callerOf(req), req.params.id)),
  );
}
