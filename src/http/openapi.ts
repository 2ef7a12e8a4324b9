// OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json, and the reference page at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './context.js';
import { isLegacyPosPath } from './legacy-pos.js';
import { ErrorEnvelope } from './responses.js';

/**
 * The document's tags in the order a till developer reads them: the key's account, finding the guest, the check,
 * then the rest of the venue's integration. Every tag a route uses is listed here (test/http/openapi-client.test.ts).
 */
export const OPENAPI_TAGS = [
  { name: 'Account', description: 'The venue and the register rules of the calling key: what a till reads first.' },
  { name: 'Members', description: 'Guests in the loyalty program: enrol, look up by card, barcode or phone, balance and history.' },
  { name: 'Checks', description: 'Calculate and apply checks; transactions, voids and refunds.' },
  { name: 'Holds', description: 'Reserve cashback before the check is closed, then capture or release it.' },
  { name: 'Visits and scans', description: 'Record visits for stamp programs and resolve scanned codes to members.' },
  { name: 'Catalogue', description: 'Products and categories with their money rules.' },
  { name: 'Menu', description: 'Dishes of the QR menu and the stop list.' },
  { name: 'Orders', description: 'Table orders placed from the QR menu.' },
  { name: 'Public menu', description: 'What the QR menu itself calls, without a key.' },
  { name: 'Webhook endpoints', description: 'Where the venue wants events delivered, and the delivery attempts.' },
  { name: 'Events', description: 'Everything that happened in the venue, as delivered to webhook endpoints.' },
] as const;

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
      tags: OPENAPI_TAGS.map((tag) => ({ ...tag })),
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
