// Runs the generated authentication, scope and tenant tests for every keyed route in src/http/route-scopes.ts, under
// both prefixes: /api/v1 and the legacy /api/pos/v1.
import { describe } from 'vitest';
import { useTestApp } from '../support/app.js';
import { describeRouteAuth } from '../support/route-auth.js';
import { ROUTE_FIXTURES } from '../support/route-fixtures.js';

// This file sends hundreds of bad keys and places a guest order for every orders fixture, all from one address, on
// purpose; the per-address limits on both have their own tests.
const t = useTestApp({ config: { authFailuresPerMinute: 100_000, publicOrdersPerMinute: 100_000 } });

describe('every keyed route, /api/v1 and /api/pos/v1', () => describeRouteAuth(t, ROUTE_FIXTURES));
