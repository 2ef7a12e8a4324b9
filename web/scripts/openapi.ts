// Prints the dashboard API's OpenAPI document, built from the route schemas without a database (for the SPA's types).
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { AppDeps } from '../../src/http/context.js';

const app = await buildApp({ config: loadConfig({ API_KEY_PEPPER: 'x'.repeat(32) }) } as AppDeps);
const res = await app.inject({ method: 'GET', url: '/dashboard/api/openapi.json' });
if (res.statusCode !== 200) throw new Error(`GET /dashboard/api/openapi.json answered ${res.statusCode}: ${res.body}`);
process.stdout.write(JSON.stringify(res.json(), null, 2) + '\n');
await app.close();
