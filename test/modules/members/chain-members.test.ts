// Members of a chain (D21): one member and one balance at every venue of the chain, invisible to every other chain.
import { describe, expect, it } from 'vitest';
import { importMembers } from '../../../src/modules/members/bulk-import.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((m) => m.id);

/** Two venues of one chain (A, where the member enrols, and B) and a venue of another chain, with a key each. */
async function chainOfTwo() {
  const settings = { manual_adjustments_allowed: true };
  const a = await createVenue(t, { settings });
  const b = await createVenue(t, { chainId: a.chainId, settings });
  const other = await createVenue(t);
  await createProgram(t, a, 'cashback');
  await createProgram(t, other, 'cashback');
  const key = async (venue: typeof a) => client(t, (await createKey(t, venue)).secret);
  return { a, b, apiA: await key(a), apiB: await key(b), apiOther: await key(other) };
}

describe('a member of a chain', () => {
  it('enrolled at venue A is found at venue B by id, card, barcode and phone, and listed there', async () => {
    const { a, b, apiA, apiB } = await chainOfTwo();
    expect(b.chainId).toBe(a.chainId);
    const card = newCardNumber();
    const enrolled = await apiA.post('/api/v1/members', { card_number: card, consent: true, phone: '087 123 4567', name: 'Aoife Byrne' });
    expect(enrolled.status).toBe(201);
    const m = enrolled.body;
    expect(m.home_venue_id).toBe(a.id);

    const atB = await apiB.get(`/api/v1/members/${m.id}`);
    expect(atB.status).toBe(200);
    expect(atB.body).toMatchObject({ id: m.id, home_venue_id: a.id, card_numbers: [card] });
    for (const query of [`card_number=${card}`, `barcode=${m.barcode.value}`, `barcode=${m.serial}`, 'phone=%2B353871234567']) {
      expect((await apiB.get(`/api/v1/members/lookup?${query}`)).body.id, query).toBe(m.id);
    }
    expect(ids(await apiB.get('/api/v1/members'))).toContain(m.id);
  });

  it('?venue_id= filters by home venue; a venue key may name its own venue only (403 venue_not_allowed)', async () => {
    const { a, b, apiA, apiB } = await chainOfTwo();
    const { body: m } = await apiA.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    const { body: atB } = await apiB.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(atB.home_venue_id).toBe(b.id);

    expect(ids(await apiA.get(`/api/v1/members?venue_id=${a.id}`))).toEqual([m.id]);
    expect(ids(await apiB.get(`/api/v1/members?venue_id=${b.id}`))).toEqual([atB.id]);
    expect(ids(await apiB.get('/api/v1/members'))).toEqual([atB.id, m.id]);
    expect(expectError(await apiB.get(`/api/v1/members?venue_id=${a.id}`), 403, 'venue_not_allowed').param).toBe('venue_id');
  });

  it('a card number given out at A cannot be enrolled at B', async () => {
    const { apiA, apiB } = await chainOfTwo();
    const card = newCardNumber();
    const { body: m } = await apiA.post('/api/v1/members', { card_number: card, consent: true });
    expect(expectError(await apiB.post('/api/v1/members', { card_number: card, consent: true }), 409, 'card_number_taken').param).toBe('card_number');
    const { body: other } = await apiB.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expectError(await apiB.post(`/api/v1/members/${other.id}/cards`, { card_number: card }), 409, 'card_number_taken');
    expectError(await apiB.post(`/api/v1/members/${other.id}/cards`, { card_number: m.serial }), 409, 'card_number_taken');
  });

  it('has one balance: what a hold at B keeps is held at A too; history entries name the venue where they happened', async () => {
    const { a, b, apiA, apiB } = await chainOfTwo();
    const { body: m } = await apiA.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect((await apiA.post(`/api/v1/members/${m.id}/adjustments`, { amount: 1000, reason: 'Welcome' })).status).toBe(201);
    expect((await apiB.post(`/api/v1/members/${m.id}/adjustments`, { amount: -200, reason: 'Broken glass' })).status).toBe(201);
    expect((await apiB.post('/api/v1/holds', { member_id: m.id, amount: 300 })).status).toBe(201);

    expect((await apiA.get(`/api/v1/members/${m.id}`)).body).toMatchObject({ balance: 800, held: 300, available: 500 });
    const history = await apiA.get(`/api/v1/members/${m.id}/history`);
    expect(history.body.data.map((e: { reason: string; venue_id: string }) => [e.reason, e.venue_id])).toEqual([
      ['Broken glass', b.id],
      ['Welcome', a.id],
    ]);
  });

  it('is exported and erased from A with what happened at B: its check, hold and scan there', async () => {
    const { a, b, apiA, apiB } = await chainOfTwo();
    const card = newCardNumber();
    const { body: m } = await apiA.post('/api/v1/members', { card_number: card, consent: true, name: 'Siobhán Walsh' });
    const check = await apiB.post('/api/v1/checks', { external_id: 'B-1', member_id: m.id, line_items: [{ name: 'Soup', quantity: 1, unit_price: 2000 }] });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    const { body: hold } = await apiB.post('/api/v1/holds', { member_id: m.id, amount: 10 });
    expect((await apiB.post('/api/v1/scans', { code: card })).status).toBe(201);

    const doc = (await apiA.get(`/api/v1/members/${m.id}/export`)).body;
    expect(doc.transactions.map((x: { external_id: string; venue_id: string }) => [x.external_id, x.venue_id])).toEqual([['B-1', b.id]]);
    expect(doc.holds.map((h: { id: string }) => h.id)).toEqual([hold.id]);
    expect(doc.scans).toMatchObject([{ venue_id: b.id }]);
    expect(doc.member.home_venue_id).toBe(a.id);

    const erased = await apiA.post(`/api/v1/members/${m.id}/erase`);
    expect(erased.body.holds_released).toEqual([hold.id]);
    const after = (await apiA.get(`/api/v1/members/${m.id}/export`)).body;
    expect(JSON.stringify(after)).not.toContain('Siobhán');
    expect(after.transactions[0].display.cashier).toMatch(/^\[erased\] · /);
    expect(after.holds).toMatchObject([{ id: hold.id, status: 'released' }]);
  });

  it("imported at B: B is the new members' home; a card enrolled at A is the chain's already and skipped", async () => {
    const { b, apiA, apiB } = await chainOfTwo();
    const card = newCardNumber();
    await apiA.post('/api/v1/members', { card_number: card, consent: true });
    const file = `card_number,consent_date,opening_balance\n${card},2024-01-01,100\nIMP-B1,2024-01-01,250\n`;
    const target = { chainId: b.chainId, venueId: b.id, livemode: false, country: b.country, reference: 'b.csv' };
    const totals = await importMembers(t.db, target, 'csv', (async function* () { yield file; })(), { clock: t.clock });
    expect(totals).toMatchObject({ imported: 1, skipped: 1, failed: 0 });
    const { body: imported } = await apiA.get('/api/v1/members/lookup?card_number=IMP-B1');
    expect(imported).toMatchObject({ home_venue_id: b.id, balance: 250 });
    expect((await apiB.get(`/api/v1/members/${imported.id}/history`)).body.data).toMatchObject([{ type: 'import', venue_id: b.id }]);
  });

  it("is invisible to another chain's key: not found by id, card, barcode or phone, not listed", async () => {
    const { apiA, apiOther } = await chainOfTwo();
    const card = newCardNumber();
    const { body: m } = await apiA.post('/api/v1/members', { card_number: card, consent: true, phone: '087 765 4321' });
    expectError(await apiOther.get(`/api/v1/members/${m.id}`), 404, 'member_not_found');
    for (const query of [`card_number=${card}`, `barcode=${m.serial}`, 'phone=%2B353877654321']) {
      expectError(await apiOther.get(`/api/v1/members/lookup?${query}`), 404, 'member_not_found');
    }
    expectError(await apiOther.get(`/api/v1/members/${m.id}/history`), 404, 'member_not_found');
    expect((await apiOther.get('/api/v1/members')).body.data).toEqual([]);
    // Card numbers are the chain's: the other chain may give out the same one.
    expect((await apiOther.post('/api/v1/members', { card_number: card, consent: true })).status).toBe(201);
  });
});
