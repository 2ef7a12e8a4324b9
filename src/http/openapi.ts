// OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json, and the reference page at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './context.js';
import { isLegacyPosPath } from './legacy-pos.js';
import { ErrorEnvelope } from './responses.js';

export async function registerOpenApi(app: App): Promise<void> {
  app.addSchema(ErrorEnvelope);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Venue Loyalty API',
        version: '1',
        description:
          'Loyalty and ordering back end for venues. Amounts are integers in minor units of the venue currency. ' +
          'Errors use one envelope; see /api/errors for every code.',
      },
      servers: [{ url: `${app.deps.config.publicBaseUrl}/api` }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_…' } } },
      security: [{ apiKey: [] }],
    },
    hideUntagged: true,
    // Paths in the document are relative to the server URL, which ends in /api. The legacy POS routes have their
    // own document (src/http/legacy-pos.ts), so each operation is described once here.
    transform: ({ schema, url }) =>
      isLegacyPosPath(url) ? { schema: { ...schema, hide: true }, url } : { schema, url: url.replace(/^\/api(?=\/v1\/)/, '') },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
