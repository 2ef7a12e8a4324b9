// Runs the generated authentication, scope and tenant tests for every route in src/http/route-scopes.ts.
import { describe } from 'vitest';
import { useTestApp } from '../support/app.js';
import { describeRouteAuth } from '../support/route-auth.js';
import { ROUTE_FIXTURES } from '../support/route-fixtures.js';

const t = useTestApp();

describe('every keyed route', () => describeRouteAuth(t, ROUTE_FIXTURES));
