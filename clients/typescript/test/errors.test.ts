// Typed errors against a real server: each refusal's own fields (refundable, available, max_redeem, a bulk
// upload's errors[]) read back through VenueLoyaltyError, typed by its code (this file compiles only if they are).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VenueLoyalty, VenueLoyaltyError } from '@venue-loyalty/client';
import { cli, dataDirectory, startServer, type Server } from './server.js';

const CARD = '4000777';

/** What the call was refused with. */
const refusedWith = (call: Promise<unknown>): Promise<unknown> => call.then(() => assert.fail('the call succeeded'), (err: unknown) => err);

describe('typed errors from a real server', () => {
  const data = dataDirectory();
  let server: Server;
  let api: VenueLoyalty;

  before(async () => {
    await cli(data.dir, ['venue', 'create', '--name', 'Harbour Bar', '--slug', 'harbour', '--currency', 'EUR']);
    await cli(data.dir, ['program', 'create', '--venue', 'harbour', '--type', 'cashback', '--name', 'Rewards', '--default', '--settings', '{"levels":[{"name":"Bronze","min_spend":0,"percent":10}]}']);
    const output = await cli(data.dir, ['key', 'create', '--venue', 'harbour', '--mode', 'test', '--name', 'Back office']);
    const apiKey = output.match(/sk_test_\S+/)?.[0] ?? assert.fail(`no key in:\n${output}`);
    server = await startServer(data.dir);
    api = new VenueLoyalty({ baseUrl: server.baseUrl, apiKey });
    // 50.00 at 10 % earns 5.00: the member has 500 available.
    await api.post('/v1/members', { body: { card_number: CARD, consent: true } });
    await api.post('/v1/checks', { body: { external_id: 'H-1', card_number: CARD, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 5000 }] } });
  });

  after(async () => {
    await server?.stop();
    data.remove();
  });

  it('a refund above what is left of the check: refund_exceeds_check with refundable', async () => {
    const err = await refusedWith(
      api.post('/v1/transactions/{external_id}/refunds', { params: { path: { external_id: 'H-1' } }, body: { external_id: 'H-1-R1', amount: 6000 } }),
    );
    assert.ok(err instanceof VenueLoyaltyError);
    if (err.code !== 'refund_exceeds_check') assert.fail(`refused with ${err.code}`);
    const refundable: number = err.error.refundable;
    assert.equal(refundable, 5000);
    assert.equal(err.status, 402);
    assert.equal(err.error.type, 'invalid_request_error');
    assert.match(err.error.doc_url, /\/api\/errors#refund_exceeds_check$/);
    assert.equal(err.error.message, err.message);
    assert.equal(err.requestId, err.headers.get('x-request-id'));
  });

  it('a hold above the balance: insufficient_balance with available', async () => {
    const err = await refusedWith(api.post('/v1/holds', { body: { card_number: CARD, amount: 1000 } }));
    assert.ok(err instanceof VenueLoyaltyError);
    if (err.code !== 'insufficient_balance') assert.fail(`refused with ${err.code}`);
    const available: number = err.error.available;
    assert.equal(available, 500);
  });

  it('a redemption above what the check may be paid with: redeem_limit_exceeded with max_redeem', async () => {
    const lineItems = [{ name: 'Espresso', quantity: 1, unit_price: 300 }];
    const quote = await api.post('/v1/checks/calculate', { body: { card_number: CARD, line_items: lineItems } });
    assert.ok(quote.max_redeem < 400, `max_redeem ${quote.max_redeem}`);
    const err = await refusedWith(api.post('/v1/checks/calculate', { body: { card_number: CARD, line_items: lineItems, redeem_amount: 400 } }));
    assert.ok(err instanceof VenueLoyaltyError);
    if (err.code !== 'redeem_limit_exceeded') assert.fail(`refused with ${err.code}`);
    const maxRedeem: number = err.error.max_redeem;
    assert.equal(maxRedeem, quote.max_redeem);
  });

  it('a bulk menu sync with bad items: parameter_invalid with every bad item in errors[]', async () => {
    const err = await refusedWith(
      api.post('/v1/menu/items/bulk', {
        body: {
          items: [
            { external_id: 'SOUP', name: 'Soup', price: 450, available: true },
            { external_id: 'SOUP', name: 'Soup of the day', price: 500, available: true },
            { external_id: 'TEA', name: 'Tea', price: -1, available: true },
          ],
        },
      }),
    );
    assert.ok(err instanceof VenueLoyaltyError);
    if (err.code !== 'parameter_invalid') assert.fail(`refused with ${err.code}`);
    assert.equal(err.param, 'items');
    const errors: Array<{ index: number; param: string; message: string }> = err.error.errors ?? [];
    assert.deepEqual(
      errors.map(({ index, param }) => ({ index, param })),
      [
        { index: 1, param: 'items[1].external_id' },
        { index: 2, param: 'items[2].price' },
      ],
    );
  });

  it('a code without fields of its own carries the common ones only', async () => {
    const err = await refusedWith(api.get('/v1/members/lookup', { params: { query: { card_number: '4999999' } } }));
    assert.ok(err instanceof VenueLoyaltyError);
    if (err.code !== 'member_not_found') assert.fail(`refused with ${err.code}`);
    assert.deepEqual(Object.keys(err.error).sort(), ['code', 'doc_url', 'message', 'type']);
  });
});
