// Table orders: the public endpoint's guards, the till's list and reads, and every move of the state graph.
import { describe, expect, it } from 'vitest';
import { NEXT_STATUSES, ORDER_STATUSES, type OrderStatus } from '../../../src/modules/orders/schemas.js';
import { startTestApp, useTestApp, type TestApp } from '../../support/app.js';
import { createKey, createTable, venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp({ config: { publicOrdersPerMinute: 1000 } });

async function venueWithMenu(app: TestApp = t) {
  const { venue, secret } = await venueWithKey(app);
  const till = client(app, secret);
  await till.post('/api/v1/menu/items/bulk', {
    items: [
      { external_id: 'soup', name: 'Tomato soup', category: 'Starters', price: 650 },
      { external_id: 'steak', name: 'Steak', category: 'Mains', price: 2400 },
      { external_id: 'pie', name: 'Apple pie', category: 'Desserts', price: 550, available: false },
    ],
  });
  const table = await createTable(app, venue, 'Table 7');
  const guest = client(app, null);
  const order = (body: Record<string, unknown>) => guest.post(`/api/public/v1/menus/${venue.slug}/orders`, { table_code: table.tableCode, ...body });
  return { venue, till, table, order };
}

describe('public order endpoint', () => {
  it('takes an order at server prices; the till sees it with status new; order.created is raised', async () => {
    const { till, table, order } = await venueWithMenu();
    const res = await order({ items: [{ external_id: 'soup', quantity: 2, note: 'no cream' }, { external_id: 'steak', quantity: 1 }], comment: 'Birthday' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'order',
      table_code: table.tableCode,
      table_name: 'Table 7',
      status: 'new',
      subtotal: 2 * 650 + 2400,
      comment: 'Birthday',
      items: [
        { external_id: 'soup', name: 'Tomato soup', quantity: 2, unit_price: 650, amount: 1300, note: 'no cream' },
        { external_id: 'steak', name: 'Steak', quantity: 1, unit_price: 2400, amount: 2400, note: null },
      ],
    });
    const listed = await till.get('/api/v1/orders?status=new');
    expect(listed.body.data.map((o: { id: string }) => o.id)).toEqual([res.body.id]);
    expect((await till.get(`/api/v1/orders/${res.body.id}`)).body).toEqual(res.body);
    const before = new Date(Date.parse(res.body.created_at) - 1).toISOString();
    expect((await till.get(`/api/v1/orders?created_after=${before}`)).body.data).toHaveLength(1);
    expect((await till.get(`/api/v1/orders?created_after=${encodeURIComponent(res.body.created_at)}`)).body.data).toHaveLength(0);
    const event = (await till.get('/api/v1/events?type=order.created')).body.data[0];
    expect(event).toMatchObject({ type: 'order.created', livemode: true, data: { object: { id: res.body.id, subtotal: 3700 } } });
  });

  it('refuses a tampered price, a dish of another venue, an unknown dish, a stop-listed dish, a bad quantity, an unknown table', async () => {
    const { venue, order } = await venueWithMenu();
    const other = await venueWithMenu();
    await other.till.put('/api/v1/menu/items/lobster', { name: 'Lobster', price: 9900 });
    expect(expectError(await order({ items: [{ external_id: 'steak', quantity: 1, unit_price: 1 }] }), 400, 'parameter_invalid').param).toBe('items[0].unit_price');
    const foreign = expectError(await order({ items: [{ external_id: 'soup', quantity: 1 }, { external_id: 'lobster', quantity: 1 }] }), 400, 'parameter_invalid');
    expect([foreign.param, foreign.message]).toEqual(['items[1].external_id', 'Not on this menu: lobster.']);
    const stopped = expectError(await order({ items: [{ external_id: 'pie', quantity: 1 }] }), 409, 'dish_unavailable');
    expect(stopped.message).toBe('Not available right now: Apple pie (pie).');
    expect(stopped.external_ids).toEqual(['pie']);
    for (const quantity of [0, 51, 1.5]) {
      expect(expectError(await order({ items: [{ external_id: 'soup', quantity }] }), 400, 'parameter_invalid').param).toBe('items[0].quantity');
    }
    expectError(await client(t, null).post(`/api/public/v1/menus/${venue.slug}/orders`, { table_code: 'nope', items: [{ external_id: 'soup', quantity: 1 }] }), 404, 'table_not_found');
    expectError(await client(t, null).post('/api/public/v1/menus/no-such-venue/orders', { table_code: 'x', items: [{ external_id: 'soup', quantity: 1 }] }), 404, 'menu_not_found');
    expect((await other.till.get('/api/v1/orders')).body.data).toEqual([]);
  });

  it('refuses more than the per-address rate', async () => {
    const limited = await startTestApp({ config: { publicOrdersPerMinute: 3 } });
    try {
      const { order } = await venueWithMenu(limited);
      for (let i = 0; i < 3; i++) expect((await order({ items: [{ external_id: 'soup', quantity: 1 }] })).status).toBe(201);
      const res = await order({ items: [{ external_id: 'soup', quantity: 1 }] });
      expect(expectError(res, 429, 'rate_limited', 'rate_limit_error').message).toMatch(/limit is 3 per minute/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});

describe('status moves', () => {
  const allowed = (Object.entries(NEXT_STATUSES) as [OrderStatus, OrderStatus[]][]).flatMap(([from, tos]) => tos.map((to) => [from, to] as const));
  const path: Record<OrderStatus, OrderStatus[]> = {
    new: [],
    accepted: ['accepted'],
    rejected: ['rejected'],
    preparing: ['accepted', 'preparing'],
    ready: ['accepted', 'preparing', 'ready'],
    served: ['accepted', 'preparing', 'ready', 'served'],
    closed: ['accepted', 'preparing', 'ready', 'served', 'closed'],
    cancelled: ['cancelled'],
  };

  async function orderAt(status: OrderStatus) {
    const { till, order } = await venueWithMenu();
    const { body } = await order({ items: [{ external_id: 'soup', quantity: 1 }] });
    for (const step of path[status]) expect((await till.post(`/api/v1/orders/${body.id}/status`, { status: step })).status).toBe(200);
    return { till, id: body.id as string };
  }

  it.each(allowed)('%s → %s is allowed', async (from, to) => {
    const { till, id } = await orderAt(from);
    const res = await till.post(`/api/v1/orders/${id}/status`, { status: to, reason: 'test' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: to, status_reason: 'test' });
  });

  const forbidden: [OrderStatus, OrderStatus][] = [
    ['new', 'preparing'],
    ['new', 'served'],
    ['accepted', 'new'],
    ['preparing', 'accepted'],
    ['ready', 'closed'],
    ['served', 'cancelled'],
    ['closed', 'new'],
    ['rejected', 'accepted'],
    ['cancelled', 'new'],
  ];

  it.each(forbidden)('%s → %s is 409 invalid_status_transition naming both', async (from, to) => {
    const { till, id } = await orderAt(from);
    const e = expectError(await till.post(`/api/v1/orders/${id}/status`, { status: to }), 409, 'invalid_status_transition');
    expect(e.message).toContain(`from ${from} to ${to}`);
    expect([e.status, e.requested_status]).toEqual([from, to]);
    expect((await till.get(`/api/v1/orders/${id}`)).body.status).toBe(from);
  });

  it('a final status is said to be final: "a rejected order is final", not "it can move to nothing"', async () => {
    const { till, id } = await orderAt('rejected');
    const e = expectError(await till.post(`/api/v1/orders/${id}/status`, { status: 'accepted' }), 409, 'invalid_status_transition');
    expect(e.message).toBe('An order cannot move from rejected to accepted: a rejected order is final.');
  });

  it('every status in the graph is known', () => {
    expect(Object.keys(NEXT_STATUSES).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('two concurrent moves of one order do not both win', async () => {
    const { till, id } = await orderAt('new');
    const [a, b] = await Promise.all([
      till.post(`/api/v1/orders/${id}/status`, { status: 'accepted' }),
      till.post(`/api/v1/orders/${id}/status`, { status: 'rejected' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a.body.status : b.body.status;
    expect((await till.get(`/api/v1/orders/${id}`)).body.status).toBe(winner);
  });

  it("another venue's order is 404 order_not_found", async () => {
    const { id } = await orderAt('new');
    const stranger = client(t, (await createKey(t, (await venueWithKey(t)).venue)).secret);
    expectError(await stranger.get(`/api/v1/orders/${id}`), 404, 'order_not_found');
    expectError(await stranger.post(`/api/v1/orders/${id}/status`, { status: 'accepted' }), 404, 'order_not_found');
  });
});
