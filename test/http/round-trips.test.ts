// Round trips per request with warm caches (issue 10's budget), counted from the statements the app sends.
import { describe, expect, it } from 'vitest';
import { updateProgram } from '../../src/modules/programs/service.js';
import { useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();

/** The statements one request sends, after the same request has warmed the key and program caches. */
async function statementsOf(send: () => Promise<{ status: number }>): Promise<string[]> {
  expect((await send()).status).toBeLessThan(300);
  const from = t.testDatabase.sent.length;
  expect((await send()).status).toBeLessThan(300);
  return t.testDatabase.sent.slice(from);
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
    await updateProgram(t.db, venue.id, program.id, { settings: { levels: [{ name: 'All', min_spend: 0, percent: 9 }] } });
    expect((await api.get(`/api/v1/members/${member.id}`)).body.level).toMatchObject({ name: 'All', percent: 9 });
  });
});
