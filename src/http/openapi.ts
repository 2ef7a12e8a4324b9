// OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json, and the reference page at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from 'typebox';
import { EVENT_OBJECTS } from './event-objects.js';
import { EVENT_TYPES, Event } from '../modules/webhooks/schemas.js';
import { ApiError, ERROR_CODES, type ApiErrorOptions, type ErrorCode } from '../shared/errors.js';
import type { App } from './context.js';
import { isLegacyPosPath } from './route-scopes.js';
import { pascal, shownSchemaOf, TypedErrorEnvelope } from './responses.js';
import { ROUTE_SCOPES } from './route-scopes.js';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error codes this route answers besides the ones every route of its kind can (see errorCodesOf): the
     * document lists each one under its status, with an example body.
     */
    errors?: readonly ErrorCode[];
    /**
     * The body of a route that reads it itself, as a stream (a member import's file), by media type: the document
     * shows it as the request body, and validation, which has no parsed body to check, never sees it.
     */
    streamedBody?: Record<string, TSchema>;
  }
}

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
  { name: 'Campaigns', description: "The chain's campaigns: bonuses on a schedule, welcome, birthday and referral credits, with budgets." },
  { name: 'Menu', description: 'Dishes of the QR menu and the stop list.' },
  { name: 'Orders', description: 'Table orders placed from the QR menu.' },
  { name: 'Public menu', description: 'What the QR menu itself calls, without a key.' },
  { name: 'Webhook endpoints', description: 'Where the venue wants events delivered, and the delivery attempts.' },
  { name: 'Events', description: 'Everything that happened in the venue, as delivered to webhook endpoints.' },
  { name: 'Point of sale', description: "Connections to the tills' providers (Square, Toast): what they applied, and their log." },
  { name: 'Reports', description: "Figures over the chain's venues for a period: the venue liability report." },
  { name: 'Audit', description: 'The audit log: who changed what in the chain, from the dashboard, the API or the CLI.' },
] as const;

const COMPONENTS = '#/components/schemas/';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The codes a route can answer: what its kind of route can (input, key, scope, idempotency, rate limit, outage)
 * and the route's own `errors`.
 */
function errorCodesOf(method: string, url: string, schema: { body?: unknown; querystring?: unknown; errors?: readonly ErrorCode[] }): ErrorCode[] {
  const scopes = (ROUTE_SCOPES as Record<string, readonly string[] | 'public' | undefined>)[`${method} ${url}`];
  const keyed = scopes !== undefined && scopes !== 'public';
  const codes: ErrorCode[] = [
    ...(schema.body || schema.querystring ? (['parameter_invalid'] as const) : []),
    ...(schema.body ? (['request_body_too_large', 'unsupported_content_type'] as const) : []),
    ...(keyed ? (['api_key_missing', 'api_key_invalid', 'api_key_revoked'] as const) : []),
    ...(keyed && scopes.length > 0 ? (['missing_scope'] as const) : []),
    ...(keyed && MUTATING.has(method) ? (['idempotency_key_reused', 'idempotency_key_in_use'] as const) : []),
    ...(schema.errors ?? []),
    'rate_limited',
    'internal_error',
    'service_unavailable',
  ];
  return [...new Set(codes)];
}

/** What the example bodies add to a code's default message: the param and fields a real answer carries. */
const EXAMPLE_DETAILS: Partial<Record<ErrorCode, ApiErrorOptions>> = {
  parameter_invalid: { param: 'line_items[0].unit_price', message: 'line_items[0].unit_price must be an integer.' },
  register_id_required: { param: 'register_id' },
  check_too_old: { param: 'closed_at' },
  hold_required: { param: 'redeem_amount' },
  insufficient_balance: { param: 'redeem_amount', message: 'redeem_amount 1500 is more than the 740 available.', details: { available: 740 } },
  redeem_limit_exceeded: { param: 'redeem_amount', message: 'This check can be paid with at most 1240 of cashback.', details: { max_redeem: 1240 } },
  refund_exceeds_check: { param: 'amount', message: 'Only 1000 of this check can still be refunded.', details: { refundable: 1000 } },
  card_number_taken: { param: 'card_number' },
  external_id_reused: { param: 'external_id' },
  table_not_found: { param: 'table_code' },
  dish_unavailable: { message: 'Not available right now: Tiramisu.', details: { external_ids: ['DESSERT-2'] } },
  invalid_status_transition: {
    param: 'status',
    message: 'An order cannot move from served to preparing; from served it can move to closed.',
    details: { status: 'served', requested_status: 'preparing' },
  },
  idempotency_key_reused: { param: 'Idempotency-Key' },
  idempotency_key_in_use: { param: 'Idempotency-Key' },
};

/** The document's error responses of one route: each status it can answer, with one example body per code. */
function errorResponses(codes: ErrorCode[], baseUrl: string): Record<string, object> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  const responses: Record<string, object> = {};
  for (const [status, inStatus] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      ...TypedErrorEnvelope,
      'x-response-description': inStatus.join(', '),
      'x-examples': Object.fromEntries(
        inStatus.map((code) => [
          code,
          {
            summary: ERROR_CODES[code].message,
            value: { error: new ApiError(code, EXAMPLE_DETAILS[code]).toBody(baseUrl), request_id: 'req_5f0c8a1e9b3d4c2a8e6f7a1b2c3d4e5f' },
          },
        ]),
      ),
    };
  }
  return responses;
}

/** A streamed body (see FastifySchema.streamedBody) as @fastify/swagger reads a body declared per media type. */
function withStreamedBody<T extends { streamedBody?: Record<string, TSchema> }>({ streamedBody, ...schema }: T) {
  if (!streamedBody) return schema;
  return { ...schema, body: { content: Object.fromEntries(Object.entries(streamedBody).map(([type, body]) => [type, { schema: body }])) } };
}

/** A route schema as the document shows it: the shownAs schemas in place of the loosely checked ones. */
function shown<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null) return schema;
  const replacement = shownSchemaOf(schema);
  if (replacement) return shown(replacement as T);
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(schema)) {
    const next = shown(value);
    if (next !== value) (copy ??= (Array.isArray(schema) ? [...schema] : { ...schema }) as Record<string, unknown>)[key] = next;
  }
  return (copy ?? schema) as T;
}

const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A titled schema without what documents one use of it (its example), to compare two uses. */
function definitionOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { example: _example, examples: _examples, ...definition } = schema;
  return definition;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Moves every schema with a `title` to components/schemas under that title and refers to it by $ref: one named
 * component per schema declared with `{ title }` in a module's schemas.ts. Two different schemas with one title
 * fail the document rather than one silently replacing the other.
 */
function nameComponents(document: Record<string, any>): void {
  const components: Record<string, Record<string, unknown>> = {};
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const walked: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) walked[key] = key === 'example' || key === 'examples' ? value : visit(value);
    const title = walked.title;
    if (typeof title !== 'string' || walked.$ref !== undefined) return walked;
    const definition = definitionOf(walked);
    const known = components[title];
    if (!known) components[title] = walked;
    else if (!sameJson(definitionOf(known), definition)) throw new Error(`OpenAPI: two different schemas are titled ${title}; give one another title`);
    return { $ref: `${COMPONENTS}${title}` };
  };
  document.paths = visit(document.paths);
  document.webhooks = visit(document.webhooks);
  // An event object no route answers with (member.level_changed's) is named from its own schema.
  for (const schema of Object.values(EVENT_OBJECTS).flat()) if (!components[(schema as { title: string }).title]) visit(schema);
  // Schemas added with app.addSchema are listed by @fastify/swagger under their $id (see refResolver below).
  const shared = (document.components.schemas ?? {}) as Record<string, unknown>;
  const clash = Object.keys(components).find((name) => Object.hasOwn(shared, name));
  if (clash) throw new Error(`OpenAPI: ${clash} is both a shared schema's $id and a title; keep one`);
  document.components.schemas = { ...shared, ...components };
}

/**
 * The 3.1 `webhooks` section: one entry per event type, its body the Event with `type` fixed and `data.object`
 * the API objects that type carries (EVENT_OBJECTS), each a named component.
 */
function webhooksSection(): Record<string, object> {
  const titleOf = (schema: TSchema) => {
    const { title } = schema as { title?: unknown };
    if (typeof title !== 'string') throw new Error('OpenAPI: an event object schema has no title');
    return title;
  };
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const objects: object[] = EVENT_OBJECTS[type].map((schema) => ({ $ref: `${COMPONENTS}${titleOf(schema)}` }));
      const body = {
        title: `${pascal(type)}Event`,
        allOf: [
          { $ref: `${COMPONENTS}${titleOf(Event)}` },
          {
            type: 'object',
            required: ['type', 'data'],
            properties: {
              // With its type: generators that read `const` only beside one (Python's) would drop the whole event.
              type: { type: 'string', const: type },
              data: { type: 'object', required: ['object'], properties: { object: objects.length > 1 ? { anyOf: objects } : (objects[0] ?? { type: 'object' }) } },
            },
          },
        ],
      };
      return [
        type,
        {
          post: {
            operationId: `receive${pascal(type)}Event`,
            tags: ['Events'],
            summary: `${type}: sent to every endpoint subscribed to it (Standard Webhooks signature headers)`,
            requestBody: { required: true, content: { 'application/json': { schema: body } } },
            responses: { '2XX': { description: 'Received. Any other answer, or none within the timeout, is retried.' } },
          },
        },
      ];
    }),
  );
}

/** The project's licence, as every OpenAPI document of ours states it (LICENSE, package.json). */
export const OPENAPI_LICENSE = { name: 'MIT', identifier: 'MIT' };

export async function registerOpenApi(app: App): Promise<void> {
  const baseUrl = app.deps.config.publicBaseUrl;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Venue Loyalty API',
        version: '1',
        license: OPENAPI_LICENSE,
        description:
          'Loyalty and ordering back end for venues. Amounts are integers in minor units of the venue currency. ' +
          'Errors use one envelope; each operation lists the codes it can answer, and /api/errors explains every code.',
      },
      servers: [{ url: `${baseUrl}/api` }],
      tags: OPENAPI_TAGS.map((tag) => ({ ...tag })),
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_…' } } },
      security: [{ apiKey: [] }],
    },
    hideUntagged: true,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // Paths in the document are relative to the server URL, which ends in /api. The legacy POS routes have their
    // own document (src/integrations/legacy-pos/routes.ts), so each operation is described once here.
    transform: ({ schema, url, route }) => {
      if (isLegacyPosPath(url)) return { schema: { ...schema, hide: true }, url };
      const documented = url.replace(/^\/api(?=\/v1\/)/, '');
      if (!schema?.tags?.length) return { schema, url: documented };
      const withBody = withStreamedBody(schema);
      const codes = errorCodesOf([route.method].flat()[0]!, url.replace(/^\/api(?=\/)/, ''), withBody);
      return { schema: shown({ ...withBody, response: { ...errorResponses(codes, baseUrl), ...(schema.response as object) } }), url: documented };
    },
    transformObject: (documentObject) => {
      const document = { ...(documentObject as { openapiObject: object }).openapiObject, webhooks: webhooksSection() } as Record<string, any>;
      nameComponents(document);
      return document;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
