// The dashboard's Point of sale page (D26): owners and managers connect Square or Toast, map its locations (Toast's
// restaurant GUIDs) to the chain's venues, have a Toast API key generated, pause and resume a connection, and read
// its log with "try again". Each route is the connection service's own, called as the session's user for the whole
// chain (audited as that user).
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { ApiError, parameterInvalid } from '../shared/errors.js';
import { ListOf } from '../shared/pagination.js';
import * as accounts from '../modules/accounts/service.js';
import type { Caller } from '../modules/accounts/schemas.js';
import {
  CreateIntegration,
  DeletedIntegration,
  Integration,
  IntegrationParams,
  LogEntry,
  LogEntryParams,
  UpdateIntegration,
  type Integration as IntegrationAnswer,
  type Provider,
} from '../integrations/core/schemas.js';
import * as integrations from '../integrations/core/service.js';
import { sessionOf } from './request.js';
import { PageQuery } from './schemas.js';
import * as service from './service.js';

/**
 * Whether PUBLIC_BASE_URL names this machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0): a provider on the internet can
 * never call it, so the page refuses to offer its endpoint URL as the one to paste.
 */
export function isLocalBaseUrl(publicBaseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(publicBaseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  // The URL parser writes IPv6 compressed (::1) and a mapped IPv4 address in hex (::ffff:7f00:1 for 127.0.0.1).
  if (isIP(host) === 6) return host === '::1' || host === '::' || /^::ffff:7f[0-9a-f]{2}:/.test(host);
  return false;
}

/** A connection as the page shows it: the public resource, and whether its endpoint URL can be given to the provider. */
const DashboardIntegration = Type.Object(
  {
    ...Integration.properties,
    public_base_url: Type.String({ description: "The server's PUBLIC_BASE_URL, which endpoint_url starts with." }),
    public_base_url_is_local: Type.Boolean({
      description: 'PUBLIC_BASE_URL is on this machine (localhost, 127.0.0.1, ::1): the provider cannot reach endpoint_url, so it is not to be pasted.',
    }),
  },
  { title: 'DashboardIntegration' },
);

/** The answer that made or changed a connection: as the page shows it, with a Toast key generated for it, this once. */
const DashboardIntegrationWritten = Type.Object(
  {
    ...DashboardIntegration.properties,
    generated_api_key: Type.Optional(
      Type.String({ description: "The Toast API key generated at generate_api_key: in this answer only; the owner gives it to Toast's integrations team." }),
    ),
  },
  { title: 'DashboardIntegrationWritten' },
);

const GenerateApiKey = Type.Optional(
  Type.Boolean({ description: 'Toast: the server draws a strong random API key (settings.api_key), answered once as generated_api_key.' }),
);
const DashboardCreateIntegration = Type.Object(
  { ...CreateIntegration.properties, generate_api_key: GenerateApiKey },
  { additionalProperties: false, title: 'DashboardCreateIntegration' },
);
const DashboardUpdateIntegration = Type.Object(
  { ...UpdateIntegration.properties, generate_api_key: GenerateApiKey },
  { additionalProperties: false, title: 'DashboardUpdateIntegration' },
);

/** 32 random bytes, base64url: 43 characters, within Toast's 255, and nothing a header would have to escape. */
const newToastApiKey = () => randomBytes(32).toString('base64url');

/**
 * The settings with a key generated when asked: only a Toast connection has one, and it is generated or given, not
 * both. Undefined settings stay undefined (a change that names none).
 */
function withGeneratedKey<S extends { api_key?: string } | undefined>(provider: Provider, generate: boolean | undefined, settings: S): { settings: S; generated?: string } {
  if (!generate) return { settings };
  if (provider !== 'toast') throw parameterInvalid('generate_api_key', 'Only a Toast connection has an API key to generate.');
  if (settings?.api_key !== undefined) throw parameterInvalid('generate_api_key', 'Generate a key or give settings.api_key, not both.');
  const generated = newToastApiKey();
  return { settings: { ...settings, api_key: generated } as S, generated };
}

// Toast names a restaurant by its GUID (Toast-Restaurant-External-ID), written in lower case; Toast lists none to us,
// so the owner types each one and a typo would refuse every call from that restaurant.
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A Toast connection's locations with each restaurant GUID checked and in lower case; another provider's as given. */
function restaurantsOf(provider: Provider, locations: Record<string, string> | undefined): Record<string, string> | undefined {
  if (provider !== 'toast' || locations === undefined) return locations;
  const out: Record<string, string> = {};
  for (const [restaurant, venueId] of Object.entries(locations)) {
    const guid = restaurant.trim().toLowerCase();
    if (!GUID.test(guid)) {
      throw parameterInvalid(`locations.${restaurant}`, `${restaurant} is not a Toast restaurant GUID (32 hexadecimal digits in groups of 8-4-4-4-12).`);
    }
    if (guid in out) throw parameterInvalid(`locations.${restaurant}`, `Toast restaurant ${guid} is named twice: a restaurant is one venue.`);
    out[guid] = venueId;
  }
  return out;
}

const DashboardIntegrations = Type.Object(
  {
    ...ListOf(DashboardIntegration).properties,
    public_base_url: Type.String(),
    public_base_url_is_local: Type.Boolean({ description: 'As on each connection: the page says so before one is made.' }),
  },
  { title: 'DashboardIntegrationList' },
);

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardIntegrationRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock, secretBox: box } = app.deps;
  const base = app.deps.config.publicBaseUrl;
  const local = isLocalBaseUrl(base);
  const shown = (i: IntegrationAnswer) => ({ ...i, public_base_url: base, public_base_url_is_local: local });

  // The session's user acting for the whole chain (a connection maps locations to any of its venues), live, audited
  // as the user at the venue the session is at.
  const callerOf = (req: FastifyRequest): Caller => ({ ...service.ownerCallerOf(sessionOf(req), clock.now()), keyVenueId: null });

  // A manager or staff limited to some venues (D24) sees and changes only connections mapped to those venues alone:
  // a connection mapped to no venue, or to another, is the owner's (and is not found, as another chain's).
  const reaches = (req: FastifyRequest, locations: Record<string, string>) => {
    const { owner } = sessionOf(req);
    const venues = Object.values(locations);
    return owner.venueIds === null || (venues.length > 0 && venues.every((v) => accounts.userMayOpen(owner, v)));
  };
  const refuseOutside = (req: FastifyRequest, locations: Record<string, string> | undefined) => {
    if (!reaches(req, locations ?? {})) {
      const outside = Object.entries(locations ?? {}).find(([, v]) => !accounts.userMayOpen(sessionOf(req).owner, v));
      throw new ApiError('venue_not_found', {
        param: outside ? `locations.${outside[0]}` : 'locations',
        message: 'Map locations only to venues you run: a connection of other venues, or of none, is for the owner.',
      });
    }
  };
  /** The connection, or 404 integration_not_found for one of another chain or beyond the user's venues. */
  const reachable = async (req: FastifyRequest, trxDb: typeof db, id: string) => {
    const found = await integrations.getIntegration(trxDb, callerOf(req), id, base);
    if (!reaches(req, found.locations)) throw new ApiError('integration_not_found');
    return found;
  };

  app.get(
    '/integrations',
    { schema: { tags, summary: "The chain's point-of-sale connections, newest first", response: withErrors({ 200: DashboardIntegrations }) } },
    async (req) => {
      const list = await integrations.listIntegrations(db, callerOf(req), { limit: 100 }, base);
      return { ...list, data: list.data.filter((i) => reaches(req, i.locations)).map(shown), public_base_url: base, public_base_url_is_local: local };
    },
  );

  app.post(
    '/integrations',
    {
      schema: {
        tags,
        summary: "Connect a point-of-sale provider: its settings (secrets are write-only, a Toast key may be generated) and its locations mapped to the chain's venues",
        body: DashboardCreateIntegration,
        response: withErrors({ 201: DashboardIntegrationWritten }),
      },
    },
    async (req, reply) => {
      const { generate_api_key: generate, ...input } = req.body;
      const locations = restaurantsOf(input.provider, input.locations);
      refuseOutside(req, locations);
      const { settings, generated } = withGeneratedKey(input.provider, generate, input.settings);
      const created = await inTransaction(db, (trx) => integrations.createIntegration(trx, callerOf(req), { ...input, locations, settings }, box, base));
      return reply.code(201).send({ ...shown(created), ...(generated ? { generated_api_key: generated } : {}) });
    },
  );

  app.get(
    '/integrations/:id',
    { schema: { tags, summary: 'A connection', params: IntegrationParams, response: withErrors({ 200: DashboardIntegration }) } },
    async (req) => shown(await reachable(req, db, req.params.id)),
  );

  app.patch(
    '/integrations/:id',
    {
      schema: {
        tags,
        summary: 'Change a connection: its name, status (paused or active), locations, or a secret given again (a Toast key generated anew)',
        params: IntegrationParams,
        body: DashboardUpdateIntegration,
        response: withErrors({ 200: DashboardIntegrationWritten }),
      },
    },
    async (req) =>
      inTransaction(db, async (trx) => {
        const { provider } = await reachable(req, trx, req.params.id);
        const { generate_api_key: generate, ...input } = req.body;
        const locations = restaurantsOf(provider, input.locations);
        if (locations !== undefined) refuseOutside(req, locations);
        const { settings, generated } = withGeneratedKey(provider, generate, input.settings);
        const changed = await integrations.updateIntegration(trx, callerOf(req), req.params.id, { ...input, locations, settings }, box, base);
        return { ...shown(changed), ...(generated ? { generated_api_key: generated } : {}) };
      }),
  );

  app.delete(
    '/integrations/:id',
    { schema: { tags, summary: 'Remove a connection and its log; what it applied stays', params: IntegrationParams, response: withErrors({ 200: DeletedIntegration }) } },
    async (req) =>
      inTransaction(db, async (trx) => {
        await reachable(req, trx, req.params.id);
        return integrations.deleteIntegration(trx, callerOf(req), req.params.id);
      }),
  );

  app.get(
    '/integrations/:id/log',
    {
      schema: {
        tags,
        summary: "The connection's log, newest first: what was applied or refunded, and what was not and why",
        params: IntegrationParams,
        querystring: PageQuery,
        response: withErrors({ 200: ListOf(LogEntry) }),
      },
    },
    async (req) => {
      await reachable(req, db, req.params.id);
      return integrations.listLog(db, callerOf(req), req.params.id, { limit: req.query.limit ?? 20, startingAfter: req.query.starting_after });
    },
  );

  app.post(
    '/integrations/:id/log/:entry_id/retry',
    { schema: { tags, summary: 'Try an entry that failed, or found no guest or venue, again: it is queued, due now', params: LogEntryParams, response: withErrors({ 200: LogEntry }) } },
    async (req) =>
      inTransaction(db, async (trx) => {
        await reachable(req, trx, req.params.id);
        return integrations.retryLogEntry(trx, callerOf(req), req.params.id, req.params.entry_id);
      }),
  );
}
