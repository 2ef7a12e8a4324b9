// The dashboard's JSON API under /dashboard/api: session-cookie authentication, CSRF on every change, no API keys.
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import { eventRequestOf, type App } from '../http/context.js';
import { OPENAPI_LICENSE } from '../http/openapi.js';
import { nonJson, withErrors } from '../http/responses.js';
import { ApiError } from '../shared/errors.js';
import { csvLines } from '../shared/csv.js';
import { ListOf, pageFromQuery } from '../shared/pagination.js';
import * as accounts from '../modules/accounts/service.js';
import { SCOPES } from '../modules/accounts/schemas.js';
import { AUDIT_ACTION_LABELS } from '../modules/audit/schemas.js';
import * as audit from '../modules/audit/service.js';
import { EVENT_TYPES } from '../modules/webhooks/schemas.js';
import * as activity from '../modules/members/activity.js';
import * as directory from '../modules/members/directory.js';
import * as members from '../modules/members/service.js';
import { Adjustment, Birthday, HistoryEntry, Member, MemberActivity, MemberListQuery } from '../modules/members/schemas.js';
import * as programs from '../modules/programs/service.js';
import { BARCODE_FORMATS, PROGRAM_TYPES, Program } from '../modules/programs/schemas.js';
import {
  ApiKey,
  ChangePassword,
  CreatedApiKey,
  IdParams,
  KeyRulesBody,
  Meta,
  NewApiKey,
  NewProgram,
  Ok,
  OwnerAdjust,
  PageQuery,
  ProgramUpdate,
  PublicConfig,
  SessionInfo,
  SessionListItem,
  SignIn,
  SwitchVenue,
  NewChainVenue,
  Venue,
  VenueUpdate,
} from './schemas.js';
import { dashboardAuditRoutes } from './audit-routes.js';
import { roleAllows, roleNeeded } from './roles.js';
import { dashboardUserRoutes } from './users-routes.js';
import { dashboardLinkRoutes } from './link-routes.js';
import { dashboardBrandRoutes } from './brand-routes.js';
import { dashboardWalletRoutes } from './wallet-routes.js';
import { dashboardCampaignRoutes } from './campaign-routes.js';
import { dashboardCatalogueRoutes } from './catalogue-routes.js';
import { dashboardMenuRoutes } from './menu-routes.js';
import { dashboardWebhookRoutes } from './webhook-routes.js';
import { dashboardIntegrationRoutes } from './integration-routes.js';
import { dashboardOperationsRoutes } from './operations-routes.js';
import { dashboardPrivacyRoutes } from './privacy-routes.js';
import { dashboardLiabilityRoutes } from './liability-routes.js';
import { dashboardReportRoutes } from './report-routes.js';
import { isId, sessionOf } from './request.js';
import * as service from './service.js';

export const SESSION_COOKIE = 'vl_dashboard';
export const CSRF_HEADER = 'x-csrf-token';
/** Sign-in attempts (D16): per client address and per account, each in a sliding window. */

export const SIGN_IN_LIMITS = {
  perAddress: { limit: 20, windowMs: 60_000 },
  /** Failed sign-ins only: someone who knows the address cannot lock its owner out with right or wrong guesses of theirs. */
  perAccount: { limit: 10, windowMs: 15 * 60_000 },
  /** Wrong current passwords in one session (a session left open, or taken): then it is ended. */
  perSession: { limit: 5, windowMs: 15 * 60_000 },
};

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: service.OwnerSession | null;
  }
}

export const SCOPE_PRESETS = [
  { id: 'till', name: 'Till', scopes: ['members:read', 'members:write', 'transactions:write'] },
  { id: 'door_scanner', name: 'Door scanner', scopes: ['devices:write'] },
  { id: 'menu_sync', name: 'Menu sync', scopes: ['menu:read', 'menu:write', 'catalog:read', 'catalog:write'] },
] as const;

// Untagged on purpose: the public document (hideUntagged) leaves them out; the dashboard's own shows them.
const tags: string[] = [];

export async function dashboardApiRoutes(app: App): Promise<void> {
  const { config, clock, limiter } = app.deps;
  const secure = config.publicBaseUrl.startsWith('https://') || process.env.NODE_ENV === 'production';

  // A document of its own, apart from the public /api/v1 one (which leaves these untagged routes out).
  await app.register(swagger, {
    decorator: 'dashboardSwagger',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Venue Loyalty dashboard API',
        version: '1',
        license: OPENAPI_LICENSE,
        description:
          'The owner’s dashboard. Authenticated by the session cookie that sign-in sets; every call that changes ' +
          'something sends the session’s csrf_token as X-CSRF-Token. API keys are refused.',
      },
      servers: [{ url: config.publicBaseUrl }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } } },
      security: [{ session: [] }],
    },
  } as Parameters<typeof swagger>[1]);

  // Cookies are read and written here only: the session's, on this instance's paths.
  await app.register(cookie);
  const setCookie = (reply: FastifyReply, token: string, maxAgeSeconds: number) => {
    reply.setCookie(SESSION_COOKIE, token, { path: '/dashboard', maxAge: maxAgeSeconds, httpOnly: true, sameSite: 'lax', secure });
  };

  /**
   * Counts one more of `what` against each limit (shared by every process when Redis is configured), or with `peek`
   * only looks whether one more is within it (failures are counted once they fail); 429 over one.
   */
  const holdToLimits = async (what: string, limits: [key: string, { limit: number; windowMs: number }, scope: string][], how: 'hit' | 'peek' = 'hit') => {
    const at = clock.now().getTime();
    for (const [key, { limit, windowMs }, scope] of limits) {
      const decision = await limiter[how](key, limit, windowMs, at);
      if (!decision.allowed) {
        const wait = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        throw new ApiError('rate_limited', { message: `Too many ${what} ${scope}; try again in ${wait} s.`, headers: { 'retry-after': String(wait) } });
      }
    }
  };

  app.decorateRequest('dashboardSession', null);
  // Fail closed: a dashboard route missing from the role table (roles.ts) cannot even be registered.
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && !roleNeeded(method, route.url)) throw new Error(`${method} ${route.url} has no entry in src/dashboard/roles.ts`);
    }
  });
  app.addHook('onRequest', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    // Keys are for servers (D4); the dashboard is for the owner in a browser.
    if (req.headers.authorization !== undefined) throw new ApiError('api_key_not_accepted');
    const needed = roleNeeded(req.method === 'HEAD' ? 'GET' : req.method, req.routeOptions.url ?? '');
    if (needed === 'public') return;
    const token = req.cookies[SESSION_COOKIE];
    const now = clock.now();
    const session = token ? await service.sessionOf(app.deps.db, token, now) : undefined;
    if (!session) throw new ApiError('session_required');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const sent = req.headers[CSRF_HEADER];
      if (!service.csrfMatches(token!, typeof sent === 'string' ? sent : undefined)) {
        throw new ApiError('csrf_token_invalid', { param: 'X-CSRF-Token' });
      }
    }
    req.dashboardSession = { ...session, address: req.ip };
    if (!needed || !roleAllows(session.owner.role, needed)) await service.refuseRole(app.deps.db, req.dashboardSession, `${req.method} ${req.routeOptions.url}`, clock.now());
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () =>
    (app as unknown as { dashboardSwagger(): unknown }).dashboardSwagger(),
  );

  app.get(
    '/config',
    { schema: { tags, summary: 'What the sign-in page offers', response: withErrors({ 200: PublicConfig }) } },
    async () => ({ signup_open: config.dashboardSignup }),
  );

  app.post(
    '/session',
    { schema: { tags, summary: 'Sign in', body: SignIn, response: withErrors({ 200: SessionInfo }) } },
    async (req, reply) => {
      const email = req.body.email.trim().toLowerCase();
      const failures = `dashboard-signin:failed:${email}`;
      await holdToLimits('sign-in attempts', [[`dashboard-signin:addr:${req.ip}`, SIGN_IN_LIMITS.perAddress, 'from this address']]);
      await holdToLimits('failed sign-ins', [[failures, SIGN_IN_LIMITS.perAccount, 'for this account']], 'peek');
      const owner = await accounts.verifyOwnerPassword(app.deps.db, email, req.body.password, req.ip);
      if (!owner) {
        await limiter.hit(failures, SIGN_IN_LIMITS.perAccount.limit, SIGN_IN_LIMITS.perAccount.windowMs, clock.now().getTime());
        throw new ApiError('sign_in_failed');
      }
      const { token, session } = await inTransaction(app.deps.db, (trx) =>
        service.openSession(trx, owner, { ip: req.ip, userAgent: req.headers['user-agent'] }, clock.now()),
      );
      setCookie(reply, token, service.SESSION_TTL_MS / 1000);
      return service.presentSession(app.deps.db, session);
    },
  );

  app.get('/session', { schema: { tags, summary: 'The signed-in owner, the venue and chain, and the CSRF token', response: withErrors({ 200: SessionInfo }) } }, async (req) =>
    service.presentSession(app.deps.db, sessionOf(req)),
  );

  // The venue switcher (D21): per-venue pages follow the session's venue; members, programs and categories are the chain's.
  app.put(
    '/session/venue',
    { schema: { tags, summary: "Switch the session to another venue of the owner's chain", body: SwitchVenue, response: withErrors({ 200: SessionInfo }) } },
    async (req) => {
      const session = await inTransaction(app.deps.db, (trx) => service.switchVenue(trx, sessionOf(req), req.body.venue_id));
      return service.presentSession(app.deps.db, session);
    },
  );

  app.post(
    '/venues',
    { schema: { tags, summary: "Add a venue to the owner's chain (in the chain's currency) and switch to it", body: NewChainVenue, response: withErrors({ 201: SessionInfo }) } },
    async (req, reply) => {
      const session = await inTransaction(app.deps.db, (trx) => service.addVenue(trx, sessionOf(req), req.body));
      return reply.code(201).send(await service.presentSession(app.deps.db, session));
    },
  );

  app.delete('/session', { schema: { tags, summary: 'Sign out', response: withErrors({ 200: Ok }) } }, async (req, reply) => {
    const session = sessionOf(req);
    await inTransaction(app.deps.db, (trx) => service.revokeSession(trx, session, session.id, clock.now()));
    setCookie(reply, '', 0);
    return { ok: true as const };
  });

  app.get('/sessions', { schema: { tags, summary: "The owner's live sessions", response: withErrors({ 200: Type.Array(SessionListItem) }) } }, async (req) =>
    service.listSessions(app.deps.db, sessionOf(req), clock.now()),
  );

  app.delete('/sessions/:id', { schema: { tags, summary: 'Revoke a session', params: IdParams, response: withErrors({ 200: Ok }) } }, async (req) => {
    await inTransaction(app.deps.db, (trx) => service.revokeSession(trx, sessionOf(req), req.params.id, clock.now()));
    return { ok: true as const };
  });

  app.post(
    '/password',
    { schema: { tags, summary: 'Change the password; other sessions are signed out', body: ChangePassword, response: withErrors({ 200: Ok }) } },
    async (req, reply) => {
      const session = sessionOf(req);
      try {
        await inTransaction(app.deps.db, (trx) => service.changePassword(trx, session, req.body.current_password, req.body.new_password, clock.now()));
      } catch (err) {
        if (!(err instanceof ApiError && err.param === 'current_password')) throw err;
        // Guessing the password from a session left open: each wrong guess is audited, and the fifth ends the session.
        const { limit, windowMs } = SIGN_IN_LIMITS.perSession;
        const { remaining } = await limiter.hit(`dashboard-password:failed:${session.id}`, limit, windowMs, clock.now().getTime());
        await service.passwordChangeRefused(app.deps.db, session, clock.now(), remaining === 0);
        if (remaining > 0) throw err;
        setCookie(reply, '', 0);
        throw new ApiError('session_required', { message: `${limit} wrong current passwords: this session is ended. Sign in again.` });
      }
      return { ok: true as const };
    },
  );

  app.get('/meta', { schema: { tags, summary: 'Scopes, presets, program types', response: withErrors({ 200: Meta }) } }, async () => ({
    scopes: [...SCOPES],
    scope_presets: SCOPE_PRESETS.map((p) => ({ ...p, scopes: [...p.scopes] })),
    program_types: [...PROGRAM_TYPES],
    barcode_formats: [...BARCODE_FORMATS],
    audit_actions: Object.entries(AUDIT_ACTION_LABELS).map(([action, label]) => ({ action, label })),
    event_types: [...EVENT_TYPES],
  }));

  // Venue and its default rules (D12).
  app.get('/venue', { schema: { tags, summary: 'The venue', response: withErrors({ 200: Venue }) } }, async (req) =>
    service.presentVenue(sessionOf(req).venue),
  );

  app.patch('/venue', { schema: { tags, summary: 'Change the venue and its default rules', body: VenueUpdate, response: withErrors({ 200: Venue }) } }, async (req) =>
    service.presentVenue(await inTransaction(app.deps.db, (trx) => accounts.updateVenue(trx, sessionOf(req).venue.id, req.body, service.sessionWho(sessionOf(req))))),
  );

  // API keys (D4).
  app.get('/api-keys', { schema: { tags, summary: "The venue's API keys", response: withErrors({ 200: Type.Array(ApiKey) }) } }, async (req) =>
    (await accounts.listApiKeys(app.deps.db, accounts.placeOf(sessionOf(req).venue))).map(service.presentKey),
  );

  app.post('/api-keys', { schema: { tags, summary: 'Create a key; the secret is in this answer only', body: NewApiKey, response: withErrors({ 201: CreatedApiKey }) } }, async (req, reply) => {
    const { key, secret } = await inTransaction(app.deps.db, (trx) =>
      accounts.createApiKey(trx, app.deps.pepper, {
        venueId: sessionOf(req).venue.id,
        name: req.body.name.trim(),
        livemode: req.body.livemode,
        scopes: req.body.scopes,
        rules: req.body.rules,
        by: service.sessionWho(sessionOf(req)),
      }),
    );
    return reply.code(201).send({ key: service.presentKey(key), secret });
  });

  app.put('/api-keys/:id/rules', { schema: { tags, summary: "Replace a key's own rules", params: IdParams, body: KeyRulesBody, response: withErrors({ 200: ApiKey }) } }, async (req) => {
    const key = isId(req.params.id)
      ? await inTransaction(app.deps.db, (trx) => accounts.setApiKeyRules(trx, sessionOf(req).venue.chainId, req.params.id, req.body.rules, service.sessionWho(sessionOf(req))))
      : undefined;
    if (!key) throw new ApiError('api_key_not_found');
    return service.presentKey(key);
  });

  app.post('/api-keys/:id/revoke', { schema: { tags, summary: 'Revoke a key at once', params: IdParams, response: withErrors({ 200: ApiKey }) } }, async (req) => {
    const key = isId(req.params.id)
      ? await inTransaction(app.deps.db, (trx) => accounts.revokeApiKey(trx, { chainId: sessionOf(req).venue.chainId, keyId: req.params.id, at: clock.now(), by: service.sessionWho(sessionOf(req)) }))
      : undefined;
    if (!key) throw new ApiError('api_key_not_found');
    return service.presentKey(key);
  });

  // Programs (D9).
  app.get('/programs', { schema: { tags, summary: "The chain's programs", response: withErrors({ 200: Type.Array(Program) }) } }, async (req) =>
    (await programs.listPrograms(app.deps.db, sessionOf(req).venue.chainId)).map(programs.presentProgram),
  );

  app.post('/programs', { schema: { tags, summary: 'Create a program', body: NewProgram, response: withErrors({ 201: Program }) } }, async (req, reply) => {
    const { chainId } = sessionOf(req).venue;
    const created = await inTransaction(app.deps.db, (trx) =>
      service.addProgram(
        trx,
        chainId,
        { name: req.body.name, type: req.body.type, settings: req.body.settings, barcodeFormat: req.body.barcode_format, isDefault: req.body.is_default },
        service.sessionWho(sessionOf(req)),
      ),
    );
    return reply.code(201).send(programs.presentProgram(created));
  });

  app.patch('/programs/:id', { schema: { tags, summary: "Change a program's name, settings, barcode or make it the default", params: IdParams, body: ProgramUpdate, response: withErrors({ 200: Program }) } }, async (req) => {
    const { chainId } = sessionOf(req).venue;
    await service.programOf(app.deps.db, chainId, req.params.id);
    const updated = await inTransaction(app.deps.db, (trx) =>
      service.changeProgram(trx, chainId, req.params.id, {
        name: req.body.name,
        settings: req.body.settings,
        barcodeFormat: req.body.barcode_format,
        isDefault: req.body.is_default,
      }, clock.now(), service.sessionWho(sessionOf(req))),
    );
    return programs.presentProgram(updated);
  });

  // Members (D10).
  app.get('/members', { schema: { tags, summary: 'The members directory: search, filters, sorts (as GET /v1/members)', querystring: MemberListQuery, response: withErrors({ 200: ListOf(Member) }) } }, async (req) => {
    // The dashboard reads and filters the whole chain's members, whichever venue the session is at (D21).
    const caller = { ...service.ownerCallerOf(sessionOf(req), clock.now()), keyVenueId: null };
    const list = await directory.listMembers(app.deps.db, caller, pageFromQuery(req.query), req.query);
    return { ...list, url: '/dashboard/api/members' };
  });

  app.get(
    '/members/export.csv',
    {
      schema: {
        tags,
        summary: "The directory's members (its search, filters and sort) as a members file the import reads, streamed",
        querystring: Type.Omit(MemberListQuery, ['limit', 'starting_after']),
        response: withErrors({ 200: nonJson('text/csv', 'CSV: card_number, phone, email, name, consent_date, opening_balance, total_spend, visits, stamps') }),
      },
    },
    async (req, reply) => {
      const caller = { ...service.ownerCallerOf(sessionOf(req), clock.now()), keyVenueId: null };
      const lines = await directory.membersCsv(app.deps.db, caller, req.query, (fields) => csvLines([fields]));
      // Who took every member's contact details, and with which filters (the search term aside: it may be a name or a phone).
      const { q, ...filters } = req.query;
      await audit.recordAudit(app.deps.db, audit.placeOf(caller), { action: 'members.exported', target: { type: 'member', id: null }, changes: { filters: [null, { ...filters, searched: q !== undefined }] } });
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="members-${clock.now().toISOString().slice(0, 10)}.csv"`);
      return reply.send(Readable.from(lines));
    },
  );

  app.get('/members/:id', { schema: { tags, summary: 'A member', params: IdParams, response: withErrors({ 200: Member }) } }, async (req) =>
    members.getMember(app.deps.db, service.ownerCallerOf(sessionOf(req), clock.now()), req.params.id),
  );

  app.get('/members/:id/activity', { schema: { tags, summary: "A member's checks and other changes, newest first", params: IdParams, querystring: PageQuery, response: withErrors({ 200: ListOf(MemberActivity) }) } }, async (req) =>
    activity.memberActivity(
      app.deps.db,
      service.ownerCallerOf(sessionOf(req), clock.now()),
      req.params.id,
      { limit: req.query.limit ?? 20, startingAfter: req.query.starting_after },
      `/dashboard/api/members/${req.params.id}/activity`,
    ),
  );

  app.get('/members/:id/history', { schema: { tags, summary: "A member's history, newest first", params: IdParams, querystring: PageQuery, response: withErrors({ 200: ListOf(HistoryEntry) }) } }, async (req) =>
    members.memberHistory(app.deps.db, service.ownerCallerOf(sessionOf(req), clock.now()), req.params.id, {
      limit: req.query.limit ?? 20,
      startingAfter: req.query.starting_after,
    }),
  );

  // Documented like the public one: a 404 for another venue's member is an envelope, not an image (contract tests).
  const barcodeSvg = { description: 'SVG image', content: { 'image/svg+xml': { schema: Type.String() } } };
  app.get('/members/:id/barcode.svg', { schema: { tags, summary: "The member's card barcode as SVG", params: IdParams, response: withErrors({ 200: barcodeSvg }) } }, async (req, reply) => {
    const svg = await members.barcodeSvg(app.deps.db, service.ownerCallerOf(sessionOf(req), clock.now()), req.params.id);
    return reply.header('content-type', 'image/svg+xml').send(svg);
  });

  app.post('/members/:id/adjustments', { schema: { tags, summary: "Adjust a member's cashback, with a reason", params: IdParams, body: OwnerAdjust, response: withErrors({ 201: Adjustment }) } }, async (req, reply) => {
    const owner = service.ownerCallerOf(sessionOf(req), clock.now());
    const adjustment = await inTransaction(app.deps.db, async (trx) => {
      // The entry carries the member's mode, so a test member's history stays test.
      const member = await members.getMember(trx, owner, req.params.id);
      return members.adjustBalance(trx, { ...owner, livemode: member.livemode }, req.params.id, req.body, eventRequestOf(req), clock);
    });
    return reply.code(201).send(adjustment);
  });

  // What the owner may change of a member here: their birthday (birthday campaigns, D22); null clears it.
  const MemberChange = Type.Object({ birthday: Type.Union([Birthday, Type.Null()]) }, { additionalProperties: false });
  app.patch('/members/:id', { schema: { tags, summary: "Change a member's birthday", params: IdParams, body: MemberChange, response: withErrors({ 200: Member }) } }, async (req) =>
    inTransaction(app.deps.db, (trx) => members.updateMember(trx, service.ownerCallerOf(sessionOf(req), clock.now()), req.params.id, req.body, eventRequestOf(req))),
  );

  // Transactions, webhooks, overview, menu, tables and orders: in their own file, on this same instance (its hooks and document).
  await dashboardOperationsRoutes(app, tags);
  // Webhook endpoints and their delivery log.
  await dashboardWebhookRoutes(app, tags);
  // Point-of-sale connections (D26) and their log.
  await dashboardIntegrationRoutes(app, tags);
  // The menu's dishes, prices and stop list; the catalogue's products.
  await dashboardMenuRoutes(app, tags);
  // Categories and their money rules, the chain's and a venue's own.
  await dashboardCatalogueRoutes(app, tags);
  await dashboardCampaignRoutes(app, tags);
  // A member's export and erasure: in their own file, on this same instance.
  await dashboardPrivacyRoutes(app, tags);
  // The chain's venue liability report and its CSV.
  await dashboardLiabilityRoutes(app, tags);
  await dashboardReportRoutes(app, tags);
  // The chain's audit log and its CSV.
  await dashboardAuditRoutes(app, tags);
  // The chain's users and their roles.
  await dashboardUserRoutes(app, tags);
  // The chain's brand: name, colours, logo.
  await dashboardBrandRoutes(app, tags);
  await dashboardWalletRoutes(app, tags);
  // Invitations and password reset links.
  await dashboardLinkRoutes(app, tags, { setCookie, holdToLimits });
}
