// The README's till (scan → calculate → apply with redemption → refund) run exactly as written against a real
// server, then checked through the API against figures worked out by hand from docs/checks.md; plus pagination
// and webhook verification on the server's own answers and deliveries.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import ts from 'typescript';
import { VenueLoyalty } from '@venue-loyalty/client';
import { cli, dataDirectory, startServer, type Server } from './server.js';

const PACKAGE = path.resolve(import.meta.dirname, '../..');
const CARD = '4000123';

/** The first ```ts block under the README's till heading. */
function tillExample(): string {
  const readme = readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
  const section = readme.split('\n## A till:')[1];
  const block = section?.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('README.md has no ```ts block under "## A till:"');
  return block;
}

/** Type-checks the example against the built package (as an integrator's project would import it) and emits it. */
function compile(source: string): string {
  const dir = path.join(PACKAGE, 'build/readme');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'till.ts');
  writeFileSync(file, source);
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: dir,
    outDir: dir,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diagnostics, [], 'the README example type-checks');
  program.emit();
  return path.join(dir, 'till.js');
}

describe('against a real server', () => {
  const data = dataDirectory();
  let server: Server;
  let receiver: HttpServer;
  let tillKey: string;
  let webhookSecret: string;
  const deliveries: Array<{ body: string; headers: Record<string, string | string[] | undefined> }> = [];
  let till: VenueLoyalty;

  before(async () => {
    await cli(data.dir, ['venue', 'create', '--name', 'Harbour Bar', '--slug', 'harbour', '--currency', 'EUR']);
    await cli(data.dir, ['program', 'create', '--venue', 'harbour', '--type', 'cashback', '--name', 'Rewards', '--default', '--settings', '{"levels":[{"name":"Bronze","min_spend":0,"percent":10}]}']);
    const secretOf = (output: string) => output.match(/sk_test_\S+/)?.[0] ?? assert.fail(`no key in:\n${output}`);
    tillKey = secretOf(await cli(data.dir, ['key', 'create', '--venue', 'harbour', '--mode', 'test', '--name', 'Till 7', '--scopes', 'members:read,members:write,transactions:write']));
    const adminKey = secretOf(await cli(data.dir, ['key', 'create', '--venue', 'harbour', '--mode', 'test', '--name', 'Back office']));

    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        deliveries.push({ body, headers: req.headers });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    server = await startServer(data.dir, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_POLL_INTERVAL: '200ms' });

    const admin = new VenueLoyalty({ baseUrl: server.baseUrl, apiKey: adminKey });
    const endpoint = await admin.post('/v1/webhook_endpoints', {
      body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ['transaction.refunded'] },
    });
    webhookSecret = endpoint.secret ?? assert.fail('the created endpoint has no secret');

    // The guest and their earlier visit: 50.00 at Bronze 10 % earned 5.00 (docs/checks.md, rule 7).
    till = new VenueLoyalty({ baseUrl: server.baseUrl, apiKey: tillKey });
    await till.post('/v1/members', { body: { card_number: CARD, consent: true } });
    const earlier = await till.post('/v1/checks', { body: { external_id: 'T7-000123', card_number: CARD, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 5000 }] } });
    assert.equal(earlier.earned, 500);
  });

  after(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
    data.remove();
  });

  it('runs the README till as written, with the figures worked out by hand', async () => {
    const script = compile(tillExample());
    const { stdout } = await promisify(execFile)(process.execPath, [script], {
      env: { ...process.env, VENUE_LOYALTY_URL: server.baseUrl, VENUE_LOYALTY_KEY: tillKey, CARD },
    });
    // 12.00 + 2 × 3.00 is all payable; the 5.00 available is the smaller limit.
    assert.match(stdout, /^Up to 500 can be paid with cashback$/m);

    // Spread 5.00 over 12.00 and 6.00: floor shares 333 and 166, the left-over cent to the larger remainder
    // (the water): 333 + 167. Earned floor(867 × 10 %) + floor(433 × 10 %) = 86 + 43 = 129. Paid 18.00 − 5.00.
    const check = await till.get('/v1/transactions/{external_id}', { params: { path: { external_id: 'T7-000124' } } });
    assert.equal(check.status, 'completed');
    assert.equal(check.subtotal, 1800);
    assert.equal(check.redeemed, 500);
    assert.equal(check.earned, 129);
    assert.equal(check.paid, 1300);
    // Refund 3.00 of 13.00 paid: floor(129 × 300 / 1300) = 29 taken back, floor(500 × 300 / 1300) = 115 given back.
    assert.equal(check.refunded_amount, 300);
    assert.equal(check.refundable, 1000);
    const member = await till.get('/v1/members/lookup', { params: { query: { card_number: CARD } } });
    assert.equal(member.available, 500 - 500 + 129 - 29 + 115);
  });

  it('pages through the transactions, newest first', async () => {
    const seen: string[] = [];
    for await (const transaction of till.list('/v1/transactions', { params: { query: { limit: 1 } } })) seen.push(transaction.external_id);
    assert.deepEqual(seen, ['T7-000124', 'T7-000123']);
  });

  it('verifies the webhook the server delivered for the refund', async () => {
    const deadline = Date.now() + 20_000;
    while (deliveries.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const delivery = deliveries[0] ?? assert.fail('no webhook delivery arrived');
    const event = till.webhooks.verify(delivery.body, delivery.headers, webhookSecret);
    if (event.type !== 'transaction.refunded') assert.fail(`a ${event.type} event arrived`);
    // Narrowed by its type: the refunded check, as typed by the document's webhooks section.
    assert.equal(event.data.object.external_id, 'T7-000124');
    assert.equal(event.data.object.refunded_amount, 300);
    assert.throws(() => till.webhooks.verify(delivery.body, delivery.headers, `whsec_${Buffer.alloc(32, 1).toString('base64')}`));
  });
});
