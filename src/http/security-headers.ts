// The security headers of every answer (CSP, framing, referrer, nosniff, HSTS over https): helmet's, one policy per surface.
import helmet, { type HelmetOptions } from 'helmet';
import type { App } from './context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The headers of the route's surface, set by installSecurityHeaders as the route is declared. */
    securityHeaders?: Record<string, string>;
  }
}

/** A surface's helmet options (helmet's own type admits no object built by spreading: its legacy names exclude each other). */
type Policy = Record<string, unknown>;

const csp = (directives: Record<string, string[]>): Policy => ({ contentSecurityPolicy: { useDefaults: false, directives } });

// JSON, images and CSV need no policy of their own; opened in a tab, nothing in them may load, run or be framed.
// The headers that only mean something to a page (a browsing context, legacy browsers' sniffing and downloads)
// are left off: every answer of a till's hot path carries these bytes.
const API: Policy = {
  ...csp({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] }),
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

// Every page is this server's own HTML, scripts and styles, with no inline script anywhere. Styles may be inline:
// the server's pages carry a <style> block, and Mantine (the dashboard) and Swagger UI add theirs at run time.
// Nothing is meant to be embedded, so no page may be framed.
const OWN_FILES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};
const PAGE = csp(OWN_FILES);

// The dashboard's links between its own pages keep their path as the referrer, as they always did.
const DASHBOARD: Policy = { ...PAGE, referrerPolicy: { policy: 'same-origin' } };

// Swagger UI's stylesheet draws its icons from data: images.
const DOCS = csp({ ...OWN_FILES, 'img-src': ["'self'", 'data:'] });

/** The surfaces serving HTML, by route path; every other route gets the API's policy. */
const SURFACES: [path: RegExp, policy: Policy][] = [
  [/^\/dashboard(\/\*)?$/, DASHBOARD], // the single-page app and its assets; its JSON API under /dashboard/api is the API's
  [/^\/api\/docs(\/|$)/, DOCS], // Swagger UI, its assets and the document it reads
  [/^\/api\/errors$/, PAGE],
  [/^\/m\//, PAGE], // the guest's QR menu and its script
  [/^\/card\//, PAGE], // the guest's card page (helmet's referrer policy: no-referrer, so its link's token never leaves)
];

/** The headers helmet sets for a policy, worked out once: helmet's middleware run against a stand-in answer. */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const answer = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as never, answer as never, () => {});
  return headers;
}

/**
 * Registered before any route; each route is given its surface's headers as it is declared. Returns the API's, for
 * the answers the router gives before any route or hook runs. The headers are helmet's,
 * worked out once per surface: @fastify/helmet builds helmet's middleware anew on every request, which cost about
 * 55 µs of CPU per request here.
 */
export function installSecurityHeaders(app: App, publicBaseUrl: string): Record<string, string> {
  const surface = (policy: Policy) =>
    headersOf({
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      // Only a server reached over https may tell browsers to come back over https alone.
      strictTransportSecurity: publicBaseUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      ...policy,
    } as HelmetOptions);
  const api = surface(API);
  const pages = SURFACES.map(([path, policy]) => [path, surface(policy)] as const);
  app.addHook('onRoute', (route) => {
    const headers = pages.find(([path]) => path.test(route.url))?.[1] ?? api;
    route.config = Object.assign(route.config ?? {}, { securityHeaders: headers });
  });
  // First of the hooks: a request refused by a later one (a bad key) still gets them; one that no route matches, the API's.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers((!req.is404 && req.routeOptions.config.securityHeaders) || api);
    done();
  });
  return api;
}
