// Round trips per request with warm caches (issue 10's budget), counted from the statements the app sends; and
// the plans PostgreSQL keeps for them.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { updateProgram } from '../../src/modules/programs/service.js';
import { useTestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { createProgram, newCardNumber, seedLedger, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

// One connection: what PostgreSQL keeps per connection (its prepared statements' plans) is read on it.
const t = useTestApp({ poolSize: 1 });

/** The statements one request sends (it must succeed). */
async function sentBy(send: () => Promise<{ status: number; body: unknown }>): Promise<string[]> {
  const from = t.testDatabase.sent.length;
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return t.testDatabase.sent.slice(from);
}

/** What each round trip to PostgreSQL carried for one request (it must succeed). */
async function roundTripsOf(send: () => Promise<{ status: number; body: unknown }>): Promise<string[]> {
  const from = t.testDatabase.roundTrips.length;
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return t.testDatabase.roundTrips.slice(from);
}

/** The statements one request sends, after the same request has warmed the key and program caches. */
async function statementsOf(send: () => Promise<{ status: number; body: unknown }>): Promise<string[]> {
  await sentBy(send);
  return sentBy(send);
}

/**
 * A venue whose checks take the most reads: a per-day cap, a category with its own rules, a member with cashback
 * to redeem; the caches warmed by one check.
 */
async function tillSetUp() {
  const { venue, secret } = await venueWithKey(t, { rules: { max_cashback_per_day: 10_000 } });
  await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
  const api = client(t, secret);
  await api.put('/api/v1/catalog/products/WINE', { name: 'Rioja', category: 'wine' });
  const member = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
  await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 5_000, reason: 'seed' });
  let n = 0;
  const check = (extra: Record<string, unknown> = {}) => ({
    external_id: `RT-${++n}`,
    member_id: member.id,
    line_items: [
      { sku: 'WINE', name: 'Rioja', quantity: 1, unit_price: 2_000 },
      { name: 'Steak', quantity: 2, unit_price: 1_500 },
    ],
    ...extra,
  });
  await sentBy(() => api.post('/api/v1/checks', check({ redeem_amount: 100 })));
  return { api, member, check };
}

type Measure = (send: () => Promise<{ status: number; body: unknown }>) => Promise<string[]>;

/** A check, a hold, its capture, a refund and a void, each with an Idempotency-Key: what `measure` saw of each. */
async function keyedMoneyRequests(measure: Measure) {
  const { api, member, check } = await tillSetUp();
  let n = 0;
  const keyed = () => ({ 'idempotency-key': `rt-${++n}` });
  const checked = await measure(() => api.post('/api/v1/checks', check({ redeem_amount: 100 }), keyed()));
  let hold: { id: string } | undefined;
  const held = await measure(async () => {
    const res = await api.post('/api/v1/holds', { member_id: member.id, amount: 300 }, keyed());
    hold = res.body;
    return res;
  });
  const applied = check();
  await sentBy(() => api.post('/api/v1/checks', applied));
  return {
    check: checked,
    hold: held,
    capture: await measure(() => api.post(`/api/v1/holds/${hold!.id}/capture`, { external_id: applied.external_id }, keyed())),
    refund: await measure(() => api.post(`/api/v1/transactions/${applied.external_id}/refunds`, { external_id: 'RT-REFUND', amount: 500 }, keyed())),
    void: await measure(() => api.post(`/api/v1/transactions/${applied.external_id}/void`, undefined, keyed())),
  };
}

describe('round trips', () => {
  it('a member look-up by card, and a member by id, are one statement each', async () => {
    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue);
    const api = client(t, secret);
    const member = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    expect(await statementsOf(() => api.get(`/api/v1/members/lookup?card_number=${member.card_numbers[0]}`))).toHaveLength(1);
    expect(await statementsOf(() => api.get(`/api/v1/members/${member.id}`))).toHaveLength(1);
  });

  it('a change to a program reaches the next request at once, cache or not', async () => {
    const { venue, secret } = await venueWithKey(t);
    const program = await createProgram(t, venue);
    const api = client(t, secret);
    const member = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    expect((await api.get(`/api/v1/members/${member.id}`)).body.level.percent).toBe(3);
    await updateProgram(t.db, venue.chainId, program.id, { settings: { levels: [{ name: 'All', min_spend: 0, percent: 9 }] } });
    expect((await api.get(`/api/v1/members/${member.id}`)).body.level).toMatchObject({ name: 'All', percent: 9 });
  });

  it('a scan is one statement: it finds the member and records itself', async () => {
    const { api, member } = await tillSetUp();
    expect(await statementsOf(() => api.post('/api/v1/scans', { code: member.card_numbers[0] }))).toHaveLength(1);
  });

  it('calculate is one statement: the gather rides along the member row, so both are one snapshot', async () => {
    const { api, check } = await tillSetUp();
    const sent = await statementsOf(() => api.post('/api/v1/checks/calculate', check({ redeem_amount: 100 })));
    expect(sent, sent.join('\n')).toHaveLength(1);
    expect(sent[0]).toMatch(/^\s*select m\.\*/);
    expect(sent[0]).toMatch(/jsonb_build_object\('held'::text/);
  });

  it('applying a check is 5 statements with BEGIN and COMMIT: lock the member, gather, write', async () => {
    const { api, check } = await tillSetUp();
    const sent = await sentBy(() => api.post('/api/v1/checks', check({ redeem_amount: 100 })));
    expect(sent, sent.join('\n')).toHaveLength(5);
    expect([sent[0], sent[4]].map((q) => q?.toLowerCase())).toEqual(['begin', 'commit']);
  });

  it('with two bonus campaigns that apply, a check is still 5 statements: credits whose budgets have ample room are taken by the write itself', async () => {
    const { api, check } = await tillSetUp();
    await api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5, budget: 1_000_000 });
    await api.post('/api/v1/campaigns', { name: 'Wine week', type: 'bonus', percent: 2, categories: ['wine'] });
    const calculated = await statementsOf(() => api.post('/api/v1/checks/calculate', check()));
    expect(calculated, calculated.join('\n')).toHaveLength(1);
    let applied: { campaigns: unknown[] } | undefined;
    const sent = await sentBy(async () => {
      const res = await api.post('/api/v1/checks', check({ redeem_amount: 100 }));
      applied = res.body;
      return res;
    });
    expect(applied!.campaigns).toHaveLength(2);
    expect(sent, sent.join('\n')).toHaveLength(5);
    expect(sent[3]).toMatch(/update campaigns/);
  });

  it('a check taking from a budget near its end is 6 statements: the budgets are locked and taken, what is left, in one more', async () => {
    const { api, check } = await tillSetUp();
    await api.post('/api/v1/campaigns', { name: 'Last of it', type: 'bonus', percent: 5, budget: 1_000 });
    let applied: { campaigns: unknown[] } | undefined;
    const sent = await sentBy(async () => {
      const res = await api.post('/api/v1/checks', check());
      applied = res.body;
      return res;
    });
    expect(applied!.campaigns).toHaveLength(1);
    expect(sent, sent.join('\n')).toHaveLength(6);
    expect(sent[3]).toMatch(/for update/);
  });

  it('with an Idempotency-Key, applying a check is still 5 statements: the key is claimed with the lock and answered with the write', async () => {
    const { api, check } = await tillSetUp();
    const body = check({ redeem_amount: 100 });
    const headers = { 'idempotency-key': `rt-${body.external_id}` };
    const sent = await sentBy(() => api.post('/api/v1/checks', body, headers));
    expect(sent, sent.join('\n')).toHaveLength(5);
    expect(sent[1]).toMatch(/pg_try_advisory_xact_lock/);
    expect(sent[3]).toMatch(/update "idempotency_keys"/);
    // The replay by the key is answered from the claim: BEGIN, the claim with the member's lock, ROLLBACK.
    const replay = await sentBy(() => api.post('/api/v1/checks', body, headers));
    expect(replay.length, replay.join('\n')).toBeLessThanOrEqual(3);
  });

  it('a replayed check is at most 3 statements', async () => {
    const { api, check } = await tillSetUp();
    const body = check();
    await sentBy(() => api.post('/api/v1/checks', body));
    expect(await sentBy(() => api.post('/api/v1/checks', body))).toHaveLength(3);
  });

  it('a hold, and a check capturing it, are at most 5 statements each; so is a hold captured into an applied check', async () => {
    const { api, member, check } = await tillSetUp();
    let hold: { id: string } | undefined;
    const create = await sentBy(async () => {
      const res = await api.post('/api/v1/holds', { member_id: member.id, amount: 300 });
      hold = res.body;
      return res;
    });
    expect(create.length).toBeLessThanOrEqual(5);
    expect(await sentBy(() => api.post('/api/v1/checks', check({ hold_id: hold!.id })))).toHaveLength(5);

    const second = (await api.post('/api/v1/holds', { member_id: member.id, amount: 200 })).body;
    const applied = check();
    await sentBy(() => api.post('/api/v1/checks', applied));
    expect(await sentBy(() => api.post(`/api/v1/holds/${second.id}/capture`, { external_id: applied.external_id }))).toHaveLength(5);
  });

  it('with an Idempotency-Key, a check, a hold, its capture, a refund and a void are still 5 statements each: the key is claimed with the lock and answered with the write', async () => {
    const sent = await keyedMoneyRequests(sentBy);
    for (const [what, statements] of Object.entries(sent)) expect(statements, `${what}:\n${statements.join('\n')}`).toHaveLength(5);
  });

  it('a refund and a void without a key are 5 statements each', async () => {
    const { api, check } = await tillSetUp();
    const applied = check();
    await sentBy(() => api.post('/api/v1/checks', applied));
    expect(await sentBy(() => api.post(`/api/v1/transactions/${applied.external_id}/refunds`, { external_id: 'RT-REFUND', amount: 500 }))).toHaveLength(5);
    expect(await sentBy(() => api.post(`/api/v1/transactions/${applied.external_id}/void`))).toHaveLength(5);
  });

  // PostgreSQL only: the embedded database has no round trips to count (its statements are calls in this process).
  it.runIf(onPostgres())('on PostgreSQL, BEGIN goes out with the first statement: a check, a hold, its capture, a refund and a void with an Idempotency-Key are 4 round trips each', async () => {
    const trips = await keyedMoneyRequests(roundTripsOf);
    for (const [what, sent] of Object.entries(trips)) expect(sent, `${what}:\n${sent.join('\n')}`).toHaveLength(4);
    expect(trips.check[0]).toMatch(/^begin; [\s\S]*pg_try_advisory_xact_lock/);
    expect(trips.check[3]).toBe('commit');
  });

  // A statement PostgreSQL plans again on every run costs it about as much as running it (issue 21: a calculate's
  // PostgreSQL time halved once its plan was kept). After five runs of a prepared statement with custom plans,
  // PostgreSQL keeps the generic plan unless that one's estimate is dearer: each statement of the till's requests
  // must pass that test.
  it.runIf(onPostgres())('on PostgreSQL, the till\'s statements are planned once: past its five trial runs, each keeps its generic plan', async () => {
    // A catalogue and past holds of some size, with statistics, as a chain's: on a handful of rows every plan costs
    // the same.
    const { api: first, member: regular } = await tillSetUp();
    await first.put('/api/v1/catalog/products/CHEESE', { name: 'Comté', category: 'cheese' });
    await sql`insert into catalog_products (chain_id, id, sku, name, category)
      select chain_id, gen_random_uuid(), 'SKU-' || n, 'Dish ' || n, 'food' from catalog_products, generate_series(1, 5000) n
      where sku = 'CHEESE'`.execute(t.db);
    await sql`insert into holds (chain_id, venue_id, id, member_id, amount, status, expires_at, livemode, finished_at)
      select m.chain_id, v.venue_id, gen_random_uuid(), m.id, 100, 'released', now(), true, now()
      from members m join venues v on v.chain_id = m.chain_id, generate_series(1, 5000)
      where m.id = ${(regular as { id: string }).id}`.execute(t.db);
    await sql`analyze`.execute(t.db);
    for (let i = 0; i < 7; i++) {
      await keyedMoneyRequests(sentBy);
      const { api, member, check } = await tillSetUp();
      const card = (member as { card_numbers: string[] }).card_numbers[0]!;
      await sentBy(() => api.get(`/api/v1/members/lookup?card_number=${card}`));
      await sentBy(() => api.post('/api/v1/scans', { code: card }));
      // Three SKUs, as a till's check names: the catalogue's read lists them in four places.
      const lines = ['WINE', 'CHEESE', 'SKU-7'].map((sku) => ({ sku, name: sku, quantity: 1, unit_price: 1_000 }));
      const { external_id: _, ...calculated } = check({ redeem_amount: 100, line_items: lines });
      await sentBy(() => api.post('/api/v1/checks/calculate', calculated));
    }
    // Forced generic plans would pass this without a kept plan being earned.
    const { rows: mode } = await sql<{ plan_cache_mode: string }>`select current_setting('plan_cache_mode') as plan_cache_mode`.execute(t.db);
    expect(mode[0]!.plan_cache_mode).toBe('auto');
    const { rows } = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
      select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(t.db);
    const replanned = rows.filter((r) => r.custom_plans > 5).map((r) => `${r.custom_plans} custom plans: ${r.statement}`);
    expect(replanned).toEqual([]);
    // The requests did run each of their statements past the trial runs.
    expect(rows.filter((r) => r.generic_plans > 0).length).toBeGreaterThanOrEqual(10);
  });
});
