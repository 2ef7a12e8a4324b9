// A venue's own rule for a category of its chain (D21): it wins at that venue, whole, and nowhere else.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../../src/modules/accounts/service.js';
import * as catalogue from '../../../src/modules/catalogue/service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

describe("a venue's own category rule", () => {
  it('wins at its venue only; the chain rule stays everywhere else; back to the chain rule on request', async () => {
    const a = await createVenue(t);
    const b = await createVenue(t, { chainId: a.chainId });
    await createProgram(t, a, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
    const atA = client(t, (await createKey(t, a)).secret);
    const atB = client(t, (await createKey(t, b)).secret);
    await atA.put('/api/v1/catalog/categories/wine', { name: 'Wine' });
    // The chain: wine earns 10 %. B alone: wine earns nothing and cannot be paid with cashback.
    await catalogue.setCategoryRules(t.db, a.chainId, 'wine', { cashback_percent: 10 }, SYSTEM);
    const set = await catalogue.setVenueCategoryRules(t.db, accounts.placeOf(b), 'wine', { earns_cashback: false, payable_with_cashback: false }, SYSTEM);
    // The venue's rule starts from the chain's (10 %) and takes the changes sent.
    expect(set.venue_rules).toEqual([{ venue_id: b.id, earns_cashback: false, payable_with_cashback: false, cashback_percent: 10 }]);
    expect(set).toMatchObject({ earns_cashback: true, payable_with_cashback: true, cashback_percent: 10 });

    const { body: member } = await atA.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    await atA.post('/api/v1/checks', { external_id: 'A-1', member_id: member.id, line_items: [{ name: 'Rioja', category: 'wine', quantity: 1, unit_price: 3_000 }] });
    const wine = [{ name: 'Rioja', category: 'wine', quantity: 1, unit_price: 2_000 }];
    // A: 10 % of 30.00 = 3.00 earned. B: nothing earned; 1.00 of redemption refused (the line is not payable with cashback).
    expect((await atA.get(`/api/v1/members/${member.id}`)).body.balance).toBe(300);
    const atBCheck = await atB.post('/api/v1/checks/calculate', { member_id: member.id, line_items: wine });
    expect(atBCheck.body).toMatchObject({ earned: 0, max_redeem: 0 });
    expect(atBCheck.body.line_items[0]).toMatchObject({ earns_cashback: false, payable_with_cashback: false, rule_source: 'category' });
    const atACheck = await atA.post('/api/v1/checks/calculate', { member_id: member.id, line_items: wine });
    expect(atACheck.body).toMatchObject({ earned: 200 });

    // Both keys see the venue's rule on the category.
    const listed = (await atB.get('/api/v1/catalog/categories')).body.data.find((c: { external_id: string }) => c.external_id === 'wine');
    expect(listed.venue_rules).toEqual(set.venue_rules);

    const back = await catalogue.clearVenueCategoryRules(t.db, accounts.placeOf(b), 'wine', SYSTEM);
    expect(back.venue_rules).toEqual([]);
    expect((await atB.post('/api/v1/checks/calculate', { member_id: member.id, line_items: wine })).body).toMatchObject({ earned: 200 });
  });

  it('another chain cannot set a rule for the category, and keys cannot set money rules at all', async () => {
    const a = await createVenue(t);
    const other = await createVenue(t);
    const atA = client(t, (await createKey(t, a)).secret);
    await atA.put('/api/v1/catalog/categories/beer', { name: 'Beer' });
    await expect(catalogue.setVenueCategoryRules(t.db, accounts.placeOf(other), 'beer', { earns_cashback: false }, SYSTEM)).rejects.toMatchObject({ code: 'category_not_found' });
    expectError(await atA.put('/api/v1/catalog/categories/beer', { name: 'Beer', earns_cashback: false }), 403, 'owner_only');
    // Categories are the chain's: a key names no venue on them.
    expect(expectError(await atA.put('/api/v1/catalog/categories/beer', { name: 'Beer', venue_id: a.id }), 400, 'parameter_invalid').param).toBe('venue_id');
  });

  it("every change to the chain's category rules draws a new catalogue version in its transaction; a rename, a product change or another chain's does not", async () => {
    const a = await createVenue(t);
    const other = await createVenue(t);
    const api = client(t, (await createKey(t, a)).secret);
    const otherApi = client(t, (await createKey(t, other)).secret);
    const versions = new Set<string>();
    const version = async () => {
      const { rows } = await sql<{ v: string }>`select catalogue_version::text as v from chains where chain_id = ${a.chainId}`.execute(t.db);
      return rows[0]!.v;
    };
    const drawsNew = async (change: () => Promise<unknown>) => {
      await change();
      const v = await version();
      expect(versions.has(v), 'a new version').toBe(false);
      versions.add(v);
    };
    const keeps = async (change: () => Promise<unknown>) => {
      const before = await version();
      await change();
      expect(await version()).toBe(before);
    };
    versions.add(await version());
    await drawsNew(() => api.put('/api/v1/catalog/categories/wine', { name: 'Wine' }));
    await drawsNew(() => catalogue.setCategoryRules(t.db, a.chainId, 'wine', { cashback_percent: 10 }, SYSTEM));
    await drawsNew(() => catalogue.setVenueCategoryRules(t.db, accounts.placeOf(a), 'wine', { earns_cashback: false }, SYSTEM));
    await drawsNew(() => catalogue.clearVenueCategoryRules(t.db, accounts.placeOf(a), 'wine', SYSTEM));
    await keeps(() => api.put('/api/v1/catalog/products/RIOJA', { name: 'Rioja', category: 'wine' }));
    // A catalogue sync sending the category again, or renaming it, changes no rule.
    await keeps(() => api.put('/api/v1/catalog/categories/wine', { name: 'Wine' }));
    await keeps(() => api.put('/api/v1/catalog/categories/wine', { name: 'Wines' }));
    await keeps(() => otherApi.put('/api/v1/catalog/categories/wine', { name: 'Wine' }));
    // A change rolled back leaves the version as it was.
    await keeps(() =>
      t.db.transaction().execute(async (trx) => {
        await catalogue.setCategoryRules(trx, a.chainId, 'wine', { cashback_percent: 50 }, SYSTEM);
        throw new Error('rolled back');
      }).catch(() => undefined),
    );
  });
});
