// Idempotency-Key (D6): replays, reuse with another body, concurrency, refusals remembered, 24-hour memory; the money
// routes (check, refund, void, hold, adjustment); what is never stored (defect 4); the query string (defect 5).
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runMutationWithStatus } from '../../src/http/idempotency.js';
import * as accounts from '../../src/modules/accounts/service.js';
import type { ApiError } from '../../src/shared/errors.js';
import { startTestApp, useTestApp, type TestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { createChainKey, createKey, createProgram, createVenue, ledgerSum, newCardNumber, seedLedger, venueWithKey } from '../support/factories.js';
import { client, expectError, type Response } from '../support/http.js';

const t = useTestApp();
const body = { url: 'https://hooks.example.com/idem' };

async function countEndpoints(venue: accounts.Venue): Promise<number> {
  const row = await t.db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chain_id', '=', venue.chainId)
    .where('venue_id', '=', venue.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('Idempotency-Key', () => {
  it('a replay returns the same status and body with Idempotent-Replayed: true, and creates nothing more', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const first = await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'create-1' });
    const again = await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'create-1' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The signing secret is shown once: the replay is the same endpoint without it (docs/webhooks.md).
    const { secret: shownOnce, ...endpoint } = first.body;
    expect(shownOnce).toMatch(/^whsec_/);
    expect(again.body).toEqual(endpoint);
    expect(await countEndpoints(venue)).toBe(1);
  });

  it('the same key with a different body is 400 idempotency_key_reused', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'k2' });
    const res = await api.post('/api/v1/webhook_endpoints', { ...body, description: 'other' }, { 'idempotency-key': 'k2' });
    expectError(res, 400, 'idempotency_key_reused', 'idempotency_error');
  });

  it('key order in the JSON body does not make a different request', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/webhook_endpoints', { url: body.url, description: 'd' }, { 'idempotency-key': 'k3' });
    const res = await api.post('/api/v1/webhook_endpoints', { description: 'd', url: body.url }, { 'idempotency-key': 'k3' });
    expect(res.headers['idempotent-replayed']).toBe('true');
  });

  it('two concurrent requests with one key create exactly one object', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const results = await Promise.all(
      Array.from({ length: 2 }, () => api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'race' })),
    );
    expect(await countEndpoints(venue)).toBe(1);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 409, 'idempotency_key_in_use', 'idempotency_error');
  });

  // PGlite has one connection, so a second request simply waits its turn; PostgreSQL shows the in-flight case.
  it.runIf(onPostgres())('a request while the first with the same key is still running is 409 idempotency_key_in_use', async () => {
    const { venue, secret } = await venueWithKey(t);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = t.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${venue.chainId}:${venue.id}:in-flight`}, 0))`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'in-flight' });
    release();
    await first;
    expectError(res, 409, 'idempotency_key_in_use', 'idempotency_error');
  });

  it('a refusal by the service is remembered and replayed with the current request id', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    t.dns.set('flaky.example.com', ['10.0.0.1']);
    const first = await api.post('/api/v1/webhook_endpoints', { url: 'https://flaky.example.com/x' }, { 'idempotency-key': 'k4' });
    expectError(first, 400, 'parameter_invalid');
    t.dns.set('flaky.example.com', ['93.184.216.34']);
    const again = await api.post('/api/v1/webhook_endpoints', { url: 'https://flaky.example.com/x' }, { 'idempotency-key': 'k4' });
    expectError(again, 400, 'parameter_invalid');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.error).toEqual(first.body.error);
    expect(again.body.request_id).not.toBe(first.body.request_id);
    expect(await countEndpoints(venue)).toBe(0);
  });

  it('keys are scoped to the venue and shared by its keys', async () => {
    const a = await venueWithKey(t);
    const b = await venueWithKey(t);
    const { secret: a2 } = await createKey(t, a.venue);
    const first = await client(t, a.secret).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'shared' });
    const sameVenue = await client(t, a2).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'shared' });
    const otherVenue = await client(t, b.secret).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'shared' });
    expect(sameVenue.body.id).toBe(first.body.id);
    expect(otherVenue.status).toBe(201);
    expect(otherVenue.headers['idempotent-replayed']).toBeUndefined();
  });

  it('is remembered for 24 hours', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'day' });
    t.clock.advance(23 * 3600_000);
    expect((await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'day' })).headers['idempotent-replayed']).toBe('true');
    t.clock.advance(2 * 3600_000);
    const fresh = await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'day' });
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await countEndpoints(venue)).toBe(2);
  });

  it('works on PATCH and DELETE, and refuses a malformed key', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const { body: created } = await api.post('/api/v1/webhook_endpoints', body);
    const path = `/api/v1/webhook_endpoints/${created.id}`;
    await api.delete(path, { 'idempotency-key': 'del' });
    const again = await api.delete(path, { 'idempotency-key': 'del' });
    expect([again.status, again.headers['idempotent-replayed'], again.body.deleted]).toEqual([200, 'true', true]);
    const bad = await api.patch(path, { description: 'x' }, { 'idempotency-key': 'x'.repeat(256) });
    expect(expectError(bad, 400, 'parameter_invalid').param).toBe('Idempotency-Key');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The money routes (issue 9): a check, a refund, a void, a hold and an adjustment under an Idempotency-Key.

type Api = ReturnType<typeof client>;

/** A venue with a 5 % cashback program, adjustments allowed, and one member holding `balance` cents. */
async function moneyVenue(app: TestApp, opts: { balance?: number; rules?: Record<string, unknown> } = {}) {
  const venue = await createVenue(app, { settings: { manual_adjustments_allowed: true } });
  await createProgram(app, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
  const api = client(app, (await createKey(app, venue, { rules: opts.rules })).secret);
  const enrolled = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
  expect(enrolled.status).toBe(201);
  const member = enrolled.body;
  if (opts.balance) await seedLedger(app, venue, { memberId: member.id, kind: 'import', cashback: opts.balance });
  const check = (externalId: string, price: number, extra: Record<string, unknown> = {}) => ({
    external_id: externalId,
    member_id: member.id,
    line_items: [{ name: 'Dinner', quantity: 1, unit_price: price }],
    ...extra,
  });
  return { venue, api, member, check };
}

/** What the test reads back after each step: the member as the API shows it, and the rows behind it. */
async function figures(app: TestApp, api: Api, memberId: string) {
  const member = await api.get(`/api/v1/members/${memberId}`);
  expect(member.status).toBe(200);
  const count = async (query: ReturnType<typeof sql<{ n: string | number }>>) => Number((await query.execute(app.db)).rows[0]!.n);
  return {
    balance: member.body.balance as number,
    held: member.body.held as number,
    available: member.body.available as number,
    ledgerRows: await count(sql`select count(*) as n from ledger_entries where member_id = ${memberId}`),
    ledgerSum: await ledgerSum(app, memberId),
    transactions: await count(sql`select count(*) as n from transactions where member_id = ${memberId}`),
    completed: await count(sql`select count(*) as n from transactions where member_id = ${memberId} and status = 'completed'`),
    holds: await count(sql`select count(*) as n from holds where member_id = ${memberId}`),
    refunds: await count(sql`
      select count(*) as n from refunds r join transactions x on x.id = r.transaction_id where x.member_id = ${memberId}`),
  };
}

/** The second answer is the first one replayed: same status and body, marked Idempotent-Replayed. */
function expectReplay(again: Response, first: Response) {
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  expect([again.status, again.headers['idempotent-replayed']]).toEqual([first.status, 'true']);
  expect(again.body).toEqual(first.body);
}

describe('Idempotency-Key on the money routes', () => {
  // A check claims its key in the statement that locks the member and keeps its answer in its one write (issue 21).
  it('checks sent at once under one key: one applies, the rest replay it or are told the key is in use; other bodies are refused', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    const before = await figures(t, api, member.id);
    const body = check('IK-RACE', 2000, { redeem_amount: 300 });
    const sends = [
      ...Array.from({ length: 6 }, () => api.post('/api/v1/checks', body, { 'idempotency-key': 'race-check' })),
      api.post('/api/v1/checks', check('IK-RACE-OTHER', 2000), { 'idempotency-key': 'race-check' }),
    ];
    const results = await Promise.all(sends);
    const applied = results.filter((r) => r.status === 201);
    expect(applied.length, JSON.stringify(results.map((r) => r.status))).toBeGreaterThanOrEqual(1);
    expect(new Set(applied.map((r) => r.body.id)).size).toBe(1);
    for (const r of results.slice(0, 6).filter((r) => r.status !== 201)) expectError(r, 409, 'idempotency_key_in_use', 'idempotency_error');
    const other = results[6]!;
    if (other.status === 400) expectError(other, 400, 'idempotency_key_reused', 'idempotency_error');
    else if (other.status === 409) expectError(other, 409, 'idempotency_key_in_use', 'idempotency_error');
    else expect(other.body.external_id, 'the other body applied: the key was free then, so the six were refused').toBe('IK-RACE-OTHER');
    const after = await figures(t, api, member.id);
    const checks = applied.length > 0 ? 1 : 0;
    expect(after.transactions - before.transactions).toBe(checks + (other.status === 201 ? 1 : 0));
    expect(after.balance).toBe(after.ledgerSum);
    const again = await api.post('/api/v1/checks', body, { 'idempotency-key': 'race-check' });
    expect(again.body.id === applied[0]!.body.id || again.body.error?.code === 'idempotency_key_reused').toBe(true);
  });

  it("a chain key's Idempotency-Key is one request at one venue: the same key and body for another venue is refused, nothing applied there", async () => {
    const first = await createVenue(t);
    const second = await createVenue(t, { chainId: first.chainId });
    await createProgram(t, first, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 10 }] } });
    const api = client(t, (await createChainKey(t, first.chainId)).secret);
    const member = (await api.post('/api/v1/members', { venue_id: first.id, card_number: newCardNumber(), consent: true })).body;
    const body = (venueId: string) => ({ venue_id: venueId, external_id: 'CK-1', member_id: member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 10_000 }] });
    const atFirst = await api.post('/api/v1/checks', body(first.id), { 'idempotency-key': 'chain-1' });
    expect([atFirst.status, atFirst.body.venue_id, atFirst.body.earned]).toEqual([201, first.id, 1000]);
    expectReplay(await api.post('/api/v1/checks', body(first.id), { 'idempotency-key': 'chain-1' }), atFirst);
    expectError(await api.post('/api/v1/checks', body(second.id), { 'idempotency-key': 'chain-1' }), 400, 'idempotency_key_reused', 'idempotency_error');
    expect((await api.get(`/api/v1/transactions/CK-1?venue_id=${second.id}`)).status).toBe(404);
    const atSecond = await api.post('/api/v1/checks', body(second.id), { 'idempotency-key': 'chain-2' });
    expect([atSecond.status, atSecond.body.venue_id, atSecond.body.earned]).toEqual([201, second.id, 1000]);
    expect((await api.get(`/api/v1/members/${member.id}`)).body.balance).toBe(2000);
  });

  it.runIf(onPostgres())('a check while its key is held by a request still running is 409 idempotency_key_in_use and applies nothing', async () => {
    const { venue, api, member, check } = await moneyVenue(t, { balance: 1000 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = t.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${venue.chainId}:${venue.id}:held-check`}, 0))`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const res = await api.post('/api/v1/checks', check('IK-HELD', 2000, { redeem_amount: 300 }), { 'idempotency-key': 'held-check' });
    release();
    await first;
    expectError(res, 409, 'idempotency_key_in_use', 'idempotency_error');
    expect((await figures(t, api, member.id)).transactions).toBe(0);
    const retried = await api.post('/api/v1/checks', check('IK-HELD', 2000, { redeem_amount: 300 }), { 'idempotency-key': 'held-check' });
    expect(retried.status).toBe(201);
  });

  it('a check: replayed once applied, another body under the key is refused and applies nothing', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    const body = check('IK-C1', 2000, { redeem_amount: 300 });
    const first = await api.post('/api/v1/checks', body, { 'idempotency-key': 'check-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'transaction', external_id: 'IK-C1', redeemed: 300, earned: 85 });
    const after = await figures(t, api, member.id);
    expect(after).toMatchObject({ balance: 1000 - 300 + 85, available: 785, ledgerSum: 785, transactions: 1 });

    expectReplay(await api.post('/api/v1/checks', body, { 'idempotency-key': 'check-1' }), first);
    expect(await figures(t, api, member.id)).toEqual(after);

    const other = await api.post('/api/v1/checks', check('IK-C2', 2000, { redeem_amount: 300 }), { 'idempotency-key': 'check-1' });
    expectError(other, 400, 'idempotency_key_reused', 'idempotency_error');
    const sameIdOtherAmount = await api.post('/api/v1/checks', check('IK-C1', 2500), { 'idempotency-key': 'check-1' });
    expectError(sameIdOtherAmount, 400, 'idempotency_key_reused', 'idempotency_error');
    expect(await figures(t, api, member.id)).toEqual(after);
    expect((await api.get('/api/v1/transactions/IK-C2')).status).toBe(404);
  });

  it('a refund: replayed once refunded, another body under the key is refused and refunds nothing', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    expect((await api.post('/api/v1/checks', check('IK-R', 2000, { redeem_amount: 1000 }))).body).toMatchObject({ earned: 50, refundable: 1000 });
    const before = await figures(t, api, member.id);
    const body = { external_id: 'IK-RF-1', amount: 300 };
    const first = await api.post('/api/v1/transactions/IK-R/refunds', body, { 'idempotency-key': 'refund-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'refund', amount: 300, earned_reversed: 15, redeemed_returned: 300, transaction: { refundable: 700 } });
    const after = await figures(t, api, member.id);
    expect(after).toMatchObject({ balance: before.balance - 15 + 300, refunds: 1 });
    expect(after.ledgerRows).toBeGreaterThan(before.ledgerRows);
    expect(after.ledgerSum).toBe(after.balance);

    expectReplay(await api.post('/api/v1/transactions/IK-R/refunds', body, { 'idempotency-key': 'refund-1' }), first);
    expect(await figures(t, api, member.id)).toEqual(after);

    const other = await api.post('/api/v1/transactions/IK-R/refunds', { external_id: 'IK-RF-2', amount: 200 }, { 'idempotency-key': 'refund-1' });
    expectError(other, 400, 'idempotency_key_reused', 'idempotency_error');
    expect(await figures(t, api, member.id)).toEqual(after);
    expect((await api.get('/api/v1/transactions/IK-R')).body).toMatchObject({ refunded_amount: 300, refundable: 700 });
  });

  it('a void: replayed once voided, the same key on another transaction is refused and voids nothing', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    await api.post('/api/v1/checks', check('IK-V1', 2000, { redeem_amount: 400 }));
    await api.post('/api/v1/checks', check('IK-V2', 1000));
    const before = await figures(t, api, member.id);
    const first = await api.post('/api/v1/transactions/IK-V1/void', undefined, { 'idempotency-key': 'void-1' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ external_id: 'IK-V1', status: 'voided', refundable: 0 });
    const after = await figures(t, api, member.id);
    // IK-V1 redeemed 400 and earned 80: the void gives the 400 back and takes the 80.
    expect(after).toMatchObject({ balance: before.balance + 400 - 80, completed: 1 });
    expect(after.ledgerRows).toBeGreaterThan(before.ledgerRows);

    expectReplay(await api.post('/api/v1/transactions/IK-V1/void', undefined, { 'idempotency-key': 'void-1' }), first);
    expect(await figures(t, api, member.id)).toEqual(after);

    const other = await api.post('/api/v1/transactions/IK-V2/void', undefined, { 'idempotency-key': 'void-1' });
    expectError(other, 400, 'idempotency_key_reused', 'idempotency_error');
    expect(await figures(t, api, member.id)).toEqual(after);
    expect((await api.get('/api/v1/transactions/IK-V2')).body.status).toBe('completed');
  });

  it('a hold: replayed once created, another amount under the key is refused and holds nothing more', async () => {
    const { api, member } = await moneyVenue(t, { balance: 1000 });
    const body = { member_id: member.id, amount: 400 };
    const first = await api.post('/api/v1/holds', body, { 'idempotency-key': 'hold-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'hold', amount: 400, status: 'active' });
    const after = await figures(t, api, member.id);
    expect(after).toMatchObject({ balance: 1000, held: 400, available: 600, holds: 1 });

    const again = await api.post('/api/v1/holds', body, { 'idempotency-key': 'hold-1' });
    expectReplay(again, first);
    expect(again.body.id).toBe(first.body.id);
    expect(await figures(t, api, member.id)).toEqual(after);

    expectError(await api.post('/api/v1/holds', { member_id: member.id, amount: 300 }, { 'idempotency-key': 'hold-1' }), 400, 'idempotency_key_reused', 'idempotency_error');
    expect(await figures(t, api, member.id)).toEqual(after);
  });

  it('a hold capture: replayed once captured, the same key on another hold is refused and captures nothing', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    const hold = (await api.post('/api/v1/holds', { member_id: member.id, amount: 400 })).body;
    const other = (await api.post('/api/v1/holds', { member_id: member.id, amount: 100 })).body;
    expect((await api.post('/api/v1/checks', check('IK-C', 2000))).body).toMatchObject({ earned: 100, redeemed: 0 });
    const before = await figures(t, api, member.id);
    expect(before).toMatchObject({ balance: 1100, held: 500 });
    const first = await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'IK-C' }, { 'idempotency-key': 'capture-1' });
    expect(first.status).toBe(200);
    // 2000 less the 400 held is paid; 5 % of 1600 is 80 earned instead of 100.
    expect(first.body).toMatchObject({ external_id: 'IK-C', redeemed: 400, paid: 1600, earned: 80, hold_id: hold.id });
    const after = await figures(t, api, member.id);
    expect(after).toMatchObject({ balance: 1000 - 400 + 80, held: 100 });

    expectReplay(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'IK-C' }, { 'idempotency-key': 'capture-1' }), first);
    expect(await figures(t, api, member.id)).toEqual(after);
    expectError(await api.post(`/api/v1/holds/${other.id}/capture`, { external_id: 'IK-C' }, { 'idempotency-key': 'capture-1' }), 400, 'idempotency_key_reused', 'idempotency_error');
    expect(await figures(t, api, member.id)).toEqual(after);
    expect((await api.get(`/api/v1/holds/${other.id}`)).body.status).toBe('active');
  });

  it('a refusal made before the key is claimed is kept too: the same key with another body is refused, nothing applied', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    const card = member.card_numbers[0];
    // A hold naming the member twice; a capture of a hold id of no shape; a check with a quantity of too many decimals.
    const refusals: [string, unknown, string, unknown][] = [
      ['/api/v1/holds', { member_id: member.id, card_number: card, amount: 100 }, '/api/v1/holds', { member_id: member.id, amount: 100 }],
      ['/api/v1/holds/nope/capture', { external_id: 'IK-PRE' }, '/api/v1/checks', check('IK-PRE-2', 1000)],
      ['/api/v1/checks', check('IK-PRE-3', 1000, { line_items: [{ name: 'Dinner', quantity: 1.2345, unit_price: 1000 }] }), '/api/v1/checks', check('IK-PRE-4', 1000)],
    ];
    await api.post('/api/v1/checks', check('IK-PRE', 1000));
    const before = await figures(t, api, member.id);
    for (const [i, [path, body, otherPath, otherBody]] of refusals.entries()) {
      const key = { 'idempotency-key': `pre-claim-${i}` };
      const first = await api.post(path, body, key);
      expect(first.status, JSON.stringify(first.body)).toBeGreaterThanOrEqual(400);
      const again = await api.post(path, body, key);
      expect([i, again.status, again.headers["idempotent-replayed"], again.body.error.code]).toEqual([i, first.status, "true", first.body.error.code]);
      expectError(await api.post(otherPath, otherBody, key), 400, 'idempotency_key_reused', 'idempotency_error');
    }
    expect(await figures(t, api, member.id)).toEqual(before);
  });

  it('an answer that writes nothing (a void of a voided check, a refund replayed by its external_id) is kept under a new key too', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    await api.post('/api/v1/checks', check('IK-N1', 2000));
    await api.post('/api/v1/checks', check('IK-N2', 2000));
    await api.post('/api/v1/transactions/IK-N1/void');
    const refunded = await api.post('/api/v1/transactions/IK-N2/refunds', { external_id: 'IK-NR', amount: 500 });
    expect(refunded.status).toBe(201);
    const after = await figures(t, api, member.id);

    const voided = await api.post('/api/v1/transactions/IK-N1/void', undefined, { 'idempotency-key': 'nothing-1' });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ external_id: 'IK-N1', status: 'voided' });
    expectReplay(await api.post('/api/v1/transactions/IK-N1/void', undefined, { 'idempotency-key': 'nothing-1' }), voided);

    const again = await api.post('/api/v1/transactions/IK-N2/refunds', { external_id: 'IK-NR', amount: 500 }, { 'idempotency-key': 'nothing-2' });
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([200, 'true']);
    const replayed = await api.post('/api/v1/transactions/IK-N2/refunds', { external_id: 'IK-NR', amount: 500 }, { 'idempotency-key': 'nothing-2' });
    expect([replayed.status, replayed.headers['idempotent-replayed'], replayed.body]).toEqual([200, 'true', again.body]);
    expect(await figures(t, api, member.id)).toEqual(after);
  });

  it('an adjustment: replayed once adjusted, another amount under the key is refused and adjusts nothing', async () => {
    const { api, member } = await moneyVenue(t, { balance: 1000 });
    const path = `/api/v1/members/${member.id}/adjustments`;
    const before = await figures(t, api, member.id);
    const first = await api.post(path, { amount: 250, reason: 'Birthday gift' }, { 'idempotency-key': 'adjust-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'adjustment', amount: 250, balance: 1250 });
    const after = await figures(t, api, member.id);
    expect(after).toMatchObject({ balance: 1250, available: 1250, ledgerSum: 1250, ledgerRows: before.ledgerRows + 1 });

    expectReplay(await api.post(path, { amount: 250, reason: 'Birthday gift' }, { 'idempotency-key': 'adjust-1' }), first);
    expect(await figures(t, api, member.id)).toEqual(after);

    expectError(await api.post(path, { amount: 300, reason: 'Birthday gift' }, { 'idempotency-key': 'adjust-1' }), 400, 'idempotency_key_reused', 'idempotency_error');
    expect(await figures(t, api, member.id)).toEqual(after);
    expect((await api.get('/api/v1/events?type=balance.adjusted')).body.data.filter((e: any) => e.data.object.member_id === member.id)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Defect 4 (issue 9): a transient refusal is not an answer. balance_conflict, idempotency_key_in_use, rate_limited
// and any 5xx are never stored; a refusal by the domain (400, 402) is, and is replayed.

/**
 * Makes every ledger write for one member fail with `errcode` (a plain SQL trigger, so PGlite and PostgreSQL both
 * run it); returns the function that removes it again.
 */
async function failLedgerWrites(app: TestApp, memberId: string, errcode: string): Promise<() => Promise<void>> {
  if (!/^[0-9a-f-]{36}$/i.test(memberId)) throw new Error(`unexpected member id ${memberId}`);
  if (!/^[a-z_0-9]+$/i.test(errcode)) throw new Error(`unexpected errcode ${errcode}`);
  const name = `idem_fail_${randomBytes(4).toString('hex')}`;
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as $fn$
       begin
         if new.member_id::text = '${memberId}' then
           raise exception 'provoked by test/http/idempotency.test.ts' using errcode = '${errcode}';
         end if;
         return new;
       end
       $fn$`,
    )
    .execute(app.db);
  await sql.raw(`create trigger ${name} before insert on ledger_entries for each row execute function ${name}()`).execute(app.db);
  return async () => {
    await sql.raw(`drop trigger if exists ${name} on ledger_entries`).execute(app.db);
    await sql.raw(`drop function if exists ${name}()`).execute(app.db);
  };
}

describe('what an Idempotency-Key remembers (defect 4)', () => {
  it('a 409 balance_conflict is not stored: the retry with the same key applies the check', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    const body = check('IK-BC', 2000, { redeem_amount: 300 });
    const before = await figures(t, api, member.id);
    const restore = await failLedgerWrites(t, member.id, 'serialization_failure');
    let conflict: Response;
    try {
      conflict = await api.post('/api/v1/checks', body, { 'idempotency-key': 'conflict-1' });
    } finally {
      await restore();
    }
    expectError(conflict, 409, 'balance_conflict', 'invalid_request_error');
    expect(await figures(t, api, member.id)).toEqual(before);

    const retry = await api.post('/api/v1/checks', body, { 'idempotency-key': 'conflict-1' });
    expect([retry.status, retry.headers['idempotent-replayed'], retry.body.error]).toEqual([201, undefined, undefined]);
    expect(retry.body).toMatchObject({ external_id: 'IK-BC', redeemed: 300, earned: 85 });
    expect(await figures(t, api, member.id)).toMatchObject({ balance: 785, ledgerSum: 785, transactions: 1 });
    // The applied check is now what the key remembers.
    expectReplay(await api.post('/api/v1/checks', body, { 'idempotency-key': 'conflict-1' }), retry);
  });

  it('a 5xx is not stored: the retry with the same key applies the check', async () => {
    const { api, member, check } = await moneyVenue(t, { balance: 1000 });
    const body = check('IK-5XX', 1000);
    const restore = await failLedgerWrites(t, member.id, 'raise_exception');
    let failed: Response;
    try {
      failed = await api.post('/api/v1/checks', body, { 'idempotency-key': 'broken-1' });
    } finally {
      await restore();
    }
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.body.error.type).toBe('api_error');
    const retry = await api.post('/api/v1/checks', body, { 'idempotency-key': 'broken-1' });
    expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([201, undefined]);
    expect(await figures(t, api, member.id)).toMatchObject({ balance: 1050, transactions: 1 });
  });

  it('a refusal by the domain (402 insufficient_balance) is an answer: stored and replayed, though it would now apply', async () => {
    const { venue, api, member, check } = await moneyVenue(t, { balance: 1000 });
    const body = check('IK-402', 3000, { redeem_amount: 1500 });
    const first = await api.post('/api/v1/checks', body, { 'idempotency-key': 'poor-1' });
    expect(expectError(first, 402, 'insufficient_balance').available).toBe(1000);
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 5000 });
    const before = await figures(t, api, member.id);
    const again = await api.post('/api/v1/checks', body, { 'idempotency-key': 'poor-1' });
    expectError(again, 402, 'insufficient_balance');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.error).toEqual(first.body.error);
    expect(await figures(t, api, member.id)).toEqual(before);
    expect(before.transactions).toBe(0);
    // Without the key the same check is a new request, and applies.
    expect((await api.post('/api/v1/checks', body)).status).toBe(201);
  });

  it('a 400 parameter_invalid from the domain is stored and replayed', async () => {
    const { api, member } = await moneyVenue(t, { balance: 1000 });
    const path = `/api/v1/members/${member.id}/adjustments`;
    const first = await api.post(path, { amount: 0, reason: 'nothing' }, { 'idempotency-key': 'zero-1' });
    expect(expectError(first, 400, 'parameter_invalid').param).toBe('amount');
    const again = await api.post(path, { amount: 0, reason: 'nothing' }, { 'idempotency-key': 'zero-1' });
    expectError(again, 400, 'parameter_invalid');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.error).toEqual(first.body.error);
    expectError(await api.post(path, { amount: 10, reason: 'nothing' }, { 'idempotency-key': 'zero-1' }), 400, 'idempotency_key_reused', 'idempotency_error');
    expect(await figures(t, api, member.id)).toMatchObject({ balance: 1000, ledgerRows: 1 });
  });

  it('a 429 rate_limited is not stored: once the window has passed, the same key applies the check', async () => {
    const limited = await startTestApp({ config: { rateLimitPerMinute: 2 } });
    try {
      const { api, member, check } = await moneyVenue(limited, { balance: 1000 }); // request 1: enrolment
      const body = check('IK-429', 2000);
      expect((await api.get(`/api/v1/members/${member.id}`)).status).toBe(200); // request 2
      const refused = await api.post('/api/v1/checks', body, { 'idempotency-key': 'busy-1' });
      expectError(refused, 429, 'rate_limited', 'rate_limit_error');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      limited.clock.advance(60_001);
      const retry = await api.post('/api/v1/checks', body, { 'idempotency-key': 'busy-1' });
      expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([201, undefined]);
      expect(retry.body).toMatchObject({ external_id: 'IK-429', earned: 100 });
      limited.clock.advance(60_001);
      expect(await figures(limited, api, member.id)).toMatchObject({ balance: 1100, transactions: 1 });
    } finally {
      await limited.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Defect 5 (issue 9): the fingerprint covers method, path, query and body.

describe('the fingerprint covers the query string (defect 5)', () => {
  it('void ?register_id=A then ?register_id=B under one key: B is refused as a different request and stays completed', async () => {
    const { api, member, check } = await moneyVenue(t, { rules: { checks_numbered_per_register: true } });
    const a = await api.post('/api/v1/checks', check('IK-X', 1000, { register_id: 'till-A' }));
    const b = await api.post('/api/v1/checks', check('IK-X', 1000, { register_id: 'till-B' }));
    expect([a.status, b.status, a.body.earned, b.body.earned]).toEqual([201, 201, 50, 50]);
    expect(a.body.id).not.toBe(b.body.id);

    const voidA = await api.post('/api/v1/transactions/IK-X/void?register_id=till-A', undefined, { 'idempotency-key': 'void-reg' });
    expect(voidA.status).toBe(200);
    expect(voidA.body).toMatchObject({ id: a.body.id, register_id: 'till-A', status: 'voided' });
    const voidB = await api.post('/api/v1/transactions/IK-X/void?register_id=till-B', undefined, { 'idempotency-key': 'void-reg' });
    expectError(voidB, 400, 'idempotency_key_reused', 'idempotency_error');
    expect((await api.get('/api/v1/transactions/IK-X?register_id=till-B')).body).toMatchObject({ id: b.body.id, status: 'completed' });
    expect(await figures(t, api, member.id)).toMatchObject({ balance: 50, completed: 1 });

    // The same query again is the same request: replayed.
    expectReplay(await api.post('/api/v1/transactions/IK-X/void?register_id=till-A', undefined, { 'idempotency-key': 'void-reg' }), voidA);
    // The same parameters written another way (percent-encoded) are the same request.
    const encoded = await api.post('/api/v1/transactions/IK-X/void?register_id=till%2DA', undefined, { 'idempotency-key': 'void-reg' });
    expectReplay(encoded, voidA);
    // Without a query string it is another request too.
    expectError(await api.post('/api/v1/transactions/IK-X/void', undefined, { 'idempotency-key': 'void-reg' }), 400, 'idempotency_key_reused', 'idempotency_error');
    // B voided under its own key.
    const ownKey = await api.post('/api/v1/transactions/IK-X/void?register_id=till-B', undefined, { 'idempotency-key': 'void-reg-b' });
    expect(ownKey.body).toMatchObject({ id: b.body.id, status: 'voided' });
    expect(await figures(t, api, member.id)).toMatchObject({ balance: 0, completed: 0 });
  });

  // No route under /api/v1 that changes anything takes more than one query parameter today (void takes only
  // register_id; unknown parameters are 400), so the order of parameters is checked on runMutationWithStatus itself,
  // with a request shaped as Fastify hands it over.
  it('the order of query parameters does not make a different request; their values do', async () => {
    const { venue } = await venueWithKey(t);
    let runs = 0;
    const call = (query: string) => {
      const { req, reply } = fakeRequest(t, venue, 'POST', `/api/v1/things/1/act?${query}`, 'order-1');
      return runMutationWithStatus(req, reply, async () => ({ status: 201, body: { run: ++runs } })).then(
        (body) => ({ body, status: reply.statusCode, replayed: reply.headers['idempotent-replayed'] }),
        (err: unknown) => ({ error: (err as ApiError).code }),
      );
    };
    expect(await call('a=1&b=2')).toEqual({ body: { run: 1 }, status: 201, replayed: undefined });
    expect(await call('b=2&a=1')).toEqual({ body: { run: 1 }, status: 201, replayed: 'true' });
    expect(await call('a=1&b=3')).toEqual({ error: 'idempotency_key_reused' });
    expect(await call('a=1')).toEqual({ error: 'idempotency_key_reused' });
    expect(runs).toBe(1);
  });
});

/** A Fastify request and reply, as far as runMutationWithStatus reads and writes them. */
function fakeRequest(app: TestApp, venue: accounts.Venue, method: string, url: string, key: string) {
  const query = Object.fromEntries(new URLSearchParams(url.split('?')[1] ?? ''));
  const req = {
    id: `req_${randomBytes(4).toString('hex')}`,
    method,
    url,
    originalUrl: url,
    query,
    params: {},
    body: undefined,
    headers: { 'idempotency-key': key },
    routeOptions: { url: url.split('?')[0], method },
    server: app.app,
    caller: accounts.ownerCaller(venue),
  } as unknown as FastifyRequest;
  const reply = {
    statusCode: 200,
    headers: {} as Record<string, string>,
    code(status: number) {
      this.statusCode = status;
      return this;
    },
    status(status: number) {
      this.statusCode = status;
      return this;
    },
    header(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
      return this;
    },
  };
  return { req, reply: reply as unknown as FastifyReply & typeof reply };
}
