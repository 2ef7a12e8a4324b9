// Merging a venue, the only one of its chain, into another chain (D21, docs/chains.md "Merging a venue into a chain"):
// every row of the source chain moves, money and history exactly as they were, keys keep working both ways; a clash
// is listed with nothing changed; a merge that cannot be done as asked is refused with its reason.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../../src/modules/accounts/service.js';
import { mergeVenueIntoChain, type MergeOutcome } from '../../../src/flows/chain-merge.js';
import { MERGED_TABLES } from '../../../src/modules/accounts/repo.js';
import * as catalogue from '../../../src/modules/catalogue/service.js';
import * as dashboard from '../../../src/dashboard/service.js';
import * as imports from '../../../src/modules/imports/service.js';
import * as members from '../../../src/modules/members/service.js';
import { endpointSecret } from '../../../src/modules/webhooks/sender.js';
import { openSecretBox } from '../../../src/shared/secret-box.js';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createProgram, createTable, createVenue, ledgerSum, newCardNumber, PROGRAM_SETTINGS, revokeKey, seedLedger } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';

const t = useTestApp();

const merge = (venue: string, chain: string): Promise<MergeOutcome> =>
  t.db.transaction().execute((trx) => mergeVenueIntoChain(trx, openSecretBox(t.config), venue, chain));

const csv = (text: string) => new Blob([text], { type: 'text/csv' });
const dinner = (amount: number) => [{ name: 'Dinner', quantity: 1, unit_price: amount }];
const settings = { manual_adjustments_allowed: true };

/** Rows of each table (and chains, venues) that belong to the chain. */
async function rowsOf(chainId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['chains', 'venues', ...MERGED_TABLES]) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where chain_id = ${chainId}`.execute(t.db);
    counts[table] = rows[0]!.n;
  }
  return counts;
}

/** Every row of the chains' tables as text, to show that a refused merge changed nothing. */
async function snapshot(chainIds: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of ['chains', 'venues', ...MERGED_TABLES]) {
    const { rows } = await sql<{ row: string }>`
      select x::text as row from ${sql.table(table)} x where chain_id in (${sql.join(chainIds)}) order by 1`.execute(t.db);
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

/** Each member of the chain with their stored totals. */
async function totalsOf(chainId: string) {
  const { rows } = await sql<{ id: string; cashback: string; spend: string; visits: number; stamps: number }>`
    select id, cashback, spend, visits, stamps from members where chain_id = ${chainId} order by id`.execute(t.db);
  return rows.map((r) => ({ id: r.id, cashback: Number(r.cashback), spend: Number(r.spend), visits: r.visits, stamps: r.stamps }));
}

/**
 * A venue (a chain of one) with a bit of everything: members with money, checks, a refund, a hold, a visit, a scan,
 * a menu, a table and an order, a catalogue, a finished import with a bad line, an erased member, an owner signed in,
 * a webhook endpoint with a delivery, a stored Idempotency-Key answer, and a chain endpoint made by a chain key since
 * revoked.
 */
async function busyVenue(shared: { sku: string; category: string }) {
  const venue = await createVenue(t, { settings });
  const { key, secret } = await createKey(t, venue);
  const api = client(t, secret);
  // Cashback that expires: earnings are kept in lots.
  await createProgram(t, venue, 'cashback', { settings: { ...PROGRAM_SETTINGS.cashback, cashback_expires_after_days: 365 } });
  const stamps = await createProgram(t, venue, 'stamps');

  const card = newCardNumber();
  const anna = ok(await api.post('/api/v1/members', { card_number: card, consent: true, phone: '087 765 4321', name: 'Anna' }), 'enrol').body;
  // Her phone holds her wallet pass (as the pass web service registers it): it goes with her.
  await sql`insert into apple_pass_registrations (chain_id, member_id, device_library_id, push_token, created_at, updated_at)
    values (${venue.chainId}, ${anna.id}, ${`device-${venue.slug}`}, 'push-token', now(), now())`.execute(t.db);
  // She saved it to Google Wallet too; the checks below queue updates to both.
  await sql`insert into google_wallet_objects (chain_id, member_id) values (${venue.chainId}, ${anna.id})`.execute(t.db);
  ok(await api.post('/api/v1/checks', { external_id: 'B-1', member_id: anna.id, line_items: dinner(20_000) }), 'earn');
  await seedLedger(t, venue, { memberId: anna.id, kind: 'import', cashback: 5_000 });
  ok(await api.post('/api/v1/checks', { external_id: 'B-2', member_id: anna.id, redeem_amount: 700, line_items: dinner(3_000) }), 'redeem');
  ok(await api.post('/api/v1/transactions/B-1/refunds', { external_id: 'R-1', amount: 1_000 }), 'refund');
  ok(await api.post('/api/v1/holds', { member_id: anna.id, amount: 500 }), 'hold');
  ok(await api.post(`/api/v1/members/${anna.id}/adjustments`, { amount: 250, reason: 'welcome' }), 'adjust');
  const stamper = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, program_id: stamps.id }), 'enrol').body;
  ok(await api.post('/api/v1/visits', { member_id: stamper.id, external_id: 'V-1' }), 'visit');
  ok(await api.post('/api/v1/scans', { code: stamper.serial }), 'scan');
  const idempotentBody = { card_number: newCardNumber(), consent: true };
  const idempotent = ok(await api.post('/api/v1/members', idempotentBody, { 'idempotency-key': 'enrol-1' }), 'enrol once').body;

  ok(await api.put('/api/v1/menu/items/tea', { name: 'Tea', price: 300 }), 'dish');
  const table = await createTable(t, venue);
  ok(await client(t, null).post(`/api/public/v1/menus/${venue.slug}/orders`, { table_code: table.tableCode, items: [{ external_id: 'tea', quantity: 1 }] }), 'order');

  ok(await api.put(`/api/v1/catalog/products/${shared.sku}`, { name: 'Flat white', category: shared.category, price: 350 }), 'shared product');
  ok(await api.put(`/api/v1/catalog/products/own-${venue.slug}`, { name: 'Scone', category: 'bakery', price: 250 }), 'own product');
  // The venue's own rules for a category (D21): one the target has too (equal), one of its own.
  await catalogue.setVenueCategoryRules(t.db, accounts.placeOf(venue), shared.category, { payable_with_cashback: false }, SYSTEM);
  await catalogue.setVenueCategoryRules(t.db, accounts.placeOf(venue), 'bakery', { cashback_percent: 10 }, SYSTEM);

  ok(await api.post('/api/v1/members/imports', csv(`card_number,consent_date,opening_balance\n${newCardNumber()},2024-05-01,1200\n,2024-05-01,0\n`)), 'import');
  while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-0000000000aa'));
  // A finished import's uploaded chunks are gone; one that failed for good keeps them, as this one now does.
  const { rows: done } = await sql<{ id: string }>`select id from member_imports where chain_id = ${venue.chainId}`.execute(t.db);
  await sql`insert into member_import_chunks (chain_id, import_id, seq, bytes) values (${venue.chainId}, ${done[0]!.id}, 0, ${Buffer.from('card_number\n')})`.execute(t.db);

  const gone = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
  ok(await api.post(`/api/v1/members/${gone.id}/erase`), 'erase');

  const owner = await accounts.createOwner(t.db, { chainId: venue.chainId, venueId: venue.id, email: `${venue.slug}@example.com`, password: 'correct horse battery' });
  await dashboard.openSession(t.db, owner, { ip: '127.0.0.1', userAgent: 'test' }, t.clock.now());
  // An invitation waiting to be accepted: it spoke for this chain, so the merge ends it.
  await accounts.inviteUser(t.db, { chainId: venue.chainId, venueId: venue.id, at: t.clock.now(), ...SYSTEM }, { email: `invited-${venue.slug}@example.com`, role: 'staff' });

  const endpoint = ok(await api.post('/api/v1/webhook_endpoints', { url: `https://hooks.example.com/${venue.slug}` }), 'endpoint').body;
  t.dns.set(`${venue.slug}.example.com`, ['93.184.216.34']);
  const pinged = ok(await api.post('/api/v1/webhook_endpoints', { url: `https://${venue.slug}.example.com/hook` }), 'endpoint').body;
  t.dns.set(`${venue.slug}.example.com`, ['127.0.0.1']);
  await api.post(`/api/v1/webhook_endpoints/${pinged.id}/test`);

  const chainKey = await createChainKey(t, venue.chainId);
  const chainEndpoint = ok(await client(t, chainKey.secret).post('/api/v1/webhook_endpoints', { url: 'https://hooks.example.com/chain' }), 'chain endpoint').body;
  const { rows: ownerless } = await sql<{ venue_id: string | null }>`select venue_id from webhook_endpoints where id = ${chainEndpoint.id}`.execute(t.db);
  expect(ownerless).toEqual([{ venue_id: null }]);
  // A campaign of the whole chain (venue_ids null): after the merge, of the venue alone.
  const campaign = ok(await client(t, chainKey.secret).post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 300 }), 'campaign').body;
  expect(campaign.venue_ids).toBeNull();
  // A Square connection of the whole chain, with its log and a payment it handled: after the merge, the venue's.
  const square = ok(
    await client(t, chainKey.secret).post('/api/v1/integrations', { provider: 'square', locations: { [`SQ-${venue.slug}`]: venue.id }, settings: { access_token: 'EAAA-merge', webhook_signature_key: 'sig-merge' } }),
    'connect Square',
  ).body;
  await sql`insert into integration_log (chain_id, integration_id, id, kind, outcome, created_at, updated_at)
    values (${venue.chainId}, ${square.id}, gen_random_uuid(), 'square.payment', 'applied', now(), now())`.execute(t.db);
  await sql`insert into integration_handled (chain_id, integration_id, provider_key, venue_id, external_id)
    values (${venue.chainId}, ${square.id}, 'order:O-1', ${venue.id}, 'B-1')`.execute(t.db);
  await revokeKey(t, chainKey.key);

  return { venue, key, api, anna, card, stamper, idempotent, idempotentBody, endpoint, chainEndpoint, chainKey, campaign };
}

describe('chain merge', () => {
  it('moves the venue and every row of its chain; money and history as they were; keys work both ways', async () => {
    const shared = { sku: `sku-${newCardNumber()}`, category: `coffee-${newCardNumber()}` };
    // The target: a chain of two venues, a default program, a member with a balance, a chain key in use.
    const a = await createVenue(t, { settings });
    const a2 = await createVenue(t, { chainId: a.chainId });
    const targetProgram = await createProgram(t, a, 'cashback');
    const apiA = client(t, (await createKey(t, a)).secret);
    const aCard = newCardNumber();
    const aoife = ok(await apiA.post('/api/v1/members', { card_number: aCard, consent: true }), 'enrol').body;
    await seedLedger(t, a, { memberId: aoife.id, kind: 'import', cashback: 3_000 });
    ok(await apiA.put(`/api/v1/catalog/products/${shared.sku}`, { name: 'Flat white', category: shared.category, price: 350 }), 'shared product');
    const targetChainKey = client(t, (await createChainKey(t, a.chainId)).secret);
    expect((await targetChainKey.get('/api/v1/account')).body.chain.venues).toHaveLength(2);

    const b = await busyVenue(shared);
    const sourceChain = b.venue.chainId;
    expect(sourceChain).not.toBe(b.venue.id);
    // Anna's referral code is one the target has already (drawn alike by chance): the merge draws hers again.
    await sql`update members set referral_code = ${aoife.referral_code} where chain_id = ${sourceChain} and id = ${b.anna.id}`.execute(t.db);
    const before = await rowsOf(sourceChain);
    const targetBefore = await rowsOf(a.chainId);
    // Every table holding a chain's rows has some of the source's: the merge is seen moving each.
    expect(Object.entries(before).filter(([, n]) => n === 0).map(([table]) => table)).toEqual([]);
    const totals = await totalsOf(sourceChain);
    const annaBefore = ok(await b.api.get(`/api/v1/members/${b.anna.id}`), 'read').body;
    expect((await b.api.get('/api/v1/account')).body.chain.id).toBe(sourceChain); // cached by the authenticator now

    const outcome = await merge(b.venue.slug, a.chainId);
    if (outcome.status !== 'merged') throw new Error(JSON.stringify(outcome));
    expect(outcome.into.venues.sort()).toEqual([a.slug, a2.slug, b.venue.slug].sort());
    // The equal category and product are kept once (the target's); the source's erasure key came with its hashes.
    expect(outcome.foldedProducts).toEqual([shared.sku]);
    expect(outcome.foldedCategories).toEqual([shared.category]);
    expect(outcome.erasureKey).toBe('source');
    expect(outcome.endpointsGivenToVenue).toEqual([b.chainEndpoint.id]);
    for (const table of ['venues', ...MERGED_TABLES] as const) {
      const folded = table === 'catalog_products' || table === 'catalog_categories' ? 1 : 0;
      expect(outcome.moved[table], table).toBe(before[table]! - folded);
    }

    // Nothing of the source chain is left anywhere; the target holds what both held.
    expect(Object.values(await rowsOf(sourceChain)).every((n) => n === 0)).toBe(true);
    const after = await rowsOf(a.chainId);
    for (const table of MERGED_TABLES) {
      const folded = table === 'catalog_products' || table === 'catalog_categories' ? 1 : 0;
      const key = table === 'member_erasure_keys' ? 0 : targetBefore[table]!; // the target had none to keep
      // Anna's card now shows the target's brand: a push to her device and an update of her Google object are queued.
      const told = table === 'wallet_updates' ? 2 : 0;
      expect(after[table], table).toBe(key + before[table]! - folded + told);
    }
    expect((await accounts.findVenue(t.db, b.venue.id))!.chainId).toBe(a.chainId);

    // Balances and the ledger exactly as they were; each balance is the sum of its ledger.
    expect((await totalsOf(a.chainId)).filter((m) => totals.some((s) => s.id === m.id))).toEqual(totals);
    for (const m of totals) expect(await ledgerSum(t, m.id), m.id).toBe(m.cashback);
    expect(await members.verifyTotals(t.db)).toEqual([]);
    const annaAfter = ok(await b.api.get(`/api/v1/members/${b.anna.id}`), 'read').body;
    // All as it was but the referral code the target had too (drawn again, checked below).
    expect({ ...annaAfter, referral_code: annaBefore.referral_code }).toEqual(annaBefore);

    // One default program: the target's.
    const { rows: defaults } = await sql<{ id: string }>`select id from programs where chain_id = ${a.chainId} and is_default`.execute(t.db);
    expect(defaults.map((p) => p.id)).toEqual([targetProgram.id]);

    // The venue's old key finds the target's members; the target's keys find the venue's.
    const account = ok(await b.api.get('/api/v1/account'), 'account').body;
    expect(account.chain.id).toBe(a.chainId);
    expect(account.venue.id).toBe(b.venue.id);
    expect(ok(await b.api.get(`/api/v1/members/lookup?card_number=${aCard}`), 'lookup').body.id).toBe(aoife.id);
    expect(ok(await apiA.get(`/api/v1/members/lookup?card_number=${b.card}`), 'lookup').body.id).toBe(b.anna.id);
    expect(ok(await apiA.get('/api/v1/members/lookup?phone=%2B353877654321'), 'lookup').body.id).toBe(b.anna.id);
    expect(ok(await apiA.get(`/api/v1/members/lookup?barcode=${b.stamper.serial}`), 'lookup').body.id).toBe(b.stamper.id);
    // Money crosses: the venue's member redeems at the target's venue, the target's member earns at the venue.
    ok(await apiA.post('/api/v1/checks', { external_id: 'A-1', member_id: b.anna.id, redeem_amount: 100, line_items: dinner(1_000) }), 'redeem at A');
    ok(await b.api.post('/api/v1/checks', { external_id: 'B-9', card_number: aCard, line_items: dinner(1_000) }), 'earn at B');
    // The chain key of the target acts at the venue now.
    expect((await targetChainKey.get('/api/v1/account')).body.chain.venues.map((v: { id: string }) => v.id)).toContain(b.venue.id);
    ok(await targetChainKey.post('/api/v1/checks', { venue_id: b.venue.id, external_id: 'B-10', line_items: dinner(500) }), 'chain key at B');
    // The venue's stored Idempotency-Key answer is replayed, its history and checks still its own.
    const replay = ok(await b.api.post('/api/v1/members', b.idempotentBody, { 'idempotency-key': 'enrol-1' }), 'replay');
    expect(replay.body).toEqual(b.idempotent);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(ok(await b.api.get('/api/v1/transactions/B-1'), 'transaction').body.venue_id).toBe(b.venue.id);
    expect(ok(await b.api.get(`/api/v1/webhook_endpoints/${b.endpoint.id}`), 'endpoint').body.id).toBe(b.endpoint.id);
    const annaCode = ok(await b.api.get(`/api/v1/members/${b.anna.id}`), 'anna').body.referral_code;
    expect(annaCode).toMatch(/^[0-9A-F]{10}$/);
    expect(annaCode).not.toBe(aoife.referral_code);
    // The merged chain's campaign pays at its venue only, not at the target's venues.
    expect(ok(await b.api.get(`/api/v1/campaigns/${b.campaign.id}`), 'campaign').body.venue_ids).toEqual([b.venue.id]);

    // The venue's own category rules hold in the target chain, the shared category's on the target's category.
    const { rows: venueRules } = await sql<{ external_id: string; payable: boolean; percent: number | null }>`
      select c.external_id, r.payable_with_cashback as payable, r.cashback_percent_bp as percent
      from category_venue_rules r join catalog_categories c on c.chain_id = r.chain_id and c.id = r.category_id
      where r.chain_id = ${a.chainId} and r.venue_id = ${b.venue.id} order by c.external_id`.execute(t.db);
    expect(venueRules).toEqual([
      { external_id: 'bakery', payable: true, percent: 1000 },
      { external_id: shared.category, payable: false, percent: null },
    ]);
    const { rows: sharedRows } = await sql<{ n: number }>`
      select count(*)::int as n from catalog_categories where chain_id = ${a.chainId} and external_id = ${shared.category}`.execute(t.db);
    expect(sharedRows).toEqual([{ n: 1 }]);

    // The chain endpoint of the source is the venue's now, its secret sealed for it (the target's other venues' events do not reach it).
    const { rows: endpoints } = await sql<{ chain_id: string; venue_id: string | null; id: string; secret: string; secret_key_id: string | null }>`
      select chain_id, venue_id, id, secret, secret_key_id from webhook_endpoints where id = ${b.chainEndpoint.id}`.execute(t.db);
    expect(endpoints[0]).toMatchObject({ chain_id: a.chainId, venue_id: b.venue.id });
    expect(openSecretBox(t.config).open(endpointSecret(endpoints[0]!))).toMatch(/^whsec_/);
    // And the revoked chain key of the source stays revoked, as one of the venue's keys.
    const { rows: oldKey } = await sql<{ venue_id: string; revoked: boolean }>`
      select venue_id, revoked_at is not null as revoked from api_keys where id = ${b.chainKey.key.id}`.execute(t.db);
    expect(oldKey).toEqual([{ venue_id: b.venue.id, revoked: true }]);
    expect(await members.verifyTotals(t.db)).toEqual([]);
  });

  it('lists every clash of card, serial, phone, e-mail, category and SKU, and changes nothing', async () => {
    const a = await createVenue(t);
    await createProgram(t, a, 'cashback');
    const apiA = client(t, (await createKey(t, a)).secret);
    const b = await createVenue(t);
    await createProgram(t, b, 'cashback');
    const apiB = client(t, (await createKey(t, b)).secret);
    const enrol = async (api: typeof apiA, body: Record<string, unknown> = {}) =>
      ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, ...body }), 'enrol').body;

    const card = newCardNumber();
    const targetCard = await enrol(apiA, { card_number: card });
    const sourceCard = await enrol(apiB, { card_number: card });
    // A card number at the venue that is a serial in the target: a scan of it would find two members.
    const targetSerial = await enrol(apiA);
    const sourceBySerial = await enrol(apiB, { card_number: targetSerial.serial });
    const targetPhone = await enrol(apiA, { phone: '087 111 2222' });
    const sourcePhone = await enrol(apiB, { phone: '087 111 2222' });
    // A phone held by an erased member is no clash: erased, they are found by no phone.
    await enrol(apiA, { phone: '087 333 4444' });
    const erased = await enrol(apiB, { phone: '087 333 4444' });
    const targetEmail = await enrol(apiA, { email: 'both@example.com' });
    const sourceEmail = await enrol(apiB, { email: 'Both@Example.com' });
    ok(await apiB.post(`/api/v1/members/${erased.id}/erase`), 'erase');
    await t.db.transaction().execute((trx) => catalogue.putCategoryWithRules(trx, accounts.ownerCaller(a), 'wine', { name: 'Wine', payable_with_cashback: false }));
    ok(await apiB.put('/api/v1/catalog/categories/wine', { name: 'Wine' }), 'category');
    ok(await apiA.put('/api/v1/catalog/categories/beer', { name: 'Beer' }), 'category'); // equal: no clash
    ok(await apiB.put('/api/v1/catalog/categories/beer', { name: 'Beer' }), 'category');
    ok(await apiA.put('/api/v1/catalog/products/FW', { name: 'Flat white', price: 350 }), 'product');
    ok(await apiB.put('/api/v1/catalog/products/FW', { name: 'Flat white', price: 380 }), 'product');

    const before = await snapshot([a.chainId, b.chainId]);
    const outcome = await merge(b.id, a.slug);
    expect(outcome).toEqual({
      status: 'conflicts',
      venue: { id: b.id, slug: b.slug },
      into: { id: a.chainId, slug: a.slug },
      conflicts: expect.arrayContaining([]),
    });
    if (outcome.status !== 'conflicts') return;
    expect(new Set(outcome.conflicts)).toEqual(
      new Set([
        { kind: 'card_number', value: card, source: { memberId: sourceCard.id, as: 'card_number' }, target: { memberId: targetCard.id, as: 'card_number' } },
        { kind: 'card_number', value: targetSerial.serial, source: { memberId: sourceBySerial.id, as: 'card_number' }, target: { memberId: targetSerial.id, as: 'serial' } },
        { kind: 'phone', value: '+353871112222', source: { memberId: sourcePhone.id }, target: { memberId: targetPhone.id } },
        { kind: 'email', value: 'both@example.com', source: { memberId: sourceEmail.id }, target: { memberId: targetEmail.id } },
        {
          kind: 'category',
          value: 'wine',
          source: { name: 'Wine', earnsCashback: true, payableWithCashback: true, cashbackPercentBp: null },
          target: { name: 'Wine', earnsCashback: true, payableWithCashback: false, cashbackPercentBp: null },
        },
        {
          kind: 'product',
          value: 'FW',
          source: { name: 'Flat white', category: null, price: 380 },
          target: { name: 'Flat white', category: null, price: 350 },
        },
      ]),
    );
    expect(await snapshot([a.chainId, b.chainId])).toEqual(before);
    expect((await apiB.get('/api/v1/account')).body.chain.id).toBe(b.chainId);
  });

  it('refuses what cannot be merged as asked, with the reason, and changes nothing', async () => {
    const target = await createVenue(t);
    const reason = async (venue: string, chain: string) => {
      const outcome = await merge(venue, chain);
      return outcome.status === 'refused' ? outcome.reason : `not refused: ${outcome.status}`;
    };
    expect(await reason('no-such-venue', target.slug)).toBe('No venue with id or slug "no-such-venue".');
    const lone = await createVenue(t);
    expect(await reason(lone.slug, 'no-such-chain')).toBe('No chain with id or slug "no-such-chain".');
    expect(await reason(target.slug, target.slug)).toMatch(/is in the chain .* already/);

    // One venue of a chain of two: its members are the chain's.
    const sibling = await createVenue(t, { chainId: lone.chainId });
    expect(await reason(sibling.slug, target.slug)).toMatch(/shares its chain .* only venue of a chain can be merged/);

    const pounds = await createVenue(t, { currency: 'GBP' });
    expect(await reason(pounds.slug, target.slug)).toMatch(/counts in GBP and the chain .* in EUR/);

    const withChainKey = await createVenue(t);
    const chainKey = await createChainKey(t, withChainKey.chainId, { name: 'HQ' });
    expect(await reason(withChainKey.slug, target.slug)).toContain(`chain keys that work (${chainKey.key.id} "HQ")`);
    await revokeKey(t, chainKey.key);

    const importing = await createVenue(t);
    await createProgram(t, importing, 'cashback');
    const apiImporting = client(t, (await createKey(t, importing)).secret);
    const upload = ok(await apiImporting.post('/api/v1/members/imports', csv(`card_number,consent_date\n${newCardNumber()},2024-05-01\n`)), 'import').body;
    expect(await reason(importing.slug, target.slug)).toContain(`member imports not finished yet (${upload.id})`);
    while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-0000000000bb'));

    // Both chains keep erased cards, each under its own key: one chain holds one key.
    const erasing = async (venue: accounts.Venue) => {
      await createProgram(t, venue, 'cashback');
      const api = client(t, (await createKey(t, venue)).secret);
      const m = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
      ok(await api.post(`/api/v1/members/${m.id}/erase`), 'erase');
    };
    const erasedTarget = await createVenue(t);
    const erasedSource = await createVenue(t);
    await erasing(erasedTarget);
    await erasing(erasedSource);
    const before = await snapshot([erasedTarget.chainId, erasedSource.chainId]);
    expect(await reason(erasedSource.slug, erasedTarget.slug)).toMatch(/Both chains have erased members .* cannot be merged/);
    expect(await snapshot([erasedTarget.chainId, erasedSource.chainId])).toEqual(before);

    // Refusals lifted, the same merges go through.
    expect((await merge(withChainKey.slug, target.slug)).status).toBe('merged');
    expect((await merge(importing.slug, target.slug)).status).toBe('merged');
  });

  it("keeps the source's default program when the target has none", async () => {
    const target = await createVenue(t);
    const source = await createVenue(t);
    const program = await createProgram(t, source, 'cashback');
    expect(program.isDefault).toBe(true);
    const outcome = await merge(source.id, target.chainId);
    expect(outcome).toMatchObject({ status: 'merged', programNoLongerDefault: null, erasureKey: 'target' });
    const { rows } = await sql<{ id: string }>`select id from programs where chain_id = ${target.chainId} and is_default`.execute(t.db);
    expect(rows.map((r) => r.id)).toEqual([program.id]);
    // And a new member at the target's venue joins it.
    const api = client(t, (await createKey(t, target)).secret);
    expect(ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body.program_id).toBe(program.id);
    // Both chains' audit logs record the merge; what is written after it (the key made above) is the target's.
    const { rows: log } = await sql<{ chain_id: string; action: string; actor_type: string }>`select chain_id, action, actor_type from audit_events
      where chain_id in (${source.chainId}, ${target.chainId}) and action in ('chain.merged', 'api_key.created') order by chain_id = ${target.chainId}, action`.execute(t.db);
    expect(log).toEqual([
      { chain_id: source.chainId, action: 'chain.merged', actor_type: 'cli' },
      { chain_id: target.chainId, action: 'api_key.created', actor_type: 'system' },
      { chain_id: target.chainId, action: 'chain.merged', actor_type: 'cli' },
    ]);
  });

  it('knows every table that holds a chain\'s rows', async () => {
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'chain_id' order by 1`.execute(t.db);
    // The audit log stays under the chain each entry was written in (D24): a merge moves none of it. The source's
    // brand goes with its chain: the target's brand is what guests see after; so do its invitation and reset links,
    // which spoke for it.
    const unmoved = new Set(['chains', 'venues', 'audit_events', 'chain_brands', 'user_links']);
    expect(rows.map((r) => r.table_name).filter((n) => !unmoved.has(n))).toEqual([...MERGED_TABLES].sort());
  });
});
