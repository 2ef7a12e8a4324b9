// The earlier POS API at /api/pos/v1 (contract section 9, D17), an adapter beside the till connectors: the till subset
// of v1, served by the very same route definitions registered a second time, with Deprecation and Link on every answer
// and a document of its own.
import type { App } from '../../http/context.js';
import { isLegacyPosPath, LEGACY_POS_PREFIX, LEGACY_POS_ROUTES } from '../../http/route-scopes.js';

const PREFIX = `/api${LEGACY_POS_PREFIX}`;
const LEGACY_POS_DOCUMENT_URL = `${PREFIX}/v1/openapi.json`;
const CURRENT_DOCUMENT_URL = '/api/v1/openapi.json';

const SHORTHANDS: Record<string, string> = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', head: 'HEAD', options: 'OPTIONS' };

/**
 * The instance a module's route plugin is handed when registered under the legacy prefix: the plugin runs as it
 * does under /api, and only its routes in LEGACY_POS_ROUTES are declared. A route that slipped past this filter (a
 * chained or nested declaration) is still not served without a key: it is missing from the scope table, and the
 * app refuses to start (src/http/auth.ts).
 */
function tillSubset(scope: App): App {
  const kept = new Set<string>(LEGACY_POS_ROUTES);
  const keeps = (methods: string | string[], url: string) => [methods].flat().every((m) => kept.has(`${m.toUpperCase()} ${url}`));
  return new Proxy(scope, {
    get(target, prop, proxy) {
      if (typeof prop === 'string' && Object.hasOwn(SHORTHANDS, prop)) {
        return (url: string, ...rest: unknown[]) => (keeps(SHORTHANDS[prop]!, url) ? (target as any)[prop](url, ...rest) : proxy);
      }
      if (prop === 'route') {
        return (options: { method: string | string[]; url?: string; path?: string }) =>
          keeps(options.method, options.url ?? options.path ?? '') ? target.route(options as never) : proxy;
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

type RoutePlugin = (app: App) => Promise<void>;

/**
 * Registers the modules' route plugins a second time under /api/pos, keeping the till subset; keys, scopes, rate
 * limit, idempotency and validation are the app-wide ones, as under /api/v1.
 */
export async function registerLegacyPos(app: App, plugins: readonly RoutePlugin[]): Promise<void> {
  const link = `<${app.deps.config.publicBaseUrl}${CURRENT_DOCUMENT_URL}>; rel="successor-version"`;
  // On every answer under the prefix, refusals and unknown routes included; the v1 document describes the successor.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (isLegacyPosPath(req.url)) reply.header('deprecation', 'true').header('link', link);
    done(null, payload);
  });
  await app.register(
    async (pos) => {
      for (const plugin of plugins) await pos.register((scope: App) => plugin(tillSubset(scope)));
    },
    { prefix: PREFIX },
  );
  let document: object | undefined;
  app.get(LEGACY_POS_DOCUMENT_URL, { schema: { hide: true } }, async () => (document ??= legacyDocument(app.swagger(), app.deps.config.publicBaseUrl)));
}

const SCHEMAS = '#/components/schemas/';

/** The names of the component schemas `node` refers to, directly or through one another. */
function referencedSchemas(node: unknown, schemas: Record<string, unknown>, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencedSchemas(item, schemas, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      const name = key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMAS) ? value.slice(SCHEMAS.length) : undefined;
      if (name === undefined) referencedSchemas(value, schemas, found);
      else if (!found.has(name)) referencedSchemas(schemas[name], schemas, found.add(name));
    }
  }
  return found;
}

/**
 * The legacy document: the current document's operations for the till subset, each marked deprecated, under the
 * legacy server URL, with the component schemas those operations use and no others. Derived rather than generated,
 * so the two can never describe the same route differently.
 */
function legacyDocument(current: Record<string, any>, baseUrl: string): object {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of LEGACY_POS_ROUTES) {
    const [method, path] = route.split(' ') as [string, string];
    const template = path.replace(/:(\w+)/g, '{$1}');
    const operation = current.paths?.[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${route} is in LEGACY_POS_ROUTES but not in the current OpenAPI document`);
    for (const tag of operation.tags ?? []) tags.add(tag);
    (paths[template] ??= {})[method.toLowerCase()] = { ...operation, deprecated: true };
  }
  const { webhooks: _events, paths: _all, tags: allTags, components, ...rest } = current;
  const schemas: Record<string, unknown> = components?.schemas ?? {};
  const used = referencedSchemas(paths, schemas);
  return {
    ...rest,
    components: { ...components, schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))) },
    info: {
      ...current.info,
      title: `${current.info?.title ?? 'API'}: earlier POS API (deprecated)`,
      description:
        `Deprecated: the till subset of v1 kept at ${PREFIX}/v1 for existing tills; every answer carries Deprecation and a Link ` +
        `to the current document, ${baseUrl}${CURRENT_DOCUMENT_URL}. Requests, answers, keys, scopes, the rate limit and ` +
        'Idempotency-Key are those of v1; move a till by changing its base URL.',
    },
    servers: [{ url: `${baseUrl}${PREFIX}` }],
    ...(allTags ? { tags: allTags.filter((t: { name: string }) => tags.has(t.name)) } : {}),
    paths,
  };
}
