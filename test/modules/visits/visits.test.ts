// Visits (stamps, visit counts, idempotent by external_id) and scans (and the card_scan_required rule on checks).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

async function memberOf(type: 'stamps' | 'cashback' | 'visit_discount', rules?: Record<string, unknown>) {
  const venue = await createVenue(t);
  await createProgram(t, venue, type);
  const api = client(t, (await createKey(t, venue, { rules })).secret);
  const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Anna Kowalska' });
  return { venue, api, member };
}

describe('visits', () => {
  it('a stamps member gets stamps_per_visit and a visit; the same external_id again replays; transaction.completed is raised', async () => {
    const { api, member } = await memberOf('stamps');
    const first = await api.post('/api/v1/visits', { card_number: member.card_numbers[0], external_id: 'door-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'visit', external_id: 'door-1', stamps_earned: 1, member: { visits: 1, stamps: { count: 1 } } });
    expect(first.body.display.receipt[0]).toBe('Visit recorded: +1 stamp');
    const again = await api.post('/api/v1/visits', { card_number: member.card_numbers[0], external_id: 'door-1' });
    expect([again.status, again.headers['idempotent-replayed'], again.body.id]).toEqual([200, 'true', first.body.id]);
    expect((await api.get(`/api/v1/members/${member.id}`)).body.visits).toBe(1);
    expect((await api.get('/api/v1/events?type=transaction.completed')).body.data[0].data.object.id).toBe(first.body.id);
  });

  it('a visit-discount member moves up a tier with visits', async () => {
    const { api, member } = await memberOf('visit_discount');
    for (let i = 0; i < 3; i++) await api.post('/api/v1/visits', { member_id: member.id });
    expect((await api.get(`/api/v1/members/${member.id}`)).body).toMatchObject({ visits: 3, discount_percent: 5 });
  });

  it('a cashback member → 400 visit_not_supported', async () => {
    const { api, member } = await memberOf('cashback');
    expectError(await api.post('/api/v1/visits', { member_id: member.id }), 400, 'visit_not_supported', 'invalid_request_error');
  });
});

describe('scans', () => {
  it('resolves a card number or a serial to the member; unknown codes are 404', async () => {
    const { api, member } = await memberOf('stamps');
    for (const code of [member.card_numbers[0], member.serial]) {
      const res = await api.post('/api/v1/scans', { code });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ object: 'scan', member: { id: member.id } });
      expect(res.body.display.cashier).toMatch(/^Anna K\. · stamps 0\/5/);
    }
    expectError(await api.post('/api/v1/scans', { code: 'NOT-A-CARD' }), 404, 'member_not_found');
  });

  it('card_scan_required: a check needs a scan of the card by the same key within the window', async () => {
    const { venue, api, member } = await memberOf('cashback', { card_scan_required: true });
    const body = (id: string) => ({ external_id: id, member_id: member.id, line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] });
    expectError(await api.post('/api/v1/checks', body('S-1')), 403, 'scan_required', 'permission_error');
    const otherTill = client(t, (await createKey(t, venue, { rules: { card_scan_required: true } })).secret);
    await otherTill.post('/api/v1/scans', { code: member.card_numbers[0] });
    expectError(await api.post('/api/v1/checks', body('S-1')), 403, 'scan_required');
    await api.post('/api/v1/scans', { code: member.card_numbers[0] });
    expect((await api.post('/api/v1/checks', body('S-1'))).status).toBe(201);
    t.clock.advance(121_000);
    expectError(await api.post('/api/v1/checks', body('S-2')), 403, 'scan_required');
  });
});
