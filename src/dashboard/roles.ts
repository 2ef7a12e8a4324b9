// The one table of which role each dashboard route needs (D24): staff find members, see their history and run the
// orders board; managers also run programs, campaigns, categories, the menu, members' money, webhooks and point-of-sale
// connections; the owner everything, users, keys and the chain's settings included. `public`: no session (sign-in,
// sign-up, the page's config).
import { ROLES, type Role } from '../modules/accounts/schemas.js';

type Needed = Role | 'public';

/** Every route under /dashboard/api, as `METHOD /path` below that prefix. */
export const DASHBOARD_ROUTE_ROLES = {
  'GET /openapi.json': 'public',
  'GET /config': 'public',
  'POST /signup': 'public',
  'POST /session': 'public',
  // A forgotten password, and the page of an invitation or reset link: whoever holds the link.
  'POST /password-reset': 'public',
  'POST /links/inspect': 'public',
  'POST /links/accept': 'public',
  // Their own session, password and what the pages need to draw themselves: everyone signed in.
  'GET /session': 'staff',
  'DELETE /session': 'staff',
  'PUT /session/venue': 'staff',
  'GET /sessions': 'staff',
  'DELETE /sessions/:id': 'staff',
  'POST /password': 'staff',
  'GET /meta': 'staff',
  'GET /venue': 'staff',
  // Finding guests and the orders board.
  'GET /members': 'staff',
  // Every member's contact details at once: as a member's own export.
  'GET /members/export.csv': 'manager',
  'GET /members/:id': 'staff',
  'GET /members/:id/history': 'staff',
  'GET /members/:id/activity': 'staff',
  'GET /members/:id/barcode.svg': 'staff',
  'GET /members/:id/wallet': 'staff',
  'GET /orders': 'staff',
  'POST /orders/:id/status': 'staff',
  'GET /dishes': 'staff',
  // Running the venue: the money rules, members' money and data, the menu, webhooks, the day's figures.
  'GET /overview': 'manager',
  'GET /programs': 'manager',
  'POST /programs': 'manager',
  'PATCH /programs/:id': 'manager',
  'GET /campaigns': 'manager',
  'POST /campaigns': 'manager',
  'PATCH /campaigns/:id': 'manager',
  'GET /campaigns/:id/results': 'manager',
  'GET /categories': 'manager',
  'POST /categories': 'manager',
  'PATCH /categories/:external_id': 'manager',
  'PUT /categories/:external_id/venue-rules/:venue_id': 'manager',
  'DELETE /categories/:external_id/venue-rules/:venue_id': 'manager',
  'PUT /dishes/:external_id': 'manager',
  'PATCH /dishes/:external_id': 'manager',
  'DELETE /dishes/:external_id': 'manager',
  'POST /dishes/prices': 'manager',
  'GET /products': 'manager',
  'PUT /products/:sku': 'manager',
  'DELETE /products/:sku': 'manager',
  'GET /tables': 'manager',
  'POST /tables': 'manager',
  'GET /tables/:table_code/qr.svg': 'manager',
  'GET /tables/:table_code/qr.png': 'manager',
  'PATCH /members/:id': 'manager',
  'POST /members/:id/adjustments': 'manager',
  'GET /members/:id/export': 'manager',
  'POST /members/:id/erase': 'manager',
  'POST /members/:id/card_link': 'manager',
  'POST /members/:id/pass/revoke': 'manager',
  'GET /transactions': 'manager',
  'GET /transactions/registers': 'manager',
  'GET /transactions/export.csv': 'manager',
  'GET /transactions/:id': 'manager',
  // A member's page refunds and voids a check of the venue (D27).
  'POST /transactions/:id/refunds': 'manager',
  'POST /transactions/:id/void': 'manager',
  'GET /webhook-endpoints': 'manager',
  'POST /webhook-endpoints': 'manager',
  'PATCH /webhook-endpoints/:id': 'manager',
  'DELETE /webhook-endpoints/:id': 'manager',
  'POST /webhook-endpoints/:id/events/:event_id/resend': 'manager',
  'GET /webhook-endpoints/:id/deliveries': 'manager',
  'POST /webhook-endpoints/:id/test': 'manager',
  'POST /webhook-endpoints/:id/enable': 'manager',
  // Point-of-sale connections (D26): owners and managers.
  'GET /integrations': 'manager',
  'POST /integrations': 'manager',
  'GET /integrations/:id': 'manager',
  'PATCH /integrations/:id': 'manager',
  'DELETE /integrations/:id': 'manager',
  'GET /integrations/:id/log': 'manager',
  'POST /integrations/:id/log/:entry_id/retry': 'manager',
  // The chain's own: keys, venues and their rules, the chain's money report, the audit log.
  'GET /api-keys': 'owner',
  'POST /api-keys': 'owner',
  'PUT /api-keys/:id/rules': 'owner',
  'POST /api-keys/:id/revoke': 'owner',
  'PATCH /venue': 'owner',
  'POST /venues': 'owner',
  'GET /reports/activity': 'manager',
  'GET /reports/activity.csv': 'manager',
  'GET /reports/venue-liability': 'owner',
  'GET /reports/venue-liability.csv': 'owner',
  'GET /users': 'owner',
  'PATCH /users/:id': 'owner',
  'DELETE /users/:id': 'owner',
  'POST /users/:id/password-reset': 'owner',
  'GET /invitations': 'owner',
  'POST /invitations': 'owner',
  'DELETE /invitations/:id': 'owner',
  'GET /brand': 'owner',
  'GET /wallet': 'owner',
  'PATCH /brand': 'owner',
  'PUT /brand/logo': 'owner',
  'DELETE /brand/logo': 'owner',
  'GET /brand/logo.png': 'owner',
  'GET /audit-events': 'owner',
  'GET /audit-events/export.csv': 'owner',
} satisfies Record<string, Needed>;

export const DASHBOARD_PREFIX = '/dashboard/api';

/** The role a dashboard route needs; undefined for a route missing from the table (which cannot be registered). */
export function roleNeeded(method: string, url: string): Needed | undefined {
  if (!url.startsWith(DASHBOARD_PREFIX)) return undefined;
  return (DASHBOARD_ROUTE_ROLES as Record<string, Needed>)[`${method} ${url.slice(DASHBOARD_PREFIX.length)}`];
}

/** Whether `role` may call a route that needs `needed`: each role may do what the roles below it may. */
export const roleAllows = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

/** The routes (`METHOD /path`) a role may call: what the pages show and offer, from this same table. */
export const routesAllowed = (role: Role): string[] =>
  Object.entries(DASHBOARD_ROUTE_ROLES).flatMap(([route, needed]) => (needed !== 'public' && roleAllows(role, needed) ? [route] : []));
