// The one table of which scopes each route under /api needs (any one of them); [] means any valid key, 'public' no key.
import type { Scope } from '../modules/accounts/schemas.js';

type Needed = Scope[] | 'public';

/** Every route under /api but the legacy prefix, whose entries are derived below. */
const CURRENT_ROUTE_SCOPES = {
  'GET /v1/openapi.json': 'public',
  'GET /v1/account': [],
  'POST /v1/webhook_endpoints': ['webhooks:write'],
  'GET /v1/webhook_endpoints': ['webhooks:write'],
  'GET /v1/webhook_endpoints/:id': ['webhooks:write'],
  'PATCH /v1/webhook_endpoints/:id': ['webhooks:write'],
  'DELETE /v1/webhook_endpoints/:id': ['webhooks:write'],
  'POST /v1/webhook_endpoints/:id/test': ['webhooks:write'],
  'GET /v1/webhook_endpoints/:id/deliveries': ['webhooks:write'],
  'GET /v1/events': ['webhooks:write'],
  'GET /v1/events/:id': ['webhooks:write'],
  'POST /v1/members': ['members:write', 'devices:write'],
  'GET /v1/members': ['members:read'],
  'GET /v1/members/lookup': ['members:read'],
  'GET /v1/members/:id': ['members:read'],
  'PATCH /v1/members/:id': ['members:write'],
  'POST /v1/members/:id/cards': ['members:write'],
  'GET /v1/members/:id/history': ['members:read'],
  'GET /v1/members/:id/activity': ['members:read'],
  'GET /v1/members/:id/barcode.svg': ['members:read'],
  'GET /v1/members/:id/pass.pkpass': ['members:read'],
  'POST /v1/members/:id/pass/revoke': ['members:write'],
  'GET /v1/members/:id/wallet/google': ['members:read'],
  'GET /v1/members/:id/card_link': ['members:read'],
  'POST /v1/members/:id/card_link': ['members:write'],
  'GET /v1/members/:id/export': ['members:read'],
  'POST /v1/members/:id/erase': ['members:write'],
  'POST /v1/members/:id/adjustments': ['members:adjust'],
  'POST /v1/members/:id/rewards/redeem': ['transactions:write', 'devices:write'],
  'POST /v1/members/imports': ['members:write'],
  'GET /v1/members/imports/:id': ['members:write'],
  'GET /v1/menu/items': ['menu:read'],
  'GET /v1/menu/items/:external_id': ['menu:read'],
  'PUT /v1/menu/items/:external_id': ['menu:write'],
  'PATCH /v1/menu/items/:external_id': ['menu:write'],
  'DELETE /v1/menu/items/:external_id': ['menu:write'],
  'POST /v1/menu/items/bulk': ['menu:write'],
  'GET /v1/orders': ['orders:read'],
  'GET /v1/orders/:id': ['orders:read'],
  'POST /v1/orders/:id/status': ['orders:write'],
  'GET /v1/catalog/products': ['catalog:read'],
  'GET /v1/catalog/products/:sku': ['catalog:read'],
  'PUT /v1/catalog/products/:sku': ['catalog:write'],
  'DELETE /v1/catalog/products/:sku': ['catalog:write'],
  'POST /v1/catalog/products/bulk': ['catalog:write'],
  'GET /v1/catalog/categories': ['catalog:read'],
  'PUT /v1/catalog/categories/:external_id': ['catalog:write'],
  'POST /v1/checks/calculate': ['transactions:write'],
  'POST /v1/checks': ['transactions:write'],
  'GET /v1/transactions': ['transactions:write'],
  'GET /v1/transactions/:external_id': ['transactions:write'],
  'POST /v1/transactions/:external_id/void': ['transactions:write'],
  'POST /v1/transactions/:external_id/refunds': ['transactions:write'],
  'POST /v1/holds': ['transactions:write', 'devices:write'],
  'GET /v1/holds/:id': ['transactions:write', 'devices:write'],
  'POST /v1/holds/:id/release': ['transactions:write', 'devices:write'],
  'POST /v1/holds/:id/capture': ['transactions:write'],
  'POST /v1/visits': ['devices:write', 'transactions:write'],
  'POST /v1/scans': ['devices:write', 'members:read'],
  // The whole chain for any key of it: not in ROUTE_VENUES (takes no venue_id).
  'GET /v1/reports/venue_liability': ['reports:read'],
  // Chain-wide: any key of the chain; a venue's key sets up campaigns of its own venue only (campaigns/service.ts).
  'POST /v1/campaigns': ['campaigns:write'],
  'GET /v1/campaigns': ['campaigns:read', 'campaigns:write'],
  'GET /v1/campaigns/:id': ['campaigns:read', 'campaigns:write'],
  'GET /v1/campaigns/:id/results': ['campaigns:read', 'campaigns:write'],
  'PATCH /v1/campaigns/:id': ['campaigns:write'],
  // Chain-wide: every entry of the key's chain.
  'GET /v1/audit_events': ['audit:read'],
  // Chain-wide: a venue's key sees and maps only its own venue (integrations/core/service.ts).
  'POST /v1/integrations': ['integrations:write'],
  'GET /v1/integrations': ['integrations:read', 'integrations:write'],
  'GET /v1/integrations/:id': ['integrations:read', 'integrations:write'],
  'PATCH /v1/integrations/:id': ['integrations:write'],
  'DELETE /v1/integrations/:id': ['integrations:write'],
  'GET /v1/integrations/:id/log': ['integrations:read', 'integrations:write'],
  'POST /v1/integrations/:id/log/:entry_id/retry': ['integrations:write'],
  'POST /public/v1/menus/:venue_slug/orders': 'public',
  'GET /errors': 'public',
} satisfies Record<string, Needed>;

type CurrentRoute = keyof typeof CURRENT_ROUTE_SCOPES;

/**
 * Where a call happens (D21). `at`: at one venue; a chain key names it with `venue_id`, a venue key may omit it.
 * `any`: a chain key may name a venue (a list filtered to it, a write belonging to it) or none (across the chain,
 * or belonging to no venue). A route not listed takes no `venue_id`. `venue_id` goes in the JSON body of a route
 * that has one, else in the query; a venue key naming any venue but its own is refused (venue_not_allowed).
 */
export const ROUTE_VENUES: Partial<Record<CurrentRoute, 'at' | 'any'>> = {
  'POST /v1/webhook_endpoints': 'any',
  'GET /v1/webhook_endpoints': 'any',
  'GET /v1/events': 'any',
  'POST /v1/members': 'at',
  'GET /v1/members': 'any',
  'POST /v1/members/:id/adjustments': 'any',
  'POST /v1/members/:id/rewards/redeem': 'at',
  'POST /v1/members/imports': 'any',
  'GET /v1/menu/items': 'at',
  'GET /v1/menu/items/:external_id': 'at',
  'PUT /v1/menu/items/:external_id': 'at',
  'PATCH /v1/menu/items/:external_id': 'at',
  'DELETE /v1/menu/items/:external_id': 'at',
  'POST /v1/menu/items/bulk': 'at',
  'GET /v1/orders': 'any',
  'GET /v1/orders/:id': 'at',
  'POST /v1/orders/:id/status': 'at',
  'POST /v1/checks/calculate': 'at',
  'POST /v1/checks': 'at',
  'GET /v1/transactions': 'any',
  'GET /v1/transactions/:external_id': 'at',
  'POST /v1/transactions/:external_id/void': 'at',
  'POST /v1/transactions/:external_id/refunds': 'at',
  'POST /v1/holds': 'at',
  'GET /v1/holds/:id': 'at',
  'POST /v1/holds/:id/release': 'at',
  'POST /v1/holds/:id/capture': 'at',
  'POST /v1/visits': 'at',
  'POST /v1/scans': 'at',
};

/** Where the earlier POS API lives under /api (contract section 9, D17). */
export const LEGACY_POS_PREFIX = '/pos';

/**
 * The till subset that the earlier POS API serves under /api/pos/v1: these v1 routes, the very same definitions
 * registered a second time (src/integrations/legacy-pos/routes.ts), so they need the same scopes.
 */
export const LEGACY_POS_ROUTES: readonly CurrentRoute[] = [
  'GET /v1/account',
  'GET /v1/members/lookup',
  'POST /v1/scans',
  'POST /v1/checks/calculate',
  'POST /v1/checks',
  'GET /v1/transactions/:external_id',
  'POST /v1/transactions/:external_id/void',
  'POST /v1/holds',
  'GET /v1/holds/:id',
  'POST /v1/holds/:id/release',
  'POST /v1/holds/:id/capture',
];

const LEGACY_POS_PATH = `/api${LEGACY_POS_PREFIX}`;

/** Whether a request path (query string allowed) is under the legacy prefix. */
export function isLegacyPosPath(url: string): boolean {
  const path = url.split('?')[0]!;
  return path === LEGACY_POS_PATH || path.startsWith(`${LEGACY_POS_PATH}/`);
}

/** The same path under /api/v1, so that the legacy and the current route of one operation are one request. */
export function currentPathOf(path: string): string {
  return isLegacyPosPath(path) ? `/api${path.slice(LEGACY_POS_PATH.length)}` : path;
}

/** A v1 route's table key under the legacy prefix: `POST /v1/checks` → `POST /pos/v1/checks`. */
export const legacyRoute = (route: string): string => route.replace(' ', ` ${LEGACY_POS_PREFIX}`);

/** A route's venue rule by its table key, under every prefix (the legacy one takes venue keys only). */
export const venueRuleOf = (key: string): 'at' | 'any' | undefined =>
  ROUTE_VENUES[key.replace(` ${LEGACY_POS_PREFIX}/`, ' /') as CurrentRoute];

export const ROUTE_SCOPES: Record<string, Needed> = {
  ...CURRENT_ROUTE_SCOPES,
  ...Object.fromEntries(LEGACY_POS_ROUTES.map((route) => [legacyRoute(route), CURRENT_ROUTE_SCOPES[route]])),
  [legacyRoute('GET /v1/openapi.json')]: 'public',
};

/**
 * The table's key for a route under /api, or undefined for routes the table does not govern: those outside /api
 * (the dashboard has its own sessions, the QR menu is public) and the API reference page's own files. Every other
 * route under /api, whatever its prefix, has a key, so a new prefix is keyed until the table says otherwise.
 */
export function routeKey(method: string, url: string): string | undefined {
  if (!url.startsWith('/api/') || url === '/api/docs' || url.startsWith('/api/docs/')) return undefined;
  return `${method} ${url.slice('/api'.length)}`;
}

/** A key without scopes has full access; otherwise it needs one of the route's scopes. */
export function allows(keyScopes: readonly Scope[], needed: readonly Scope[]): boolean {
  return keyScopes.length === 0 || needed.length === 0 || needed.some((s) => keyScopes.includes(s));
}
