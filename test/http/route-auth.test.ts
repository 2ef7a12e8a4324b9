// Runs the generated authentication, scope and tenant tests for every route in src/http/route-scopes.ts.
import { describe } from 'vitest';
import { useTestApp } from '../support/app.js';
import { describeRouteAuth } from '../support/route-auth.js';
import { ROUTE_FIXTURES } from '../support/route-fixtures.js';

// This file sends hundreds of bad keys on purpose; the per-address limit on them has its own test.
const t = useTestApp({ config: { authFailuresPerMinute: 100_000 } });

describe('every keyed route', () => describeRouteAuth(t, ROUTE_FIXTURES));
