// Dishes and catalogue products in the dashboard (D25): added, changed, priced many at once (all or none) and removed
// by a manager under the modules' own rules, each change in the audit log with its fields before and after; the till's
// menu and catalogue see them.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { useTestApp } from '../support/app.js';
import { createKey } from '../support/factories.js';
import { client } from '../support/http.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner } from './support.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });

async function venueWithManager(name: string) {
  const { venue: v } = await signedUpOwner(t, name);
  const venue = (await accounts.findVenue(t.db, v.id))!;
  const as = async (role: 'manager' | 'staff') => {
    const email = newEmail();
    await accounts.createOwner(t.db, { chainId: venue.chainId, venueId: venue.id, email, password: PASSWORD, role });
    const c = dashboardClient(t);
    expect((await c.post('/dashboard/api/session', { email, password: PASSWORD })).status).toBe(200);
    return c;
  };
  const till = client(t, (await createKey(t, venue)).secret);
  return { venue, manager: await as('manager'), staff: await as('staff'), till };
}

async function dishLog(chainId: string) {
  const { rows } = await sql<{ action: string; target_id: string; changes: unknown }>`select action, target_id, changes from audit_events
    where chain_id = ${chainId} and (action like 'dish.%' or action like 'product.%') order by id`.execute(t.db);
  return rows.map((r) => [r.action, r.target_id, typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes]);
}

describe('dishes in the dashboard', () => {
  it('a manager adds, changes and removes a dish; each change recorded; the till reads the new price', async () => {
    const { venue, manager, till } = await venueWithManager('Dish Bistro');
    const added = await manager.put('/dashboard/api/dishes/FLAT-WHITE', { name: 'Flat white', category: 'Coffee', price: 350 });
    expect([added.status, added.body.price]).toEqual([201, 350]);
    const changed = await manager.patch('/dashboard/api/dishes/FLAT-WHITE', { price: 1250, description: 'Double shot' });
    expect([changed.status, changed.body.price]).toEqual([200, 1250]);
    expect((await till.get('/api/v1/menu/items/FLAT-WHITE')).body.price).toBe(1250);
    expect((await manager.patch('/dashboard/api/dishes/FLAT-WHITE', { available: false })).body.available).toBe(false);
    // The menu's own rules and errors, as the API has them.
    const negative = await manager.patch('/dashboard/api/dishes/FLAT-WHITE', { price: -1 });
    expect([negative.status, negative.body.error.code, negative.body.error.param]).toEqual([400, 'parameter_invalid', 'price']);
    expect((await manager.patch('/dashboard/api/dishes/NOPE', { price: 1 })).body.error.code).toBe('dish_not_found');
    expect((await manager.delete('/dashboard/api/dishes/FLAT-WHITE')).body).toEqual({ object: 'dish', external_id: 'FLAT-WHITE', deleted: true });
    expect((await till.get('/api/v1/menu/items/FLAT-WHITE')).status).toBe(404);
    expect(await dishLog(venue.chainId)).toEqual([
      ['dish.created', 'FLAT-WHITE', { name: [null, 'Flat white'], category: [null, 'Coffee'], price: [null, 350], available: [null, true] }],
      ['dish.updated', 'FLAT-WHITE', { description: [null, 'Double shot'], price: [350, 1250] }],
      ['dish.updated', 'FLAT-WHITE', { available: [true, false] }],
      ['dish.deleted', 'FLAT-WHITE', { name: ['Flat white', null], description: ['Double shot', null], category: ['Coffee', null], price: [1250, null], available: [false, null] }],
    ]);
  });

  it('many prices at once: all or none; an unknown dish or a bad price is named and nothing changes', async () => {
    const { venue, manager, staff, till } = await venueWithManager('Prices Bistro');
    for (const [sku, price] of [['A', 100], ['B', 200], ['C', 300]] as const) await till.put(`/api/v1/menu/items/${sku}`, { name: `Dish ${sku}`, price });
    const unknown = await manager.post('/dashboard/api/dishes/prices', { items: [{ external_id: 'A', price: 150 }, { external_id: 'ZZ', price: 1 }] });
    expect([unknown.status, unknown.body.error.code, unknown.body.error.param]).toEqual([404, 'dish_not_found', 'items[1].external_id']);
    const bad = await manager.post('/dashboard/api/dishes/prices', { items: [{ external_id: 'A', price: 150 }, { external_id: 'B', price: 2.5 }, { external_id: 'C', price: -3 }] });
    expect([bad.status, bad.body.error.errors.map((e: { param: string }) => e.param)]).toEqual([400, ['items[1].price', 'items[2].price']]);
    expect((await till.get('/api/v1/menu/items/A')).body.price).toBe(100);
    const refused = await staff.post('/dashboard/api/dishes/prices', { items: [{ external_id: 'A', price: 150 }] });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'role_forbidden']);

    const saved = await manager.post('/dashboard/api/dishes/prices', { items: [{ external_id: 'A', price: 150 }, { external_id: 'B', price: 200 }, { external_id: 'C', price: 325 }] });
    expect([saved.status, saved.body.changed, saved.body.data.map((d: { external_id: string; price: number }) => [d.external_id, d.price])]).toEqual([200, 2, [['A', 150], ['C', 325]]]);
    const menu = (await till.get('/api/v1/menu/items')).body.data.map((d: { external_id: string; price: number }) => [d.external_id, d.price]).sort();
    expect(menu).toEqual([['A', 150], ['B', 200], ['C', 325]]);
    // B's price was sent again unchanged: no entry for it.
    expect(await dishLog(venue.chainId)).toEqual([
      ['dish.updated', 'A', { price: [100, 150] }],
      ['dish.updated', 'C', { price: [300, 325] }],
    ]);
  });

  it("a manager adds, changes and removes a catalogue product (the chain's); each change recorded; staff may not", async () => {
    const { venue, manager, staff, till } = await venueWithManager('Products Bistro');
    const added = await manager.put('/dashboard/api/products/SCONE', { name: 'Scone', category: 'bakery', price: 350 });
    expect([added.status, added.body.category]).toEqual([201, 'bakery']);
    expect((await manager.put('/dashboard/api/products/SCONE', { name: 'Fruit scone', category: 'bakery', price: 375 })).status).toBe(200);
    expect((await till.get('/api/v1/catalog/products/SCONE')).body).toMatchObject({ name: 'Fruit scone', price: 375 });
    expect((await manager.get('/dashboard/api/products')).body.data.map((p: { sku: string }) => p.sku)).toEqual(['SCONE']);
    const bad = await manager.put('/dashboard/api/products/SCONE', { name: 'Scone', price: 1.5 });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'parameter_invalid']);
    expect((await staff.put('/dashboard/api/products/X', { name: 'X' })).body.error.code).toBe('role_forbidden');
    expect((await manager.delete('/dashboard/api/products/SCONE')).body).toEqual({ object: 'product', sku: 'SCONE', deleted: true });
    expect((await manager.delete('/dashboard/api/products/SCONE')).body.error.code).toBe('product_not_found');
    expect(await dishLog(venue.chainId)).toEqual([
      ['product.created', 'SCONE', { name: [null, 'Scone'], category: [null, 'bakery'], price: [null, 350] }],
      ['product.updated', 'SCONE', { name: ['Scone', 'Fruit scone'], price: [350, 375] }],
      ['product.deleted', 'SCONE', { name: ['Fruit scone', null], category: ['bakery', null], price: [375, null] }],
    ]);
    // A table for QR orders, too.
    expect((await manager.post('/dashboard/api/tables', { name: 'Window 1', table_code: 'w1' })).status).toBe(201);
    const { rows } = await sql<{ target_id: string; changes: unknown }>`select target_id, changes from audit_events where chain_id = ${venue.chainId} and action = 'table.created'`.execute(t.db);
    expect(rows.map((r) => [r.target_id, typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes])).toEqual([['w1', { name: [null, 'Window 1'] }]]);
  });
});
