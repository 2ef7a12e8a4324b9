// Dishes by SKU: create or replace, price and stop list, delete, and the all-or-nothing bulk sync of up to 500.
import { describe, expect, it } from 'vitest';
import * as accounts from '../../../src/modules/accounts/service.js';
import * as menu from '../../../src/modules/menu/service.js';
import { useTestApp } from '../../support/app.js';
import { venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

const dishes = (n: number, tag = 'v1') =>
  Array.from({ length: n }, (_, i) => ({ external_id: `sku-${i}`, name: `Dish ${i} ${tag}`, category: i % 2 ? 'Mains' : 'Starters', price: 100 + i }));

async function count(venue: accounts.Venue): Promise<number> {
  const row = await t.db
    .selectFrom('dishes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chain_id', '=', venue.chainId)
    .where('venue_id', '=', venue.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('dishes', () => {
  it('PUT creates (201) then replaces (200); PATCH changes price and stop list; DELETE removes', async () => {
    const api = client(t, (await venueWithKey(t)).secret);
    const created = await api.put('/api/v1/menu/items/LATTE-M', { name: 'Latte', category: 'Coffee', price: 380 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'dish', external_id: 'LATTE-M', name: 'Latte', category: 'Coffee', price: 380, available: true, description: null });
    const replaced = await api.put('/api/v1/menu/items/LATTE-M', { name: 'Latte', price: 390 });
    expect([replaced.status, replaced.body.price, replaced.body.category, replaced.body.id]).toEqual([200, 390, null, created.body.id]);
    const stopped = await api.patch('/api/v1/menu/items/LATTE-M', { available: false });
    expect(stopped.body).toMatchObject({ available: false, price: 390 });
    expect((await api.get('/api/v1/menu/items?available=false')).body.data.map((d: { external_id: string }) => d.external_id)).toEqual(['LATTE-M']);
    expect((await api.get('/api/v1/menu/items?available=true')).body.data).toEqual([]);
    expect((await api.delete('/api/v1/menu/items/LATTE-M')).body).toEqual({ object: 'dish', external_id: 'LATTE-M', deleted: true });
    expectError(await api.get('/api/v1/menu/items/LATTE-M'), 404, 'dish_not_found');
    expectError(await api.patch('/api/v1/menu/items/LATTE-M', { price: 1 }), 404, 'dish_not_found');
  });

  it('lists by category and refuses a bad price or SKU', async () => {
    const api = client(t, (await venueWithKey(t)).secret);
    await api.put('/api/v1/menu/items/soup', { name: 'Soup', category: 'Starters', price: 650 });
    await api.put('/api/v1/menu/items/steak', { name: 'Steak', category: 'Mains', price: 2400 });
    expect((await api.get('/api/v1/menu/items?category=Mains')).body.data.map((d: { name: string }) => d.name)).toEqual(['Steak']);
    expect(expectError(await api.put('/api/v1/menu/items/x', { name: 'X', price: -1 }), 400, 'parameter_invalid').param).toBe('price');
    expect(expectError(await api.put('/api/v1/menu/items/bad%20sku', { name: 'X', price: 1 }), 400, 'parameter_invalid').param).toBe('external_id');
  });
});

describe('bulk sync', () => {
  it('accepts 500 dishes in one call', async () => {
    const { venue, secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/menu/items/bulk', { items: dishes(500) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'menu_sync', created: 500, updated: 0, unchanged: 0, removed: 0 });
    expect(await count(venue)).toBe(500);
  });

  it('applies 500 dishes with set-based SQL: one statement, two with replace, never one per dish', async () => {
    const { venue } = await venueWithKey(t);
    let statements = 0;
    const counted = t.db.withPlugin({
      transformQuery: (args) => {
        statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const caller = accounts.ownerCaller(venue);
    await counted.transaction().execute((trx) => menu.syncDishes(trx, caller, { items: dishes(500) }));
    expect(statements).toBe(1);
    statements = 0;
    await counted.transaction().execute((trx) => menu.syncDishes(trx, caller, { items: dishes(500, 'v2'), replace: true }));
    expect(statements).toBe(2);
    expect(await count(venue)).toBe(500);
  });

  it('refuses 501 dishes with param items', async () => {
    const { venue, secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/menu/items/bulk', { items: dishes(501) });
    expect(expectError(res, 400, 'parameter_invalid').param).toBe('items');
    expect(await count(venue)).toBe(0);
  });

  it('one bad dish among 500: nothing is applied and every bad item is reported by index', async () => {
    const { venue, secret } = await venueWithKey(t);
    const items: Record<string, unknown>[] = dishes(500);
    items[137] = { ...items[137], price: 'twelve' };
    items[402] = { external_id: 'sku-402', price: 5 };
    items[499] = { ...items[499], external_id: 'sku-3' };
    const e = expectError(await client(t, secret).post('/api/v1/menu/items/bulk', { items }), 400, 'parameter_invalid');
    expect(e.param).toBe('items');
    expect(e.errors).toEqual([
      { index: 137, param: 'items[137].price', message: expect.stringContaining('price') },
      { index: 402, param: 'items[402].name', message: 'name is required.' },
      { index: 499, param: 'items[499].external_id', message: 'external_id sku-3 is also item 3' },
    ]);
    expect(await count(venue)).toBe(0);
  });

  it('a second identical sync reports all unchanged; changes are counted; replace removes the rest', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/menu/items/bulk', { items: dishes(50) });
    expect((await api.post('/api/v1/menu/items/bulk', { items: dishes(50) })).body).toEqual({ object: 'menu_sync', created: 0, updated: 0, unchanged: 50, removed: 0 });
    const next = dishes(50).slice(0, 40);
    next[0] = { ...next[0]!, price: 999 };
    next.push({ external_id: 'new-1', name: 'New', category: 'Mains', price: 10 });
    expect((await api.post('/api/v1/menu/items/bulk', { items: next, replace: true })).body).toEqual({
      object: 'menu_sync',
      created: 1,
      updated: 1,
      unchanged: 39,
      removed: 10,
    });
    expect(await count(venue)).toBe(41);
    expect((await api.get('/api/v1/menu/items/sku-0')).body.price).toBe(999);
    expectError(await api.get('/api/v1/menu/items/sku-45'), 404, 'dish_not_found');
  });
});
