// The dashboard's webhooks over HTTP (D15): endpoints registered, changed, disabled, re-enabled, tested and deleted,
// their delivery log, and an event sent again.
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import { eventRequestOf, type App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { ListOf } from '../shared/pagination.js';
import { CreateWebhookEndpoint, DeliveryAttempt, UpdateWebhookEndpoint, WebhookEndpoint, WebhookTest } from '../modules/webhooks/schemas.js';
import * as webhooks from '../modules/webhooks/service.js';
import type { WebhookUrlPolicy } from '../modules/webhooks/url-guard.js';
import { sessionOf } from './request.js';
import { IdParams, Ok, PageQuery } from './schemas.js';
import * as service from './service.js';

const ResendParams = Type.Object({ id: Type.String({ maxLength: 64 }), event_id: Type.String({ maxLength: 64 }) });
const Resent = Type.Object({ delivery_id: Type.String({ format: 'uuid' }), event_id: Type.String({ format: 'uuid' }) });

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardWebhookRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;
  const owner = (req: Parameters<typeof sessionOf>[0]) => service.ownerCallerOf(sessionOf(req), clock.now());
  // The owner sees them all, live and test, with their recent attempts.
  const policy: WebhookUrlPolicy = { allowPrivate: app.deps.config.webhookAllowPrivateUrls, resolve: app.deps.resolveHost };

  app.get(
    '/webhook-endpoints',
    { schema: { tags, summary: "The venue's webhook endpoints, newest first", response: withErrors({ 200: Type.Array(WebhookEndpoint) }) } },
    async (req) => (await webhooks.listEndpoints(db, owner(req), { limit: 100 }, {})).data,
  );

  app.post(
    '/webhook-endpoints',
    { schema: { tags, summary: 'Register an endpoint; its signing secret is in this answer only', body: CreateWebhookEndpoint, response: withErrors({ 201: WebhookEndpoint }) } },
    async (req, reply) => {
      // The owner's endpoints are live: they receive test and live events alike, each event saying which it is.
      const created = await inTransaction(db, (trx) => webhooks.createEndpoint(trx, owner(req), req.body, policy, app.deps.secretBox));
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    { schema: { tags, summary: 'Delivery attempts to an endpoint, newest first', params: IdParams, querystring: PageQuery, response: withErrors({ 200: ListOf(DeliveryAttempt) }) } },
    async (req) => webhooks.listDeliveryAttempts(db, owner(req), req.params.id, { limit: req.query.limit ?? 20, startingAfter: req.query.starting_after }),
  );

  app.post(
    '/webhook-endpoints/:id/test',
    { schema: { tags, summary: 'Send a signed test.ping now and say how it went', params: IdParams, response: withErrors({ 200: WebhookTest }) } },
    async (req) => {
      const caller = owner(req);
      // The ping carries the endpoint's own mode, as if the key that registered it had asked.
      const endpoint = await webhooks.getEndpoint(db, caller, req.params.id);
      return webhooks.testEndpoint(db, { ...caller, livemode: endpoint.livemode }, req.params.id, {
        sender: app.deps.webhookSender,
        config: app.deps.config.webhooks,
        request: eventRequestOf(req),
      });
    },
  );

  app.post(
    '/webhook-endpoints/:id/enable',
    { schema: { tags, summary: 'Re-enable a disabled endpoint; its pending deliveries resume', params: IdParams, response: withErrors({ 200: WebhookEndpoint }) } },
    async (req) => inTransaction(db, (trx) => webhooks.updateEndpoint(trx, owner(req), req.params.id, { enabled: true }, policy)),
  );

  app.patch(
    '/webhook-endpoints/:id',
    { schema: { tags, summary: "Change an endpoint's address, description or events; enabled: false disables it, true re-enables it", params: IdParams, body: UpdateWebhookEndpoint, response: withErrors({ 200: WebhookEndpoint }) } },
    async (req) => inTransaction(db, (trx) => webhooks.updateEndpoint(trx, owner(req), req.params.id, req.body, policy)),
  );

  app.post(
    '/webhook-endpoints/:id/events/:event_id/resend',
    { schema: { tags, summary: 'Send an event to the endpoint again: a new delivery, due now, with retries of its own', params: ResendParams, response: withErrors({ 202: Resent }) } },
    async (req, reply) => reply.code(202).send(await inTransaction(db, (trx) => webhooks.resendEvent(trx, owner(req), req.params.id, req.params.event_id))),
  );

  app.delete(
    '/webhook-endpoints/:id',
    { schema: { tags, summary: 'Remove an endpoint; deliveries in progress stop', params: IdParams, response: withErrors({ 200: Ok }) } },
    async (req) => {
      await inTransaction(db, (trx) => webhooks.deleteEndpoint(trx, owner(req), req.params.id));
      return { ok: true as const };
    },
  );

}
