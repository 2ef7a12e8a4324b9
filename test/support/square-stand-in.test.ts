// The Square stand-in answers as Square does: signatures match Square's published vectors, and auth, look-ups,
// paging and faults behave as the connector will meet them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedSquareDelivery, signSquareBody, SquareStandIn, squareEvent, squareOrder, squarePayment, squareRefund } from './square-stand-in.js';

const TOKEN = 'EAAAl-stand-in-token';

async function get(standIn: SquareStandIn, path: string, token = TOKEN) {
  const res = await fetch(standIn.url + path, { headers: { authorization: `Bearer ${token}`, 'square-version': '2025-08-20' } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('signSquareBody', () => {
  // Square's own vectors (square-nodejs-sdk tests/integration/webhooks.test.ts).
  it.each([
    [
      'Ibxx_5AKakO-3qeNVR61Dw',
      'https://webhook.site/679a4f3a-dcfa-49ee-bac5-9d0edad886b9',
      '{"merchant_id":"MLEFBHHSJGVHD","type":"webhooks.test_notification","event_id":"ac3ac95b-f97d-458c-a6e6-18981597e05f","created_at":"2022-07-13T20:30:59.037339943Z","data":{"type":"webhooks","id":"bc368e64-01aa-407e-b46e-3231809b1129"}}',
      'GF4YkrJgGBDZ9NIYbNXBnMzqb2HoL4RW/S6vkZ9/2N4=',
    ],
    ['signature-key', 'https://webhook.site/webhooks', '{"data":{"type":"webhooks","id":"fake_id"}}', 'W3FlCNk5IA3ZQ2LHTWoajvzfaDu/OwY2tNHIHC3IUOA='],
    ['signature-key', 'https://webhook.site/webhooks', '{"data":{"type":"webhooks","id":">id<"}}', 'Cxt7+aTi4rKgcA0bC4g9EHdVtLSDWdqccmL5MvihU4U='],
  ])("matches Square's published vector %#", (key, url, body, expected) => {
    expect(signSquareBody(key, url, body)).toBe(expected);
  });

  it('signs a delivery of a Square event envelope over its exact body', () => {
    const refund = squareRefund({ status: 'PENDING' });
    const delivery = signedSquareDelivery('signature-key', 'https://loyalty.example/square', squareEvent('refund.created', refund, { merchantId: 'MLEFBHHSJGVHD', createdAt: '2026-01-10T12:00:00.000Z' }));
    expect(JSON.parse(delivery.body)).toEqual({
      merchant_id: 'MLEFBHHSJGVHD',
      type: 'refund.created',
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: '2026-01-10T12:00:00.000Z',
      data: { type: 'refund', id: refund.id, object: { refund } },
    });
    expect(refund.id.startsWith(`${refund.payment_id}_`)).toBe(true);
    expect(delivery.headers['x-square-hmacsha256-signature']).toBe(signSquareBody('signature-key', 'https://loyalty.example/square', delivery.body));
  });
});

describe('SquareStandIn', () => {
  let square: SquareStandIn;
  beforeEach(async () => {
    square = await SquareStandIn.start({ accessToken: TOKEN });
  });
  afterEach(() => square.close());

  it("refuses a wrong bearer token with Square's 401 body, and records the request", async () => {
    const res = await get(square, '/v2/payments', 'EAAAl-someone-else');
    expect(res).toEqual({
      status: 401,
      body: { errors: [{ category: 'AUTHENTICATION_ERROR', code: 'UNAUTHORIZED', detail: 'This request could not be authorized.' }] },
    });
    expect(square.requests).toEqual([{ method: 'GET', path: '/v2/payments', query: {}, squareVersion: '2025-08-20' }]);
  });

  it('serves an order back with Square totals, and 404 NOT_FOUND for an unknown one', async () => {
    const payment = square.addPayment(squarePayment({ amount_money: { amount: 900, currency: 'USD' }, tip_money: { amount: 100, currency: 'USD' } }));
    const order = square.addOrder(
      squareOrder({
        id: payment.order_id,
        location_id: payment.location_id,
        state: 'COMPLETED',
        line_items: [
          { name: 'Flat white', quantity: '2', base_price_money: { amount: 350, currency: 'USD' }, total_discount_money: { amount: 100, currency: 'USD' } },
          { name: 'Croissant', quantity: '1', base_price_money: { amount: 300, currency: 'USD' } },
        ],
        tenders: [{ payment_id: payment.id, amount_money: payment.total_money, tip_money: payment.tip_money }],
      }),
    );
    expect(order.line_items[0]).toMatchObject({ gross_sales_money: { amount: 700 }, total_money: { amount: 600 } });
    expect(order).toMatchObject({ total_money: { amount: 1000 }, total_tip_money: { amount: 100 }, total_discount_money: { amount: 100 }, closed_at: order.created_at });
    expect(payment.total_money.amount).toBe(order.total_money.amount);

    expect(await get(square, `/v2/orders/${order.id}`)).toEqual({ status: 200, body: { order: JSON.parse(JSON.stringify(order)) } });
    const missing = await get(square, '/v2/orders/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ errors: [{ category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND' }] });
  });

  it('pages payments with a cursor, newest first, in the main location unless another is asked for', async () => {
    const at = (minute: number) => `2026-01-10T12:0${minute}:00.000Z`;
    const main = [1, 2, 3].map((m) => square.addPayment(squarePayment({ created_at: at(m) })).id);
    const elsewhere = square.addPayment(squarePayment({ created_at: at(4), location_id: 'LH2XR7AMPE0KZ' })).id;
    const window = 'begin_time=2026-01-10T00:00:00Z&end_time=2026-01-11T00:00:00Z';
    const ids = (body: Record<string, unknown>) => (body.payments as { id: string }[]).map((p) => p.id);

    const first = await get(square, `/v2/payments?${window}&limit=2`);
    expect(ids(first.body)).toEqual([main[2], main[1]]);
    expect(first.body.cursor).toEqual(expect.any(String));
    const second = await get(square, `/v2/payments?${window}&limit=2&cursor=${first.body.cursor}`);
    expect(ids(second.body)).toEqual([main[0]]);
    expect(second.body).not.toHaveProperty('cursor');

    expect(ids((await get(square, `/v2/payments?${window}&location_id=LH2XR7AMPE0KZ`)).body)).toEqual([elsewhere]);
    // A page with nothing on it leaves the payments array out, as Square may.
    expect((await get(square, '/v2/payments?location_id=LH2XR7AMPE0KZ&begin_time=2026-02-01T00:00:00Z')).body).toEqual({});
    const otherFilters = await get(square, `/v2/payments?location_id=LH2XR7AMPE0KZ&cursor=${first.body.cursor}`);
    expect(otherFilters).toMatchObject({ status: 400, body: { errors: [{ code: 'INVALID_CURSOR' }] } });
  });

  it('fails the next request with a 500 and then answers again', async () => {
    const payment = square.addPayment(squarePayment());
    square.failNext(1, { status: 500 });
    expect(await get(square, `/v2/payments/${payment.id}`)).toEqual({
      status: 500,
      body: { errors: [{ category: 'API_ERROR', code: 'INTERNAL_SERVER_ERROR', detail: expect.any(String) }] },
    });
    expect(await get(square, `/v2/payments/${payment.id}`)).toEqual({ status: 200, body: { payment } });
  });
});

describe("SquareStandIn's 'timeout' fault", () => {
  it('never answers, and close() still ends promptly', async () => {
    const square = await SquareStandIn.start({ accessToken: TOKEN });
    square.failNext(2, 'timeout');
    const headers = { authorization: `Bearer ${TOKEN}` };
    await expect(fetch(`${square.url}/v2/payments`, { headers, signal: AbortSignal.timeout(200) })).rejects.toMatchObject({ name: 'TimeoutError' });

    const pending = fetch(`${square.url}/v2/payments`, { headers, signal: AbortSignal.timeout(10_000) });
    await vi.waitFor(() => expect(square.requests).toHaveLength(2));
    const started = performance.now();
    await square.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(pending).rejects.toThrow('fetch failed');
  });
});
