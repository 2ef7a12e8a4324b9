// The security headers of every answer (CSP, framing, referrer, nosniff, HSTS over https): one helmet registration, a policy per surface.
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { App } from './context.js';

type Policy = Omit<FastifyHelmetOptions, 'global'>;

const csp = (directives: Record<string, string[]>) => ({ contentSecurityPolicy: { useDefaults: false, directives } });

// JSON, images and CSV need no policy of their own; opened in a tab, nothing in them may load, run or be framed.
const API = csp({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });

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
];

/** Registered before any route, so each route is given its surface's policy as it is declared. */
export async function installSecurityHeaders(app: App, publicBaseUrl: string): Promise<void> {
  // Added before the plugin's own onRoute hook, which reads a route's `helmet` option.
  app.addHook('onRoute', (route) => {
    route.helmet ??= SURFACES.find(([path]) => path.test(route.url))?.[1];
  });
  await app.register(helmet, {
    ...API,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Only a server reached over https may tell browsers to come back over https alone.
    strictTransportSecurity: publicBaseUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}
