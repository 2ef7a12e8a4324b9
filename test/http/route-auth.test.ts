// Runs the generated authentication, scope and tenant tests for every route in src/http/route-scopes.ts.
import { describe } from 'vitest';
import { useTestApp } from '../support/app.js';
import { describeRouteAuth } from '../support/route-auth.js';
import { ROUTE_FIXTURES } from '../support/route-fixtures.js';

// This file sends hundreds of bad keys and places a guest order for every orders fixture, all from one address, on
// purpose; the per-address limits on both have their own tests.
const t = useTestApp({ config: { authFailuresPerMinute: 100_000, publicOrdersPerMinute: 100_000 } });

describe('every keyed route', () => describeRouteAuth(t, ROUTE_FIXTURES));
