// The catalogue: products by SKU, bulk upload of up to 1000, categories, owner-only money rules, line resolution.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { describe, expect, it } from 'vitest';
import { readTogether } from '../../../src/db/statement.js';
import * as catalogue from '../../../src/modules/catalogue/service.js';
import * as accounts from '../../../src/modules/accounts/service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

const products = (n: number) => Array.from({ length: n }, (_, i) => ({ sku: `P${i}`, name: `Product ${i}`, category: i % 3 ? 'food' : 'drinks', price: 100 + i }));

describe('products', () => {
  it('one product put with a bad SKU is refused about that product (param sku), not as "1 of 1 products"', async () => {
    const { secret } = await venueWithKey(t);
    const e = expectError(await client(t, secret).put('/api/v1/catalog/products/has%20space', { name: 'Espresso', category: 'coffee' }), 400, 'parameter_invalid');
    expect(e.param).toBe('sku');
    expect(e.message).not.toMatch(/of 1 products/);
  });

  it('PUT creates (201) then replaces (200), GET reads, DELETE removes; a new category is created on the way', async () => {
    const api = client(t, (await venueWithKey(t)).secret);
    const created = await api.put('/api/v1/catalog/products/ESP-01', { name: 'Espresso', category: 'coffee', price: 250 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'product', sku: 'ESP-01', name: 'Espresso', category: 'coffee', price: 250 });
    expect((await api.put('/api/v1/catalog/products/ESP-01', { name: 'Espresso doppio', category: 'coffee' })).body).toMatchObject({ name: 'Espresso doppio', price: null });
    expect((await api.get('/api/v1/catalog/products/ESP-01')).body.name).toBe('Espresso doppio');
    const categories = (await api.get('/api/v1/catalog/categories')).body.data;
    expect(categories).toEqual([
      expect.objectContaining({ object: 'category', external_id: 'coffee', name: 'coffee', earns_cashback: true, payable_with_cashback: true, cashback_percent: null }),
    ]);
    expect((await api.delete('/api/v1/catalog/products/ESP-01')).body).toEqual({ object: 'product', sku: 'ESP-01', deleted: true });
    expectError(await api.get('/api/v1/catalog/products/ESP-01'), 404, 'product_not_found');
  });

  it('uploads 1000 products in one call, refuses 1001, and reports every bad item with nothing applied', async () => {
    const api = client(t, (await venueWithKey(t)).secret);
    expect(expectError(await api.post('/api/v1/catalog/products/bulk', { items: products(1001) }), 400, 'parameter_invalid').param).toBe('items');
    const bad: Record<string, unknown>[] = products(1000);
    bad[10] = { sku: 'P10' };
    bad[999] = { ...bad[999], price: -1 };
    const e = expectError(await api.post('/api/v1/catalog/products/bulk', { items: bad }), 400, 'parameter_invalid');
    expect(e.errors.map((x: { index: number; param: string }) => [x.index, x.param])).toEqual([
      [10, 'items[10].name'],
      [999, 'items[999].price'],
    ]);
    expect((await api.get('/api/v1/catalog/products')).body.data).toEqual([]);
    expect((await api.post('/api/v1/catalog/products/bulk', { items: products(1000) })).body).toEqual({ object: 'catalog_sync', created: 1000, updated: 0, unchanged: 0 });
    expect((await api.post('/api/v1/catalog/products/bulk', { items: products(1000) })).body).toEqual({ object: 'catalog_sync', created: 0, updated: 0, unchanged: 1000 });
    expect((await api.get('/api/v1/catalog/products?category=drinks&limit=100')).body.data).toHaveLength(100);
  });
});

describe('categories and money rules', () => {
  it('a key names categories; sending a money rule is 403 owner_only', async () => {
    const { venue } = await venueWithKey(t);
    const api = client(t, (await createKey(t, venue, { scopes: ['catalog:write', 'catalog:read'] })).secret);
    expect((await api.put('/api/v1/catalog/categories/wine', { name: 'Wine' })).status).toBe(201);
    const renamed = await api.put('/api/v1/catalog/categories/wine', { name: 'Wines by the glass' });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'Wines by the glass']);
    for (const rule of [{ earns_cashback: false }, { payable_with_cashback: false }, { cashback_percent: 10 }]) {
      const e = expectError(await api.put('/api/v1/catalog/categories/wine', { name: 'Wine', ...rule }), 403, 'owner_only', 'permission_error');
      expect(e.param).toBe(Object.keys(rule)[0]);
    }
    expect((await api.get('/api/v1/catalog/categories')).body.data[0]).toMatchObject({ earns_cashback: true, payable_with_cashback: true, cashback_percent: null });
  });

  it('the owner sets the rules; check lines resolve sku → product → category → rules, else the defaults', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/catalog/products/bulk', {
      items: [
        { sku: 'WINE-1', name: 'Rioja', category: 'alcohol' },
        { sku: 'CAKE-1', name: 'Cheesecake', category: 'desserts' },
        { sku: 'BREAD', name: 'Bread' },
      ],
    });
    await catalogue.setCategoryRules(t.db, venue.chainId, 'alcohol', { earns_cashback: false, payable_with_cashback: false }, SYSTEM);
    const desserts = await catalogue.setCategoryRules(t.db, venue.chainId, 'desserts', { cashback_percent: 12.5 }, SYSTEM);
    expect(desserts).toMatchObject({ earns_cashback: true, payable_with_cashback: true, cashback_percent: 12.5 });
    await expect(catalogue.setCategoryRules(t.db, venue.chainId, 'nope', { earns_cashback: false }, SYSTEM)).rejects.toMatchObject({ code: 'category_not_found' });

    const rules = catalogue.lineRules(accounts.placeOf(venue), [
      { sku: 'WINE-1' },
      { sku: 'CAKE-1', category: 'alcohol' },
      { category: 'alcohol' },
      { sku: 'BREAD' },
      { sku: 'UNKNOWN', category: 'mystery' },
      {},
    ]);
    const { rows } = await readTogether(t.db, { rows: rules.read });
    expect(await rules.resolve(t.db, rows)).toEqual([
      { category: 'alcohol', source: 'product', earnsCashback: false, payableWithCashback: false, percentBp: null },
      { category: 'desserts', source: 'product', earnsCashback: true, payableWithCashback: true, percentBp: 1250 },
      { category: 'alcohol', source: 'category', earnsCashback: false, payableWithCashback: false, percentBp: null },
      { category: null, source: 'default', earnsCashback: true, payableWithCashback: true, percentBp: null },
      { category: 'mystery', source: 'default', earnsCashback: true, payableWithCashback: true, percentBp: null },
      { category: null, source: 'default', earnsCashback: true, payableWithCashback: true, percentBp: null },
    ]);
  });
});
