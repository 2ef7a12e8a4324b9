// Enrolment, look-up by every means, cards, profile, history, barcodes, scopes and tenant isolation.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger, venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';
import { needs } from '../../support/services.js';

const t = useTestApp();
const postgres = await needs('postgres');

async function venueWithProgram(country = 'IE', format: 'qr_card_number' | 'code128_card_number' | 'qr_serial' = 'qr_card_number') {
  const venue = await createVenue(t, { country, ...(country === 'RU' ? { currency: 'RUB', locale: 'ru-RU', timezone: 'Europe/Moscow' } : {}) });
  const program = await createProgram(t, venue, 'cashback', { barcodeFormat: format });
  const { secret } = await createKey(t, venue);
  return { venue, program, api: client(t, secret) };
}

describe('enrolment', () => {
  it('enrols with consent and the card; phone is stored in E.164; serial is generated', async () => {
    const { api } = await venueWithProgram();
    const card = newCardNumber();
    const res = await api.post('/api/v1/members', { card_number: card, consent: true, phone: '087 123 4567', name: 'Liam Byrne' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ card_numbers: [card], phone: '+353871234567', name: 'Liam Byrne', consent: true, livemode: false });
    expect(res.body.serial).toMatch(/^[0-9A-Z]{10}$/);
    expect(res.body.display.cashier).toMatch(/^Liam B\. · Bronze 3% · available/);
  });

  it.each([undefined, false])('consent %s → 400 parameter_invalid with param consent', async (consent) => {
    const { api } = await venueWithProgram();
    const res = await api.post('/api/v1/members', { card_number: newCardNumber(), ...(consent === undefined ? {} : { consent }) });
    expect(expectError(res, 400, 'parameter_invalid').param).toBe('consent');
  });

  it('a card number the venue already gave out → 409 card_number_taken; another venue may use it', async () => {
    const { api } = await venueWithProgram();
    const card = newCardNumber();
    await api.post('/api/v1/members', { card_number: card, consent: true });
    expect(expectError(await api.post('/api/v1/members', { card_number: card, consent: true }), 409, 'card_number_taken').param).toBe('card_number');
    const other = await venueWithProgram();
    expect((await other.api.post('/api/v1/members', { card_number: card, consent: true })).status).toBe(201);
  });

  it('an invalid phone is 400 with param phone; a venue without a program says so', async () => {
    const { api } = await venueWithProgram();
    expect(expectError(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, phone: '12' }), 400, 'parameter_invalid').param).toBe('phone');
    const bare = client(t, (await venueWithKey(t)).secret);
    const res = await bare.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(expectError(res, 400, 'parameter_invalid').message).toMatch(/no program/);
  });
});

describe('look-up', () => {
  it('finds a member by card number, by id, and answers 404 member_not_found otherwise', async () => {
    const { api } = await venueWithProgram();
    const card = newCardNumber();
    const { body: m } = await api.post('/api/v1/members', { card_number: card, consent: true });
    expect((await api.get(`/api/v1/members/lookup?card_number=${card}`)).body.id).toBe(m.id);
    expect((await api.get(`/api/v1/members/${m.id}`)).body.id).toBe(m.id);
    expectError(await api.get('/api/v1/members/lookup?card_number=NOPE'), 404, 'member_not_found');
    expectError(await api.get('/api/v1/members/00000000-0000-7000-8000-000000000000'), 404, 'member_not_found');
    expectError(await api.get('/api/v1/members/not-an-id'), 404, 'member_not_found');
    expect(expectError(await api.get('/api/v1/members/lookup'), 400, 'parameter_invalid').message).toMatch(/exactly one/);
  });

  it.each(['qr_card_number', 'code128_card_number', 'qr_serial'] as const)('finds a member by the content of a %s barcode', async (format) => {
    const { api } = await venueWithProgram('IE', format);
    const { body: m } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(m.barcode).toEqual({ format, value: format === 'qr_serial' ? m.serial : m.card_numbers[0] });
    const found = await api.get(`/api/v1/members/lookup?barcode=${encodeURIComponent(m.barcode.value)}`);
    expect(found.body.id).toBe(m.id);
  });

  it('renders the barcode as SVG', async () => {
    const { venue } = await venueWithProgram('IE', 'code128_card_number');
    const { secret } = await createKey(t, venue);
    const { body: m } = await client(t, secret).post('/api/v1/members', { card_number: 'CARD-4711', consent: true });
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/members/${m.id}/barcode.svg`, headers: { authorization: `Bearer ${secret}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.body).toMatch(/^<svg [^>]*viewBox/);
  });

  it('finds a member by phone written in several notations, read with the venue country', async () => {
    const { api } = await venueWithProgram('RU');
    const { body: m } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, phone: '8 (999) 123-45-67' });
    expect(m.phone).toBe('+79991234567');
    for (const phone of ['8 (999) 123-45-67', '+7 999 1234567', '+79991234567', '89991234567']) {
      const res = await api.get(`/api/v1/members/lookup?phone=${encodeURIComponent(phone)}`);
      expect(res.body.id, phone).toBe(m.id);
    }
  });

  it('a phone two members have is 409 member_ambiguous on look-up, never the newer of them; by card each is found', async () => {
    const { api } = await venueWithProgram();
    const [first, second] = [newCardNumber(), newCardNumber()];
    const older = (await api.post('/api/v1/members', { card_number: first, consent: true, phone: '087 555 0101' })).body;
    expect((await api.get('/api/v1/members/lookup?phone=0875550101')).body.id).toBe(older.id);
    const newer = (await api.post('/api/v1/members', { card_number: second, consent: true, phone: '+353 87 555 0101' })).body;
    const both = expectError(await api.get('/api/v1/members/lookup?phone=0875550101'), 409, 'member_ambiguous');
    expect([both.param, both.message]).toEqual(['phone', 'More than one member of this chain has this phone; look them up by card number or e-mail.']);
    expect((await api.get(`/api/v1/members/lookup?card_number=${second}`)).body.id).toBe(newer.id);
  });

  it("another venue's member is 404 member_not_found by id, card and phone", async () => {
    const mine = await venueWithProgram();
    const theirs = await venueWithProgram();
    const card = newCardNumber();
    const { body: m } = await theirs.api.post('/api/v1/members', { card_number: card, consent: true, phone: '0871112222' });
    expectError(await mine.api.get(`/api/v1/members/${m.id}`), 404, 'member_not_found');
    expectError(await mine.api.get(`/api/v1/members/lookup?card_number=${card}`), 404, 'member_not_found');
    expectError(await mine.api.get('/api/v1/members/lookup?phone=0871112222'), 404, 'member_not_found');
    expect((await mine.api.get('/api/v1/members')).body.data).toEqual([]);
  });
});

describe('e-mail', () => {
  it('is stored trimmed and lower-cased on enrolment, null when none, and found by look-up in any case', async () => {
    const { api } = await venueWithProgram();
    const res = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email: '  Liam.Byrne@Example.COM ' });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe('liam.byrne@example.com');
    expect((await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body.email).toBeNull();
    for (const email of ['liam.byrne@example.com', 'LIAM.BYRNE@example.com', ' liam.byrne@EXAMPLE.com ']) {
      const found = await api.get(`/api/v1/members/lookup?email=${encodeURIComponent(email)}`);
      expect([found.status, found.body.id], email).toEqual([200, res.body.id]);
    }
    expect((await api.get(`/api/v1/members/${res.body.id}`)).body.email).toBe('liam.byrne@example.com');
    expectError(await api.get('/api/v1/members/lookup?email=nobody@example.com'), 404, 'member_not_found');
    const two = expectError(await api.get(`/api/v1/members/lookup?email=liam.byrne@example.com&phone=0871234567`), 400, 'parameter_invalid');
    expect(two.message).toBe('Look up by exactly one of card_number, barcode, phone or email.');
  });

  it('is set, changed and cleared by an update; the old address then finds no one', async () => {
    const { api } = await venueWithProgram();
    const { body: m } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    const set = await api.patch(`/api/v1/members/${m.id}`, { email: 'Aoife@Example.com' });
    expect([set.status, set.body.email]).toEqual([200, 'aoife@example.com']);
    // The member's own address again is no conflict.
    expect((await api.patch(`/api/v1/members/${m.id}`, { email: 'AOIFE@example.com' })).status).toBe(200);
    expect((await api.patch(`/api/v1/members/${m.id}`, { email: 'aoife.b@example.com' })).body.email).toBe('aoife.b@example.com');
    expectError(await api.get('/api/v1/members/lookup?email=aoife@example.com'), 404, 'member_not_found');
    const cleared = await api.patch(`/api/v1/members/${m.id}`, { email: null });
    expect([cleared.status, cleared.body.email]).toEqual([200, null]);
    expectError(await api.get('/api/v1/members/lookup?email=aoife.b@example.com'), 404, 'member_not_found');
    // Freed: another member may take it.
    expect((await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email: 'aoife.b@example.com' })).status).toBe(201);
  });

  it('a second member of the chain with the address → 409 member_email_taken with param email, on enrolment and update', async () => {
    const { api } = await venueWithProgram();
    await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email: 'taken@example.com' });
    const card = newCardNumber();
    const enrol = expectError(await api.post('/api/v1/members', { card_number: card, consent: true, email: ' TAKEN@example.com' }), 409, 'member_email_taken');
    expect(enrol.param).toBe('email');
    expect(enrol.type).toBe('invalid_request_error');
    expectError(await api.get(`/api/v1/members/lookup?card_number=${card}`), 404, 'member_not_found');
    const { body: other } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(expectError(await api.patch(`/api/v1/members/${other.id}`, { email: 'Taken@Example.com' }), 409, 'member_email_taken').param).toBe('email');
    expect((await api.get(`/api/v1/members/${other.id}`)).body.email).toBeNull();
  });

  it.each(['no-at-sign', 'two@at@example.com', 'a b@example.com', '@example.com', 'liam@', `${'a'.repeat(250)}@example.com`])(
    'a bad address %j → 400 parameter_invalid with param email, on enrolment, update and look-up',
    async (email) => {
      const { api } = await venueWithProgram();
      expect(expectError(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email }), 400, 'parameter_invalid').param).toBe('email');
      // The member a good address enrols, then given the bad one.
      const { body: m } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email: 'good@example.com' });
      expect(m.email).toBe('good@example.com');
      expect(expectError(await api.patch(`/api/v1/members/${m.id}`, { email }), 400, 'parameter_invalid').param).toBe('email');
      expect(expectError(await api.get(`/api/v1/members/lookup?email=${encodeURIComponent(email)}`), 400, 'parameter_invalid').param).toBe('email');
      expect((await api.get(`/api/v1/members/${m.id}`)).body.email).toBe('good@example.com');
    },
  );

  it("another chain's member with the same address is neither found nor a conflict", async () => {
    const mine = await venueWithProgram();
    const theirs = await venueWithProgram();
    expect((await theirs.api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email: 'shared@example.com' })).status).toBe(201);
    expectError(await mine.api.get('/api/v1/members/lookup?email=shared@example.com'), 404, 'member_not_found');
    const own = await mine.api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email: 'shared@example.com' });
    expect([own.status, own.body.email]).toEqual([201, 'shared@example.com']);
    expect((await mine.api.get('/api/v1/members/lookup?email=shared@example.com')).body.id).toBe(own.body.id);
  });

  postgres.it('given to two members at the same moment (two updates, an update and an enrolment): one has it, the other is 409 member_email_taken', async () => {
    const { api } = await venueWithProgram();
    for (let round = 0; round < 5; round++) {
      const email = `race-${round}@example.com`;
      const [a, b] = [(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body, (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body];
      const answers = await Promise.all([
        api.patch(`/api/v1/members/${a.id}`, { email }),
        api.patch(`/api/v1/members/${b.id}`, { email }),
        api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email }),
      ]);
      const codes = answers.map((r) => (r.status < 300 ? 'ok' : `${r.status} ${r.body.error.code} ${r.body.error.param}`)).sort();
      expect(codes, `round ${round}`).toEqual(['409 member_email_taken email', '409 member_email_taken email', 'ok']);
    }
  });
});

describe('cards, profile, list, history', () => {
  it('attaches another card, updates the profile, lists with filters and shows history newest first', async () => {
    const { venue, program, api } = await venueWithProgram();
    const { body: m } = await api.post('/api/v1/members', { card_number: 'FIRST-1', consent: true });
    const attached = await api.post(`/api/v1/members/${m.id}/cards`, { card_number: 'SECOND-2' });
    expect([attached.status, attached.body.card_numbers]).toEqual([201, ['FIRST-1', 'SECOND-2']]);
    expectError(await api.post(`/api/v1/members/${m.id}/cards`, { card_number: 'FIRST-1' }), 409, 'card_number_taken');
    expect((await api.get('/api/v1/members/lookup?card_number=SECOND-2')).body.id).toBe(m.id);

    const changed = await api.patch(`/api/v1/members/${m.id}`, { name: 'Róisín Walsh', phone: '+353 87 765 4321' });
    expect(changed.body).toMatchObject({ name: 'Róisín Walsh', phone: '+353877654321' });
    const { body: other } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    const byPhone = await api.get(`/api/v1/members?phone=${encodeURIComponent('087 765 4321')}`);
    expect(byPhone.body.data.map((x: { id: string }) => x.id)).toEqual([m.id]);
    const byProgram = await api.get(`/api/v1/members?program_id=${program.id}`);
    expect(byProgram.body.data.map((x: { id: string }) => x.id)).toEqual([other.id, m.id]);

    await seedLedger(t, venue, { memberId: m.id, kind: 'import', spend: 1000, cashback: 30, reference: 'legacy-1' });
    const history = await api.get(`/api/v1/members/${m.id}/history`);
    expect(history.body.data).toEqual([
      expect.objectContaining({ object: 'history_entry', type: 'import', cashback: 30, spend: 1000, visits: 0, stamps: 0, reference: 'legacy-1' }),
    ]);
  });
});

describe('scopes', () => {
  it('a devices:write key can enrol and redeem rewards but cannot list or look up members', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'stamps');
    const kiosk = client(t, (await createKey(t, venue, { scopes: ['devices:write'] })).secret);
    const enrolled = await kiosk.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(enrolled.status).toBe(201);
    await seedLedger(t, venue, { memberId: enrolled.body.id, kind: 'import', stamps: 5 });
    expect((await kiosk.post(`/api/v1/members/${enrolled.body.id}/rewards/redeem`)).status).toBe(201);
    expectError(await kiosk.get('/api/v1/members'), 403, 'missing_scope');
    expectError(await kiosk.get(`/api/v1/members/lookup?card_number=${enrolled.body.card_numbers[0]}`), 403, 'missing_scope');
  });
});
