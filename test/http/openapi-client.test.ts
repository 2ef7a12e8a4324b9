// The public document is good enough to generate a client from (issue 12): every operation has a unique operationId,
// every tag is declared in the reading order, and a till script written against types that openapi-typescript
// generates from the served document, used through openapi-fetch, type-checks with no diagnostics.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { OPENAPI_TAGS } from '../../src/http/openapi.js';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';

const t = useTestApp();
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of a document's paths, as `METHOD /path` with the operation object. */
function operationsOf(document: { paths?: Record<string, Record<string, any>> }): Array<[string, any]> {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m): [string, any] => [`${m.toUpperCase()} ${path}`, item[m]]),
  );
}

function expectUniqueOperationIds(document: { paths?: Record<string, Record<string, any>> }): string[] {
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThan(0);
  const missing = operations.filter(([, op]) => typeof op.operationId !== 'string' || op.operationId === '').map(([route]) => route);
  expect(missing, 'operations without an operationId').toEqual([]);
  const ids = operations.map(([, op]) => op.operationId as string);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  expect(repeated, 'operationIds used more than once').toEqual([]);
  for (const id of ids) expect(id, 'operationIds are camelCase').toMatch(/^[a-z][a-zA-Z0-9]*$/);
  return ids;
}

const TILL_SCRIPT = `// A till: look the guest up, show what the check would earn and redeem, apply it.
import createClient from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './api.js';

type ApplyCheckBody = operations['applyCheck']['requestBody'] extends { content: { 'application/json': infer B } } ? B : never;
type Transaction = components['schemas']['Transaction'];
type Member = components['schemas']['Member'];
type ErrorCode = components['schemas']['Error']['error']['code'];
// The named component and the operation's answer are one type.
const sameTransaction: Transaction = {} as operations['applyCheck']['responses'][201]['content']['application/json'];
void sameTransaction;

const api = createClient<paths>({ baseUrl: 'http://localhost:3000/api', headers: { authorization: 'Bearer sk_test_example' } });

export async function closeCheck(cardNumber: string, externalId: string): Promise<Transaction> {
  const lookup = await api.GET('/v1/members/lookup', { params: { query: { card_number: cardNumber } } });
  if (lookup.error) throw new Error(\`\${lookup.error.error.code}: \${lookup.error.error.message} (\${lookup.error.request_id})\`);
  const member: Member = lookup.data;
  const memberId: string = member.id;
  // null for programs without cashback (stamps).
  const balance: number = member.available ?? 0;

  const lineItems: ApplyCheckBody['line_items'] = [
    { sku: 'PASTA-1', name: 'Carbonara', quantity: 1, unit_price: 900 },
    { name: 'House wine', category: 'alcohol', quantity: 1, unit_price: 600 },
  ];
  const calculation = await api.POST('/v1/checks/calculate', {
    body: { member_id: memberId, line_items: lineItems, redeem_amount: balance },
  });
  if (calculation.error) throw new Error(calculation.error.error.code);
  const redeem: number = Math.min(calculation.data.max_redeem, balance);
  const display: unknown = calculation.data.display;
  void display;

  const body: ApplyCheckBody = {
    external_id: externalId,
    member_id: memberId,
    line_items: lineItems,
    redeem_amount: redeem,
    register_id: 'till-7',
  };
  const applied = await api.POST('/v1/checks', { body, headers: { 'Idempotency-Key': externalId } });
  if (applied.error) {
    const code: ErrorCode = applied.error.error.code;
    // The balance moved between calculate and apply: apply without the redemption.
    if (applied.error.error.code === 'insufficient_balance') return closeCheck(cardNumber, \`\${externalId}-no-redeem\`);
    throw new Error(\`\${code} \${applied.error.error.param ?? ''} \${applied.error.request_id}\`);
  }
  const transaction: Transaction = applied.data;
  const earned: number = transaction.earned;
  const redeemed: number = transaction.redeemed;
  void earned;
  void redeemed;
  return transaction;
}

/** A webhook receiver: each event type's body is typed, data.object included. */
export function onTransactionCompleted(event: webhooks['transaction.completed']['post']['requestBody']['content']['application/json']): number {
  const type: 'transaction.completed' = event.type;
  void type;
  const object = event.data.object;
  return object.object === 'transaction' ? object.earned : object.stamps_earned;
}

export function settingsOf(account: components['schemas']['Account']): number {
  let levels = 0;
  for (const program of account.programs) if ('levels' in program.settings) levels += program.settings.levels.length;
  return levels;
}
`;

/** Mistakes the generated types must refuse: if the types were loose, each @ts-expect-error would itself be an error. */
const MISTAKES = `import createClient from 'openapi-fetch';
import type { components, operations, paths } from './api.js';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000/api' });

export async function mistakes(): Promise<void> {
  // @ts-expect-error: line_items is required
  await api.POST('/v1/checks', { body: { external_id: 'T7-1' } });
  // @ts-expect-error: unit_price is an integer number of minor units, not a string
  await api.POST('/v1/checks/calculate', { body: { line_items: [{ name: 'Tea', quantity: 1, unit_price: '2.50' }] } });
  // @ts-expect-error: not a query parameter of the look-up
  await api.GET('/v1/members/lookup', { params: { query: { card: '4000123' } } });
  // @ts-expect-error: no such path
  await api.GET('/v1/no-such-path');
  const applied = await api.POST('/v1/checks', { body: { external_id: 'T7-1', line_items: [{ name: 'Tea', quantity: 1, unit_price: 250 }] } });
  // @ts-expect-error: not an error code of the API
  if (applied.error?.error.code === 'not_enough_money') return;
}

// @ts-expect-error: no such component
export type NoSuchSchema = components['schemas']['def-0'];

// @ts-expect-error: no such operation
export type NoSuchOperation = operations['noSuchOperation'];
`;

describe('OpenAPI for client generators', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('every operation has a unique camelCase operationId, in both documents', async () => {
    const current = (await client(t, null).get('/api/v1/openapi.json')).body;
    const ids = expectUniqueOperationIds(current);
    for (const id of ['getAccount', 'lookupMember', 'getMember', 'listMembers', 'calculateCheck', 'applyCheck', 'createHold', 'captureHold', 'voidTransaction', 'refundTransaction']) {
      expect(ids).toContain(id);
    }
    // The legacy document is derived from the current one: the same operations keep the same ids.
    const legacy = (await client(t, null).get('/api/pos/v1/openapi.json')).body;
    const legacyIds = expectUniqueOperationIds(legacy);
    for (const id of legacyIds) expect(ids).toContain(id);
  });

  it('declares every tag an operation uses, in the order a till developer reads them', async () => {
    const current = (await client(t, null).get('/api/v1/openapi.json')).body;
    const declared = (current.tags as Array<{ name: string }>).map((tag) => tag.name);
    expect(declared).toEqual(OPENAPI_TAGS.map((tag) => tag.name));
    expect(declared.slice(0, 5)).toEqual(['Account', 'Members', 'Checks', 'Holds', 'Visits and scans']);
    const used = new Set(operationsOf(current).flatMap(([, op]) => op.tags as string[]));
    expect([...used].filter((tag) => !declared.includes(tag)), 'tags used but not declared').toEqual([]);
    expect(declared.filter((tag) => !used.has(tag)), 'tags declared but unused').toEqual([]);
    const legacy = (await client(t, null).get('/api/pos/v1/openapi.json')).body;
    const legacyTags = (legacy.tags as Array<{ name: string }>).map((tag) => tag.name);
    expect(legacyTags).toEqual(declared.filter((tag) => legacyTags.includes(tag)));
  });

  it('generates types with openapi-typescript that a till script using openapi-fetch type-checks against', async () => {
    const document = (await client(t, null).get('/api/v1/openapi.json')).body;
    const types = astToString(await openapiTS(document));
    expect(types).toContain('applyCheck:');
    for (const name of ['Member', 'Transaction', 'CheckCalculation', 'Hold', 'Scan', 'Visit', 'Dish', 'Order', 'Category', 'Product', 'WebhookEndpoint', 'Event', 'Account', 'Error']) {
      expect(types, `components['schemas']['${name}']`).toMatch(new RegExp(`\\n\\s+${name}: \\{`));
    }

    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    dirs.push(dir);
    // The generated client resolves openapi-fetch as an integrator's project would: from its own node_modules.
    symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(dir, 'node_modules'), 'dir');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'till', private: true, type: 'module' }));
    writeFileSync(join(dir, 'src', 'api.ts'), types);
    writeFileSync(join(dir, 'src', 'till.ts'), TILL_SCRIPT);
    writeFileSync(join(dir, 'src', 'mistakes.ts'), MISTAKES);

    const program = ts.createProgram({
      rootNames: ['api.ts', 'till.ts', 'mistakes.ts'].map((file) => join(dir, 'src', file)),
      options: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noUnusedLocals: true,
        skipLibCheck: true,
        noEmit: true,
        types: [],
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      },
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const file = d.file ? d.file.fileName.slice(dir.length + 1) : '';
      return `${file}${where ? `:${where.line + 1}:${where.character + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
