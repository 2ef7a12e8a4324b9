// Check calculation (D11) through POST /v1/checks/calculate: the worked examples of docs/checks.md, and it writes nothing.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as catalogue from '../../../src/modules/catalogue/service.js';
import { lineAmount, spreadRedemption } from '../../../src/modules/checks/calculation.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

interface Setup {
  levels?: { name: string; min_spend: number; percent: number }[];
  maxRedeemPercent?: number;
  balance?: number;
  spend?: number;
  rules?: Record<string, unknown>;
}

async function cashbackMember(s: Setup = {}) {
  const venue = await createVenue(t);
  await createProgram(t, venue, 'cashback', {
    settings: { levels: s.levels ?? [{ name: 'Member', min_spend: 0, percent: 5 }], max_redeem_percent: s.maxRedeemPercent ?? 100 },
  });
  const api = client(t, (await createKey(t, venue, { rules: s.rules })).secret);
  const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Anna Kowalska' });
  if (s.balance || s.spend) await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: s.balance ?? 0, spend: s.spend ?? 0 });
  const calc = (body: Record<string, unknown>) => api.post('/api/v1/checks/calculate', { external_id: 'chk-1', member_id: member.id, ...body });
  return { venue, api, member, calc };
}

const line = (name: string, unit_price: number, extra: Record<string, unknown> = {}) => ({ name, quantity: 1, unit_price, ...extra });

describe('worked examples (docs/checks.md)', () => {
  it.each([
    {
      name: 'D11: level 5 %, lines 9.00 and 6.00, pay 5.00 with cashback → shares 3.00 / 2.00, earned 0.30 + 0.20',
      setup: { balance: 1000 },
      body: { line_items: [line('Pasta', 900), line('Wine', 600)], redeem_amount: 500 },
      expected: { subtotal: 1500, payable_base: 1500, max_redeem: 1000, redeemed: 500, earned: 50, paid: 1000, lines: [[300, 30], [200, 20]] },
    },
    {
      name: 'leftover cents go to the largest remainders, ties to the earlier line',
      setup: { balance: 1000 },
      body: { line_items: [line('A', 100), line('B', 100), line('C', 100)], redeem_amount: 100 },
      expected: { subtotal: 300, redeemed: 100, earned: 9, paid: 200, lines: [[34, 3], [33, 3], [33, 3]] },
    },
    {
      name: 'weight and rounding: 0.333 kg × 15.00 = 4.995 → 5.00 (half up); earning rounds down',
      setup: {},
      body: { line_items: [{ name: 'Cheese', quantity: 0.333, unit_price: 1500 }, line('Bread', 333)] },
      expected: { subtotal: 500 + 333, earned: 25 + 16, paid: 833, lines: [[0, 25], [0, 16]] },
    },
    {
      name: 'max_redeem_percent 50: at most half of the payable base',
      setup: { balance: 5000, maxRedeemPercent: 50 },
      body: { line_items: [line('Dinner', 3001)] },
      expected: { payable_base: 3001, max_redeem: 1500, redeemed: 0, earned: 150 },
    },
    {
      name: 'max_redeem is never more than available',
      setup: { balance: 250 },
      body: { line_items: [line('Dinner', 3000)] },
      expected: { max_redeem: 250 },
    },
    {
      name: 'the per-check cap limits earning (earn_capped) and redemption',
      setup: { balance: 5000, rules: { max_cashback_per_check: 100 } },
      body: { line_items: [line('Banquet', 10_000)], redeem_amount: 100 },
      expected: { max_redeem: 100, redeemed: 100, earned: 100, earn_capped: true, paid: 9900 },
    },
    {
      name: 'the level before the check sets the percent, even if the check reaches the next level',
      setup: { levels: [{ name: 'Bronze', min_spend: 0, percent: 3 }, { name: 'Silver', min_spend: 50_000, percent: 5 }], spend: 49_900 },
      body: { line_items: [line('Tasting menu', 10_000)] },
      expected: { earned: 300, paid: 10_000 },
    },
  ])('$name', async ({ setup, body, expected }) => {
    const { calc } = await cashbackMember(setup);
    const res = await calc(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { lines, ...totals } = expected;
    expect(res.body).toMatchObject(totals);
    if (lines) expect(res.body.line_items.map((l: { redeemed: number; earned: number }) => [l.redeemed, l.earned])).toEqual(lines);
  });

  it('mixed categories: non-earning and non-payable lines, a category with its own percent', async () => {
    const { venue, calc, api } = await cashbackMember({ balance: 5000 });
    await api.post('/api/v1/catalog/products/bulk', {
      items: [
        { sku: 'WINE', name: 'Rioja', category: 'alcohol' },
        { sku: 'CAKE', name: 'Cheesecake', category: 'desserts' },
      ],
    });
    await catalogue.setCategoryRules(t.db, venue.chainId, 'alcohol', { earns_cashback: false, payable_with_cashback: false }, SYSTEM);
    await catalogue.setCategoryRules(t.db, venue.chainId, 'desserts', { cashback_percent: 12.5 }, SYSTEM);
    const res = await calc({ line_items: [line('Rioja', 1000, { sku: 'WINE' }), line('Cheesecake', 500, { sku: 'CAKE' }), line('Bread', 300)], redeem_amount: 400 });
    expect(res.body).toMatchObject({ subtotal: 1800, payable_base: 800, max_redeem: 800, redeemed: 400, paid: 1400 });
    expect(res.body.line_items).toEqual([
      expect.objectContaining({ category: 'alcohol', earns_cashback: false, payable_with_cashback: false, cashback_percent: 0, redeemed: 0, earned: 0 }),
      expect.objectContaining({ category: 'desserts', cashback_percent: 12.5, redeemed: 250, earned: 31 }),
      expect.objectContaining({ category: null, cashback_percent: 5, redeemed: 150, earned: 7 }),
    ]);
    expect(res.body.earned).toBe(38);
    expect(res.body.display.receipt).toEqual([
      'Cashback used: −€4.00',
      'Cashback earned: +€0.38',
      'To pay: €14.00',
      'Cashback available: €46.38',
      'Level: Member 5%',
    ]);
  });
});

describe('refusals', () => {
  it('redeem above available → 402 insufficient_balance with available; above the cap → 402 redeem_limit_exceeded with max_redeem', async () => {
    const { calc } = await cashbackMember({ balance: 300, maxRedeemPercent: 10 });
    expect(expectError(await calc({ line_items: [line('Dinner', 1000)], redeem_amount: 301 }), 402, 'insufficient_balance').available).toBe(300);
    expect(expectError(await calc({ line_items: [line('Dinner', 1000)], redeem_amount: 101 }), 402, 'redeem_limit_exceeded').max_redeem).toBe(100);
  });

  it('a refusal names its amounts in the currency as well as the minor-unit fields', async () => {
    const { calc } = await cashbackMember({ balance: 300, maxRedeemPercent: 10 });
    const short = expectError(await calc({ line_items: [line('Dinner', 1000)], redeem_amount: 301 }), 402, 'insufficient_balance');
    expect(short.message).toBe('redeem_amount €3.01 is more than the €3.00 available (redeem_amount: 301, available: 300).');
    const capped = expectError(await calc({ line_items: [line('Dinner', 1000)], redeem_amount: 101 }), 402, 'redeem_limit_exceeded');
    expect(capped.message).toBe('This check can be paid with at most €1.00 of cashback (max_redeem: 100).');
  });

  it('redeem on a stamps member → 400 redeem_not_supported; an unknown member → 404; bad quantity → 400', async () => {
    const venue = await createVenue(t);
    const stamps = await createProgram(t, venue, 'stamps');
    const api = client(t, (await createKey(t, venue)).secret);
    const { body: m } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, program_id: stamps.id });
    const base = { external_id: 'x', line_items: [line('Coffee', 300)] };
    expectError(await api.post('/api/v1/checks/calculate', { ...base, member_id: m.id, redeem_amount: 100 }), 400, 'redeem_not_supported');
    expectError(await api.post('/api/v1/checks/calculate', { ...base, card_number: 'NOPE' }), 404, 'member_not_found');
    const bad = await api.post('/api/v1/checks/calculate', { ...base, line_items: [{ name: 'Ham', quantity: 0.0005, unit_price: 100 }] });
    expect(expectError(bad, 400, 'parameter_invalid').param).toBe('line_items[0].quantity');
    const stamp = await api.post('/api/v1/checks/calculate', { ...base, member_id: m.id });
    expect(stamp.body).toMatchObject({ program_type: 'stamps', stamps_earned: 1, earned: 0, max_redeem: 0 });
    expect(stamp.body.display.receipt).toContain('Stamps: +1 (1/5)');
  });

  it('a check without a member is calculated and earns nothing', async () => {
    const { api } = await cashbackMember();
    const res = await api.post('/api/v1/checks/calculate', { external_id: 'walk-in', line_items: [line('Coffee', 300)] });
    expect(res.body).toMatchObject({ member_id: null, subtotal: 300, earned: 0, max_redeem: 0, paid: 300, balance_after: null });
  });

  it('a visit-discount member gets the discount of their tier', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'visit_discount');
    const api = client(t, (await createKey(t, venue)).secret);
    const { body: m } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    await seedLedger(t, venue, { memberId: m.id, kind: 'import', visits: 3 });
    const res = await api.post('/api/v1/checks/calculate', { external_id: 'v', member_id: m.id, line_items: [line('Lunch', 2001)] });
    expect(res.body).toMatchObject({ discount_amount: 100, paid: 1901, earned: 0 });
  });
});

describe('calculate writes nothing', () => {
  it('no table changes, whatever the check', async () => {
    const { calc } = await cashbackMember({ balance: 1000 });
    const counts = async () => {
      const { rows } = await sql<{ table_name: string }>`
        select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(t.db);
      const result: Record<string, number> = {};
      for (const { table_name } of rows) {
        const { rows: n } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table_name)}`.execute(t.db);
        result[table_name] = Number(n[0]!.n);
      }
      return result;
    };
    const before = await counts();
    expect((await calc({ line_items: [line('Dinner', 2000)], redeem_amount: 500 })).status).toBe(200);
    expect(await counts()).toEqual(before);
  });
});

describe('the spread and the line amount (properties)', () => {
  it('shares add up to the redemption exactly, never exceed a line, and skip non-payable lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ amount: fc.integer({ min: 0, max: 100_000 }), payable: fc.boolean() }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (lines, fraction) => {
          const base = lines.reduce((s, l) => s + (l.payable ? l.amount : 0), 0);
          const redeem = Math.floor(base * fraction);
          const shares = spreadRedemption(redeem, lines.map((l) => l.amount), lines.map((l) => l.payable));
          expect(shares.reduce((s, x) => s + x, 0)).toBe(redeem);
          shares.forEach((share, i) => {
            expect(share).toBeGreaterThanOrEqual(0);
            expect(share).toBeLessThanOrEqual(lines[i]!.amount);
            if (!lines[i]!.payable) expect(share).toBe(0);
          });
        },
      ),
    );
  });

  it('line amounts round half up exactly', () => {
    expect([lineAmount(1, 999), lineAmount(0.5, 999), lineAmount(0.333, 1500), lineAmount(2.5, 1), lineAmount(0.001, 499)]).toEqual([999, 500, 500, 3, 0]);
  });
});
