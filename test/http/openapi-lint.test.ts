// Both OpenAPI documents (/api/v1 and the legacy /api/pos/v1) pass Redocly's and Spectral's recommended rules with no
// error and no warning but the ones listed here, each kept on purpose; and every `const` says its type.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';

const t = useTestApp();

const DOCUMENTS = ['/api/v1/openapi.json', '/api/pos/v1/openapi.json'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Operations that had a summary and no description when the linters came in: Spectral's `operation-description` warns
 * about each. A new operation is not listed, so it fails until it has a description; one given a description leaves
 * the list (the test then fails until it does).
 */
const WITHOUT_DESCRIPTION = new Set([
  'get /v1/account',
  'post /v1/webhook_endpoints',
  'get /v1/webhook_endpoints',
  'get /v1/webhook_endpoints/{id}',
  'patch /v1/webhook_endpoints/{id}',
  'delete /v1/webhook_endpoints/{id}',
  'get /v1/webhook_endpoints/{id}/deliveries',
  'get /v1/events',
  'get /v1/events/{id}',
  'get /v1/menu/items',
  'get /v1/menu/items/{external_id}',
  'put /v1/menu/items/{external_id}',
  'patch /v1/menu/items/{external_id}',
  'delete /v1/menu/items/{external_id}',
  'get /v1/orders',
  'get /v1/orders/{id}',
  'get /v1/catalog/products',
  'get /v1/catalog/products/{sku}',
  'put /v1/catalog/products/{sku}',
  'delete /v1/catalog/products/{sku}',
  'get /v1/catalog/categories',
  'get /v1/campaigns',
  'get /v1/campaigns/{id}',
  'patch /v1/campaigns/{id}',
  'get /v1/transactions',
  'get /v1/transactions/{external_id}',
  'post /v1/transactions/{external_id}/refunds',
  'post /v1/holds',
  'get /v1/holds/{id}',
  'post /v1/holds/{id}/release',
  'post /v1/scans',
  'get /v1/audit_events',
  'get /v1/integrations',
  'get /v1/integrations/{id}',
  'patch /v1/integrations/{id}',
  'delete /v1/integrations/{id}',
  'get /v1/integrations/{id}/log',
  'post /v1/integrations/{id}/log/{entry_id}/retry',
]);

/**
 * The warnings a document may have, as `rule where`, each for a reason:
 * - the server is http://localhost:3000 in the tests and in the committed copy (scripts/export-openapi.ts); a
 *   deployment's document names its PUBLIC_BASE_URL;
 * - `/v1/members/{id}/cards` and `/v1/members/imports/{id}` are the contract's paths: no member id is `imports`;
 * - a self-hosted service has no contact the code could name: its operator is the contact;
 * - the operations of WITHOUT_DESCRIPTION.
 */
function acceptedWarnings(document: { paths: Record<string, Record<string, unknown>> }) {
  const undescribed = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] && WITHOUT_DESCRIPTION.has(`${method} ${path}`)).map((method) => `operation-description paths ${path} ${method}`),
  );
  return {
    redocly: ['no-server-example.com #/servers/0/url', ...(document.paths['/v1/members/imports/{id}'] ? ['no-ambiguous-paths #/paths/~1v1~1members~1imports~1{id}'] : [])],
    spectral: ['info-contact info', ...undescribed].sort(),
  };
}

const documentAt = async (url: string) => (await client(t, null).get(url)).body;

describe.each(DOCUMENTS)('the OpenAPI document at %s', (url) => {
  it("passes Redocly's recommended rules: no error, no warning but the accepted ones", async () => {
    const document = await documentAt(url);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: url, config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`)).toEqual(acceptedWarnings(document).redocly);
  }, 60_000);

  it("passes Spectral's recommended OpenAPI rules (spectral:oas): no error, no warning but the accepted ones", async () => {
    const document = await documentAt(url);
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(JSON.stringify(document));
    // Severity 0 is an error; 1 a warning, 2 information, 3 a hint: none of those either, but the accepted ones.
    expect(results.filter((r) => r.severity === 0).map((r) => `${r.code} ${r.path.join(' ')}: ${r.message}`)).toEqual([]);
    expect(results.map((r) => `${r.code} ${r.path.join(' ')}`).sort()).toEqual(acceptedWarnings(document).spectral);
  }, 60_000);

  it('gives every const its type (generators such as Python clients drop a schema whose const has none)', async () => {
    const untyped: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        if ('const' in node && !('type' in node)) untyped.push(at);
        // Examples are values, not schemas: a field named const there is data.
        for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') visit(value, `${at}/${key}`);
      }
    };
    visit(await documentAt(url), '#');
    expect(untyped).toEqual([]);
  });
});
