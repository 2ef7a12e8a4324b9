// Holds: reserve, capture through a check (a smaller redeem releases the rest), release, exact expiry by the clock.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, ledgerSum, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

async function setUp(rules?: Record<string, unknown>) {
  const venue = await createVenue(t);
  await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
  const api = client(t, (await createKey(t, venue, { rules })).secret);
  const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
  await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 1000 });
  const read = async () => (await api.get(`/api/v1/members/${member.id}`)).body;
  const check = (externalId: string, extra: Record<string, unknown>) => ({
    external_id: externalId,
    line_items: [{ name: 'Dinner', quantity: 1, unit_price: 2000 }],
    ...extra,
  });
  return { api, member, read, check };
}

describe('holds', () => {
  it('20 holds of 300 sent at once from 1000 available: exactly 3 succeed; what each waited behind is seen', async () => {
    // A request that waited for the member's lock must read the holds made meanwhile (on PostgreSQL, a statement
    // that waited sees other rows as of its own start): held is read after the lock, never with it.
    const { api, member, read } = await setUp();
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post('/api/v1/holds', { member_id: member.id, amount: 300 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    for (const refused of answers.filter((a) => a.status !== 201)) expectError(refused, 402, 'insufficient_balance');
    expect(await read()).toMatchObject({ balance: 1000, held: 900, available: 100 });
  });

  it('moves the amount from available to held; more than available is 402', async () => {
    const { api, member, read } = await setUp();
    const hold = await api.post('/api/v1/holds', { card_number: member.card_numbers[0], amount: 400 });
    expect(hold.status).toBe(201);
    expect(hold.body).toMatchObject({ object: 'hold', member_id: member.id, amount: 400, status: 'active', captured_amount: null });
    expect(Date.parse(hold.body.expires_at) - t.clock.now().getTime()).toBe(900_000);
    expect(await read()).toMatchObject({ balance: 1000, held: 400, available: 600 });
    expect(expectError(await api.post('/api/v1/holds', { member_id: member.id, amount: 601 }), 402, 'insufficient_balance').available).toBe(600);
  });

  it('a check with hold_id captures it; a smaller redeem_amount releases the rest', async () => {
    const { api, read, member, check } = await setUp();
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member.id, amount: 500 });
    const applied = await api.post('/api/v1/checks', check('HC-1', { hold_id: hold.id, redeem_amount: 300 }));
    expect(applied.body).toMatchObject({ redeemed: 300, hold_id: hold.id, member_id: member.id });
    expect((await api.get(`/api/v1/holds/${hold.id}`)).body).toMatchObject({ status: 'captured', captured_amount: 300, captured_by: 'HC-1' });
    const m = await read();
    expect(m).toMatchObject({ held: 0, balance: 1000 - 300 + applied.body.earned, available: 1000 - 300 + applied.body.earned });
    // Named in the body, the error names the field; named in the path, it names none (issue 25, item 3).
    expect(expectError(await api.post('/api/v1/checks', check('HC-2', { hold_id: hold.id })), 409, 'hold_captured').param).toBe('hold_id');
    expect(expectError(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'HC-1' }), 409, 'hold_captured').param).toBeUndefined();
    expect(expectError(await api.post(`/api/v1/holds/${hold.id}/release`), 409, 'hold_captured').param).toBeUndefined();
  });

  it('without redeem_amount the check redeems the whole hold', async () => {
    const { api, member, check } = await setUp();
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member.id, amount: 250 });
    expect((await api.post('/api/v1/checks', check('HC-3', { hold_id: hold.id }))).body.redeemed).toBe(250);
  });

  it('expires exactly at expires_at by the clock: held frees, the hold cannot be captured or released', async () => {
    const { api, member, read, check } = await setUp();
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member.id, amount: 400, expires_in: 60 });
    t.clock.advance(59_999);
    expect((await read()).held).toBe(400);
    t.clock.advance(1);
    expect((await api.get(`/api/v1/holds/${hold.id}`)).body.status).toBe('expired');
    expect(await read()).toMatchObject({ held: 0, available: 1000 });
    expectError(await api.post('/api/v1/checks', check('HE-1', { hold_id: hold.id })), 409, 'hold_expired');
    expectError(await api.post(`/api/v1/holds/${hold.id}/release`), 409, 'hold_expired');
  });

  it('release gives the amount back; a released hold is 409 hold_released', async () => {
    const { api, member, read, check } = await setUp();
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member.id, amount: 400 });
    expect((await api.post(`/api/v1/holds/${hold.id}/release`)).body.status).toBe('released');
    expect((await read()).available).toBe(1000);
    expectError(await api.post('/api/v1/checks', check('HR-1', { hold_id: hold.id })), 409, 'hold_released');
    expectError(await api.post(`/api/v1/holds/${hold.id}/release`), 409, 'hold_released');
  });

  it('hold_required when the key redeems only through holds; a hold of another member is refused', async () => {
    const { api, member, check } = await setUp({ redeem_only_via_holds: true });
    expectError(await api.post('/api/v1/checks', check('HQ-1', { member_id: member.id, redeem_amount: 100 })), 400, 'hold_required');
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member.id, amount: 100 });
    const { body: other } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(expectError(await api.post('/api/v1/checks', check('HQ-2', { member_id: other.id, hold_id: hold.id })), 400, 'parameter_invalid').param).toBe('hold_id');
    expect((await api.post('/api/v1/checks', check('HQ-3', { hold_id: hold.id }))).status).toBe(201);
    expectError(await api.get('/api/v1/holds/00000000-0000-7000-8000-000000000000'), 404, 'hold_not_found');
  });
});

describe('POST /v1/holds/{id}/capture', () => {
  it('pays an applied check with the hold: redeemed, earned and paid are worked out again; the ledger moves by the difference', async () => {
    const { api, member, read, check } = await setUp();
    const applied = await api.post('/api/v1/checks', check('CAP-1', { member_id: member.id }));
    expect(applied.body).toMatchObject({ redeemed: 0, earned: 100, paid: 2000 });
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member.id, amount: 500 });
    const captured = await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-1' });
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ external_id: 'CAP-1', redeemed: 500, earned: 75, paid: 1500, hold_id: hold.id, refundable: 1500 });
    expect(captured.body.line_items[0]).toMatchObject({ redeemed: 500, earned: 75 });
    expect((await api.get(`/api/v1/holds/${hold.id}`)).body).toMatchObject({ status: 'captured', captured_amount: 500, captured_by: 'CAP-1' });
    const m = await read();
    expect(m).toMatchObject({ balance: 1000 + 100 - 500 - 25, held: 0, total_spend: 1500, visits: 1 });
    expect(await ledgerSum(t, member.id)).toBe(m.balance);
    expect((await api.get('/api/v1/transactions/CAP-1')).body).toEqual(captured.body);
  });

  it('a smaller redeem_amount releases the rest; only a fresh check of the same member can take a hold', async () => {
    const { api, member, read, check } = await setUp();
    await api.post('/api/v1/checks', check('CAP-2', { member_id: member.id }));
    await api.post('/api/v1/checks', check('CAP-3', { member_id: member.id, redeem_amount: 100 }));
    const { body: other } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    await api.post('/api/v1/checks', check('CAP-4', { member_id: other.id }));
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member.id, amount: 400 });
    expect(expectError(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-3' }), 400, 'parameter_invalid').param).toBe('external_id');
    expect(expectError(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-4' }), 400, 'parameter_invalid').param).toBe('external_id');
    expectError(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'NOPE' }), 404, 'transaction_not_found');
    expect((await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-2', redeem_amount: 150 })).body.redeemed).toBe(150);
    expect((await read()).held).toBe(0);
    expectError(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-2' }), 409, 'hold_captured');
  });
});
