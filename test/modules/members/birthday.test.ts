// A member's birthday (D22): set at enrolment or by PATCH as MM-DD or YYYY-MM-DD, a real date not in the future,
// shown on the member, in their export, and gone with their erasure.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createProgram, newCardNumber, venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

async function setUp() {
  const { venue, secret } = await venueWithKey(t);
  await createProgram(t, venue, 'cashback');
  return client(t, secret);
}

describe('member birthday', () => {
  it('is kept as given at enrolment (MM-DD or YYYY-MM-DD), changed and cleared by PATCH', async () => {
    const api = await setUp();
    const a = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, birthday: '02-29' });
    expect(a.status).toBe(201);
    expect(a.body.birthday).toBe('02-29');
    const b = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, birthday: '1990-07-14' });
    expect(b.body.birthday).toBe('1990-07-14');
    const none = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(none.body.birthday).toBeNull();
    expect((await api.patch(`/api/v1/members/${none.body.id}`, { birthday: '12-31' })).body.birthday).toBe('12-31');
    expect((await api.get(`/api/v1/members/${none.body.id}`)).body.birthday).toBe('12-31');
    expect((await api.patch(`/api/v1/members/${none.body.id}`, { birthday: null })).body.birthday).toBeNull();
  });

  it.each([
    ['02-30', 'no 30 February'],
    ['13-01', 'no month 13'],
    ['2023-02-29', 'not a leap year'],
    ['1899-12-31', 'before 1900'],
    ['2026-11-23', 'after the venue’s today (22 November 2026 by the test clock)'],
    ['7-14', 'not MM-DD'],
    ['14.07.', 'not a date format'],
  ])('%s is 400 parameter_invalid with param birthday (%s), at enrolment and by PATCH', async (birthday) => {
    const api = await setUp();
    expect(expectError(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, birthday }), 400, 'parameter_invalid').param).toBe('birthday');
    const { id } = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, birthday: '05-01' })).body;
    expect(expectError(await api.patch(`/api/v1/members/${id}`, { birthday }), 400, 'parameter_invalid').param).toBe('birthday');
    expect((await api.get(`/api/v1/members/${id}`)).body.birthday).toBe('05-01');
  });

  it('is in the member’s export and erased with them', async () => {
    const api = await setUp();
    const { id } = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, birthday: '1985-03-09' })).body;
    const exported = await api.get(`/api/v1/members/${id}/export`);
    expect(exported.status).toBe(200);
    expect(JSON.stringify(exported.body)).toContain('"birthday":"1985-03-09"');
    expect((await api.post(`/api/v1/members/${id}/erase`)).status).toBe(200);
    const after = await api.get(`/api/v1/members/${id}/export`);
    expect(after.status).toBe(200);
    expect(after.body.member.birthday).toBeNull();
    expect(JSON.stringify(after.body)).not.toContain('1985-03-09');
  });
});
