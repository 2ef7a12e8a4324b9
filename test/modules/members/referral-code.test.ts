// Referral codes (D22): every member has one, unique in the chain; enrolment accepts another member's as referred_by
// (any case), refuses an unknown one; the export shows who referred whom, and erasure clears it both ways.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, newCardNumber, venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

async function setUp() {
  const { venue, secret } = await venueWithKey(t);
  await createProgram(t, venue, 'cashback');
  return { venue, api: client(t, secret) };
}

const enrol = (api: ReturnType<typeof client>, body: Record<string, unknown> = {}) =>
  api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, ...body });

describe('referral codes', () => {
  it('every enrolled member has an 8-character code, different from everyone else’s', async () => {
    const { api } = await setUp();
    const codes = await Promise.all(Array.from({ length: 10 }, async () => (await enrol(api)).body.referral_code));
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(codes).size).toBe(10);
  });

  it('referred_by takes another member’s code in any case and remembers the referrer; an unknown code is 400 and enrols no one', async () => {
    const { venue, api } = await setUp();
    const anna = (await enrol(api)).body;
    const ben = await enrol(api, { referred_by: ` ${anna.referral_code.toLowerCase()} ` });
    expect(ben.status).toBe(201);
    const { rows } = await sql<{ referred_by: string }>`select referred_by from members where chain_id = ${venue.chainId} and id = ${ben.body.id}`.execute(t.db);
    expect(rows).toEqual([{ referred_by: anna.id }]);
    const card = newCardNumber();
    expect(expectError(await api.post('/api/v1/members', { card_number: card, consent: true, referred_by: 'NOPE1234' }), 400, 'parameter_invalid').param).toBe('referred_by');
    expect((await api.get(`/api/v1/members/lookup?card_number=${card}`)).status).toBe(404);
  });

  it('a code of another chain or of the other mode is unknown', async () => {
    const { venue, api } = await setUp();
    const other = await setUp();
    const stranger = (await enrol(other.api)).body;
    expectError(await enrol(api, { referred_by: stranger.referral_code }), 400, 'parameter_invalid');
    const live = client(t, (await createKey(t, venue, { livemode: true })).secret);
    const liveMember = (await enrol(live)).body;
    expectError(await enrol(api, { referred_by: liveMember.referral_code }), 400, 'parameter_invalid');
  });

  it('the export shows the code and who referred the member; erasure clears the code and the link both ways', async () => {
    const { venue, api } = await setUp();
    const anna = (await enrol(api)).body;
    const ben = (await enrol(api, { referred_by: anna.referral_code })).body;
    const carl = (await enrol(api, { referred_by: ben.referral_code })).body;
    const exported = (await api.get(`/api/v1/members/${ben.id}/export`)).body;
    expect(exported.member).toMatchObject({ referral_code: ben.referral_code, referred_by: anna.id, referred: [carl.id] });
    expect((await api.post(`/api/v1/members/${ben.id}/erase`)).status).toBe(200);
    const after = (await api.get(`/api/v1/members/${ben.id}/export`)).body;
    expect(after.member).toMatchObject({ referral_code: null, referred_by: null, referred: [] });
    const { rows } = await sql<{ referred_by: string | null }>`select referred_by from members where chain_id = ${venue.chainId} and id = ${carl.id}`.execute(t.db);
    expect(rows).toEqual([{ referred_by: null }]);
    expectError(await enrol(api, { referred_by: ben.referral_code }), 400, 'parameter_invalid');
  });
});
