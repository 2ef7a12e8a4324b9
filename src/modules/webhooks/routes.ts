// HTTP routes for webhook endpoints (scope webhooks:write).
import { Type } from 'typebox';
import { callerOf, eventRequestOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import * as events from './events.js';
import {
  CreateWebhookEndpoint,
  DeletedWebhookEndpoint,
  DeliveryAttempt,
  EndpointParams,
  Event,
  EventParams,
  UpdateWebhookEndpoint,
  WebhookEndpoint,
  WebhookTest,
} from './schemas.js';
import * as service from './service.js';
import type { WebhookUrlPolicy } from './url-guard.js';

const tags = ['Webhook endpoints'];

/** A creation's answer as kept for Idempotency-Key replays: the secret is shown once, so a replay answers without it. */
const withoutSecret = <T extends { secret?: string }>({ secret: _secret, ...endpoint }: T): T => endpoint as T;

export async function webhookRoutes(app: App): Promise<void> {
  const policy: WebhookUrlPolicy = {
    allowPrivate: app.deps.config.webhookAllowPrivateUrls,
    resolve: app.deps.resolveHost,
  };

  app.post(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        tags,
        summary: 'Register an endpoint; the response carries its signing secret, shown only this once',
        body: CreateWebhookEndpoint,
        response: withErrors({ 201: WebhookEndpoint }),
      },
    },
    (req, reply) =>
      runMutation(req, reply, 201, (trx) => service.createEndpoint(trx, callerOf(req), req.body, policy, app.deps.secretBox), { storedAs: withoutSecret }),
  );

  app.get(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
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
    { schema: { operationId: 'getWebhookEndpoint', errors: ['webhook_endpoint_not_found'], tags, summary: 'Get an endpoint', params: EndpointParams, response: withErrors({ 200: WebhookEndpoint }) } },
    (req) => service.getEndpoint(app.deps.db, callerOf(req), req.params.id),
  );

  app.patch(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'updateWebhookEndpoint',
        errors: ['webhook_endpoint_not_found'],
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
        operationId: 'deleteWebhookEndpoint',
        errors: ['webhook_endpoint_not_found'],
        tags,
        summary: 'Remove an endpoint; deliveries in progress stop',
        params: EndpointParams,
        response: withErrors({ 200: DeletedWebhookEndpoint }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.deleteEndpoint(trx, callerOf(req), req.params.id)),
  );
}

export async function webhookDeliveryRoutes(app: App): Promise<void> {
  app.post(
    '/v1/webhook_endpoints/:id/test',
    {
      schema: {
        operationId: 'testWebhookEndpoint',
        errors: ['webhook_endpoint_not_found'],
        tags,
        summary: 'Send a signed test.ping to the endpoint now and report how it went',
        description: 'Not idempotent: each call sends a new ping. A receiver that is down gives delivered: false, not an error.',
        params: EndpointParams,
        response: withErrors({ 200: WebhookTest }),
      },
    },
    (req) =>
      service.testEndpoint(app.deps.db, callerOf(req), req.params.id, {
        sender: app.deps.webhookSender,
        config: app.deps.config.webhooks,
        request: eventRequestOf(req),
      }),
  );

  app.get(
    '/v1/webhook_endpoints/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        errors: ['webhook_endpoint_not_found'],
        tags,
        summary: 'Delivery attempts to the endpoint, newest first',
        params: EndpointParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(DeliveryAttempt) }),
      },
    },
    (req) => service.listDeliveryAttempts(app.deps.db, callerOf(req), req.params.id, pageFromQuery(req.query)),
  );

  app.get(
    '/v1/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: "The venue's events, and its chain's that happen at no venue, newest first",
        querystring: Type.Object({ ...PageQuery, type: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(Event) }),
      },
    },
    (req) => events.listEvents(app.deps.db, callerOf(req), pageFromQuery(req.query), { type: req.query.type }),
  );

  app.get(
    '/v1/events/:id',
    { schema: { operationId: 'getEvent', errors: ['event_not_found'], tags: ['Events'], summary: 'One event, as delivered', params: EventParams, response: withErrors({ 200: Event }) } },
    (req) => events.getEvent(app.deps.db, callerOf(req), req.params.id),
  );
}
