// The one table of which scopes each /api/v1 route needs (any one of them); [] means any valid key, 'public' no key.
import type { Scope } from '../modules/accounts/schemas.js';

export const ROUTE_SCOPES: Record<string, Scope[] | 'public'> = {
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
  'GET /v1/members/:id/barcode.svg': ['members:read'],
  'POST /v1/members/:id/adjustments': ['members:adjust'],
  'POST /v1/members/:id/rewards/redeem': ['transactions:write', 'devices:write'],
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
};

/** The table's key for a route registered under the /api prefix, or undefined for routes outside /api/v1. */
export function routeKey(method: string, url: string): string | undefined {
  return url.startsWith('/api/v1/') ? `${method} ${url.slice('/api'.length)}` : undefined;
}

/** A key without scopes has full access; otherwise it needs one of the route's scopes. */
export function allows(keyScopes: readonly Scope[], needed: readonly Scope[]): boolean {
  return keyScopes.length === 0 || needed.length === 0 || needed.some((s) => keyScopes.includes(s));
}
