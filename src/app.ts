// Builds the HTTP application from its dependencies; nothing here opens connections or listens.
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { installKeyAuth, installVenueResolution } from './http/auth.js';
import { integrationRoutes } from './integrations/core/routes.js';
import { registerLegacyPos } from './integrations/legacy-pos/routes.js';
import { squareWebhookRoutes } from './integrations/square/webhook.js';
import { toastRoutes } from './integrations/toast/routes.js';
import type { App, AppDeps } from './http/context.js';
import { installErrorHandling, routerRefusal, sendApiError, writeClientError } from './http/error-handler.js';
import { decodeBody, installInputChecks, RouteTable } from './http/input.js';
import { ApiError } from './shared/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { installOps } from './http/ops.js';
import { requestIdFor } from './http/request-id.js';
import { buildSerializer } from './http/lazy-schemas.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { validatorCompiler } from './http/validation.js';
import { accountRoutes } from './modules/accounts/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { campaignRoutes } from './modules/campaigns/routes.js';
import { catalogueRoutes } from './modules/catalogue/routes.js';
import { checkRoutes } from './flows/checks/routes.js';
import { holdRoutes } from './modules/holds/routes.js';
import { visitRoutes } from './modules/visits/routes.js';
import { memberRoutes } from './modules/members/routes.js';
import { walletRoutes } from './modules/wallet/routes.js';
import { appleWalletRoutes } from './modules/wallet/apple-routes.js';
import { cardRoutes } from './modules/wallet/card-routes.js';
import { importRoutes } from './modules/imports/routes.js';
import { menuRoutes } from './modules/menu/routes.js';
import { guestMenuRoutes } from './modules/menu/guest-page.js';
import { orderRoutes, publicOrderRoutes } from './modules/orders/routes.js';
import { privacyRoutes } from './flows/privacy/routes.js';
import { reportRoutes } from './modules/reports/routes.js';
import { webhookDeliveryRoutes, webhookRoutes } from './modules/webhooks/routes.js';
import { dashboardApiRoutes } from './dashboard/routes.js';
import { dashboardStaticRoutes } from './dashboard/static.js';

// The router's limit on one path parameter; longer ones are refused before any route runs (see routerRefusal).
const MAX_PARAM_LENGTH = 100;

export async function buildApp(deps: AppDeps, logger: FastifyServerOptions['logger'] = false): Promise<App> {
  const docBaseUrl = deps.config.publicBaseUrl;
  const routes = new RouteTable();
  const app: App = Fastify({
    logger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    exposeHeadRoutes: false,
    // Fastify's own 503 while closing has its own body; ours below answers in the envelope (D5).
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // The router's refusals and the HTTP parser's would otherwise answer in Fastify's shape, without request_id.
    frameworkErrors: (error, req, reply) => {
      reply.header('x-request-id', req.id).headers(apiHeaders);
      sendApiError(reply, routerRefusal(error, req.method, req.url, routes, MAX_PARAM_LENGTH), docBaseUrl);
    },
    clientErrorHandler: (error, socket) => writeClientError(error, socket, docBaseUrl),
    // Node would answer an HTTP/1.1 request without Host with its own bare 400; ours below is in the envelope.
    http: { requireHostHeader: false },
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRoute', (route) => routes.add(route.method, route.url));
  // Before every other hook and route: a request refused by a later onRequest hook still gets the headers.
  const apiHeaders = installSecurityHeaders(app, deps.config.publicBaseUrl);

  app.decorate('deps', deps);
  app.decorateRequest('caller', null);
  app.decorateRequest('keyIdentity', null);
  app.setValidatorCompiler(validatorCompiler);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Once shutting down, every answer closes its connection, so keep-alive clients do not hold the exit open.
  // Hooks that await nothing are callbacks: an async one costs a promise and a turn on every request (issue 21).
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    if (req.headers.host === undefined && req.raw.httpVersion === '1.1') {
      reply.header('connection', 'close');
      throw new ApiError('parameter_invalid', { param: 'Host', message: 'An HTTP/1.1 request must send a Host header.' });
    }
    // Requests still arriving on open connections while shutting down go elsewhere: the balancer retries them.
    if (closing) {
      reply.header('connection', 'close');
      throw new ApiError('service_unavailable', { headers: { 'retry-after': '1' } });
    }
    done();
  });

  // JSON only; an empty body with a JSON content type counts as no body (some clients send one on DELETE).
  // Read as bytes, so invalid UTF-8 is refused instead of quietly becoming U+FFFD.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, bytes, done) => {
    let body: string;
    try {
      body = decodeBody(bytes as Buffer);
    } catch (err) {
      return done(err as Error, undefined);
    }
    return body === '' ? done(null, undefined) : parseJson(req, body, done);
  });

  installErrorHandling(app, docBaseUrl);
  installInputChecks(app);
  installKeyAuth(app);
  installVenueResolution(app);
  installOps(app);
  await registerOpenApi(app);
  await app.register(
    async (api) => {
      await api.register(accountRoutes);
      await api.register(webhookRoutes);
      await api.register(webhookDeliveryRoutes);
      await api.register(memberRoutes);
      await api.register(walletRoutes);
      await api.register(privacyRoutes);
      await api.register(importRoutes);
      await api.register(menuRoutes);
      await api.register(orderRoutes);
      await api.register(publicOrderRoutes);
      await api.register(catalogueRoutes);
      await api.register(campaignRoutes);
      await api.register(checkRoutes);
      await api.register(holdRoutes);
      await api.register(visitRoutes);
      await api.register(reportRoutes);
      await api.register(auditRoutes);
      await api.register(integrationRoutes);
    },
    { prefix: '/api' },
  );
  // The Apple pass web service (D23), where passes' webServiceURL points: called by devices, not by keys.
  await app.register(appleWalletRoutes, { prefix: '/wallet/apple/v1' });
  // The earlier POS API (D17): the till routes of these modules once more, under /api/pos.
  await registerLegacyPos(app, [accountRoutes, memberRoutes, checkRoutes, holdRoutes, visitRoutes]);
  // The tills' providers call these (D26), signed by them, not by a key.
  await app.register(squareWebhookRoutes);
  await app.register(toastRoutes);
  await app.register(guestMenuRoutes);
  // The guest's card page (D23), opened by its link's token, not by a key.
  await app.register(cardRoutes);
  // The owner's dashboard: its session API (never an API key) and the single-page app (D16).
  await app.register(dashboardApiRoutes, { prefix: '/dashboard/api' });
  await app.register(dashboardStaticRoutes);
  return app;
}
