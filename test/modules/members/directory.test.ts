// The members directory (D27) through GET /v1/members: search by any part of a name (accents and case ignored),
// exact card / phone / e-mail matches first, filters, sorts, keyset paging, last_visit_at, and bad input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Venue } from '../../../src/modules/accounts/service.js';
import { importFile } from '../../../src/modules/members/bulk-import-file.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();
const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-directory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Api = ReturnType<typeof client>;
const LEVELS = [
  { name: 'Bronze', min_spend: 0, percent: 3 },
  { name: 'Silver', min_spend: 10_000, percent: 5 },
  { name: 'Gold', min_spend: 50_000, percent: 8 },
];

async function chain() {
  const venue = await createVenue(t, { settings: { max_cashback_per_check: 1_000_000 } });
  const program = await createProgram(t, venue, 'cashback', { settings: { levels: LEVELS } });
  const api = client(t, (await createKey(t, venue)).secret);
  return { venue, program, api };
}

async function enrol(api: Api, fields: Record<string, unknown>) {
  const res = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string | null; card_numbers: string[] };
}

/** The names a query lists, in its order (one page of up to 100). */
async function names(api: Api, query: string): Promise<Array<string | null>> {
  const res = await api.get(`/api/v1/members?limit=100&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((m: { name: string | null }) => m.name);
}

const q = (term: string, sort = 'name') => `q=${encodeURIComponent(term)}&sort=${sort}`;

describe('search by name', () => {
  it('finds a guest by any part of any word of her name, accents and case ignored, every word required', async () => {
    const { api } = await chain();
    for (const name of ['Aoife Ní Bhriain', 'Zoë Murphy', 'José García', 'ÉLODIE Martin', "Seán O'Brien", 'Ωμέγα Παπαδοπούλου', 'Þór Łódź']) await enrol(api, { name });
    await enrol(api, {});
    expect(await names(api, q('Aoife'))).toEqual(['Aoife Ní Bhriain']);
    expect(await names(api, q('aoif'))).toEqual(['Aoife Ní Bhriain']);
    expect(await names(api, q('ni bhr'))).toEqual(['Aoife Ní Bhriain']);
    expect(await names(api, q('zoe'))).toEqual(['Zoë Murphy']);
    expect(await names(api, q('MURPH'))).toEqual(['Zoë Murphy']);
    expect(await names(api, q('murphy zo'))).toEqual(['Zoë Murphy']);
    expect(await names(api, q('murphy x'))).toEqual([]);
    expect(await names(api, q('garcia'))).toEqual(['José García']);
    expect(await names(api, q('élodie'))).toEqual(['ÉLODIE Martin']);
    expect(await names(api, q("o'b"))).toEqual(["Seán O'Brien"]);
    expect(await names(api, q('sean'))).toEqual(["Seán O'Brien"]);
    expect(await names(api, q('ΩΜΈΓΑ'))).toEqual(['Ωμέγα Παπαδοπούλου']);
    expect(await names(api, q('lodz'))).toEqual(['Þór Łódź']);
    // "ar" is in García, Martin: ties in name order; the unnamed member is found by no name.
    expect(await names(api, q('ar'))).toEqual(['ÉLODIE Martin', 'José García']);
    expect(await names(api, q('an'))).toEqual(["Seán O'Brien"]);
  });

  it("LIKE's wildcards and backslashes are plain characters; a term in any alphabet or with control characters answers, never errors", async () => {
    const { api } = await chain();
    await enrol(api, { name: 'Ann 100% Lee' });
    await enrol(api, { name: 'Bob_Smith' });
    expect(await names(api, q('%'))).toEqual(['Ann 100% Lee']);
    expect(await names(api, q('_'))).toEqual(['Bob_Smith']);
    expect(await names(api, q('b_s'))).toEqual(['Bob_Smith']);
    expect(await names(api, q('bXs'))).toEqual([]);
    // Look-alikes that unaccent turns into LIKE's characters are plain too (full-width percent, low line, backslash).
    expect(await names(api, q('％'))).toEqual(['Ann 100% Lee']);
    expect(await names(api, q('＿'))).toEqual(['Bob_Smith']);
    expect(await names(api, q('﹨b'))).toEqual([]);
    expect(await names(api, q('\\'))).toEqual([]);
    // NUL is refused in every parameter of the API, as PostgreSQL's text cannot hold it.
    expect(expectError(await api.get('/api/v1/members?q=a%00b'), 400, 'parameter_invalid').param).toBe('q');
    for (const term of ['日本語', '🙂', 'a\u0001b', '\t', "'; drop table members; --", 'ß', '+', '@', '1234567']) {
      const res = await api.get(`/api/v1/members?q=${encodeURIComponent(term)}`);
      expect(res.status, `${JSON.stringify(term)}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect((await api.get(`/api/v1/members?q=${'a'.repeat(200)}`)).status).toBe(200);
    // Characters, not UTF-16 units: 200 emoji are 200.
    expect((await api.get(`/api/v1/members?q=${encodeURIComponent('🙂'.repeat(200))}`)).status).toBe(200);
    expect(expectError(await api.get(`/api/v1/members?q=${encodeURIComponent('🙂'.repeat(201))}`), 400, 'parameter_invalid').param).toBe('q');
    expect(expectError(await api.get(`/api/v1/members?q=${'a'.repeat(201)}`), 400, 'parameter_invalid').param).toBe('q');
    expect(expectError(await api.get('/api/v1/members?sort=age'), 400, 'parameter_invalid').param).toBe('sort');
    expect(expectError(await api.get('/api/v1/members?last_visit_after=yesterday'), 400, 'parameter_invalid').param).toBe('last_visit_after');
  });

  it('exact card, serial, phone and e-mail matches come first, then name matches, whatever the sort', async () => {
    const { api } = await chain();
    await enrol(api, { name: 'Brian Walsh', card_number: 'W-1' });
    const nora = await enrol(api, { name: 'Nora Quinn', card_number: 'BRIAN' });
    await enrol(api, { name: 'Abe Brian' });
    for (const sort of ['name', 'newest', 'spend']) expect((await names(api, q('BRIAN', sort)))[0]).toBe('Nora Quinn');
    expect(await names(api, q('BRIAN', 'name'))).toEqual(['Nora Quinn', 'Abe Brian', 'Brian Walsh']);
    // A card number is exact: a part of one finds nobody by it.
    expect(await names(api, q('BRIA'))).toEqual(['Abe Brian', 'Brian Walsh']);
    const serial = (await api.get(`/api/v1/members/${nora.id}`)).body.serial;
    expect(await names(api, q(serial))).toEqual(['Nora Quinn']);

    await enrol(api, { name: 'Cara Lynch', phone: '087 765 4321', email: 'Cara@Example.ie' });
    await enrol(api, { name: 'Example Ie' });
    expect(await names(api, q('+353877654321'))).toEqual(['Cara Lynch']);
    expect(await names(api, q('087 765 4321'))).toEqual(['Cara Lynch']);
    expect(await names(api, q('CARA@example.ie'))).toEqual(['Cara Lynch']);
    expect(await names(api, q('example'))).toEqual(['Example Ie']);
  });
});

describe('filters and sorts', () => {
  it('level, program, home venue and last visit filter; name, last visit, balance and spend sort; last_visit_at follows the latest check', async () => {
    const { venue, api } = await chain();
    const now = t.clock.now().getTime();
    const ago = (hours: number) => new Date(now - hours * 3_600_000).toISOString();
    const [ana, ben, cat] = [await enrol(api, { name: 'Ana' }), await enrol(api, { name: 'Ben' }), await enrol(api, { name: 'Cat' })];
    await enrol(api, { name: 'Dan' });
    const pay = async (memberId: string, externalId: string, price: number, closedAt: string) => {
      const res = await api.post('/api/v1/checks', { external_id: externalId, member_id: memberId, closed_at: closedAt, line_items: [{ name: 'Dinner', quantity: 1, unit_price: price }] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await pay(ana.id, 'A-1', 60_000, ago(50)); // Gold by spend
    await pay(ben.id, 'B-1', 20_000, ago(2)); // Silver
    await pay(cat.id, 'C-1', 5_000, ago(30)); // Bronze
    await pay(cat.id, 'C-0', 1_000, ago(40)); // closed before Cat's last visit: leaves it
    const lastVisit = async (id: string) => {
      const at = (await api.get(`/api/v1/members/${id}`)).body.last_visit_at;
      return at === null ? null : new Date(at).toISOString();
    };
    expect(await lastVisit(cat.id)).toBe(ago(30));
    expect(await lastVisit(ana.id)).toBe(ago(50));
    expect(await lastVisit((await enrol(api, { name: 'Eve' })).id)).toBeNull();

    expect(await names(api, 'level=Gold')).toEqual(['Ana']);
    expect(await names(api, 'level=Silver')).toEqual(['Ben']);
    expect(await names(api, 'level=Bronze&sort=name')).toEqual(['Cat', 'Dan', 'Eve']);
    expect(await names(api, 'level=Platinum')).toEqual([]);
    expect(await names(api, `last_visit_after=${encodeURIComponent(ago(35))}&sort=name`)).toEqual(['Ben', 'Cat']);
    expect(await names(api, `last_visit_before=${encodeURIComponent(ago(35))}`)).toEqual(['Ana']);
    // Never came: last, newest first among them (the id breaks the tie).
    expect(await names(api, 'sort=last_visit')).toEqual(['Ben', 'Cat', 'Ana', 'Eve', 'Dan']);
    // Spend 60,000 / 20,000 / 6,000 / 0 / 0, and cashback in the same order (each check earns a share of it).
    expect(await names(api, 'sort=spend')).toEqual(['Ana', 'Ben', 'Cat', 'Eve', 'Dan']);
    expect(await names(api, 'sort=balance')).toEqual(['Ana', 'Ben', 'Cat', 'Eve', 'Dan']);
    expect(await names(api, `venue_id=${venue.id}&sort=name`)).toEqual(['Ana', 'Ben', 'Cat', 'Dan', 'Eve']);
    expect(await names(api, 'q=a&level=Bronze&sort=name')).toEqual(['Cat', 'Dan']);
  });
});

describe('levels and visits', () => {
  it('a level name two levels share finds the members at either', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Club', min_spend: 0, percent: 1 }, { name: 'Gold', min_spend: 100, percent: 2 }, { name: 'Club', min_spend: 500, percent: 3 }] } });
    const api = client(t, (await createKey(t, venue)).secret);
    for (const [name, price] of [['Low', 50], ['Mid', 200], ['High', 1000]] as const) {
      const m = await enrol(api, { name });
      expect((await api.post('/api/v1/checks', { external_id: `L-${name}`, member_id: m.id, line_items: [{ name: 'Tea', quantity: 1, unit_price: price }] })).status).toBe(201);
    }
    expect(await names(api, 'level=Club&sort=name')).toEqual(['High', 'Low']);
    expect(await names(api, 'level=Gold')).toEqual(['Mid']);
  });

  it('a visit recorded without a check (POST /v1/visits) sets last_visit_at too', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'stamps');
    const api = client(t, (await createKey(t, venue)).secret);
    const m = await enrol(api, { name: 'Stampy' });
    expect((await api.get(`/api/v1/members/${m.id}`)).body.last_visit_at).toBeNull();
    expect((await api.post('/api/v1/visits', { member_id: m.id })).status).toBe(201);
    expect(new Date((await api.get(`/api/v1/members/${m.id}`)).body.last_visit_at).getTime()).toBe(t.clock.now().getTime());
    expect(await names(api, `last_visit_after=${encodeURIComponent(t.clock.now().toISOString())}`)).toEqual(['Stampy']);
  });
});

describe('paging', () => {
  it.each(['name', 'newest', 'spend'])('pages through 1,000 matches (sort %s) without a duplicate or a gap while members are being added', async (sort) => {
    const { venue, api } = await chain();
    const file = path.join(dir, `pat-${sort}.csv`);
    const lines = ['card_number,name,consent_date,total_spend'];
    // Spend repeats every 7, so the spend sort has ties the id must break.
    for (let i = 0; i < 1000; i++) lines.push(`PAT-${i},Pat Guest ${String((i * 389) % 1000).padStart(4, '0')},2024-03-01,${(i % 7) * 100}`);
    writeFileSync(file, lines.join('\n') + '\n');
    await importOrFail(venue, file);
    const seen = new Map<string, number>();
    let after = '';
    for (let pageNo = 0; pageNo < 30; pageNo++) {
      const res = await api.get(`/api/v1/members?q=pat&sort=${sort}&limit=37${after}`);
      expect(res.status).toBe(200);
      for (const m of res.body.data) seen.set(m.card_numbers[0], (seen.get(m.card_numbers[0]) ?? 0) + 1);
      // Added while paging: wherever they sort, the members already listed stay listed once and none is skipped.
      await enrol(api, { name: `Pat Added ${pageNo}`, card_number: `ADDED-${pageNo}` });
      if (!res.body.has_more) break;
      after = `&starting_after=${res.body.data.at(-1).id}`;
    }
    const duplicates = [...seen].filter(([, n]) => n > 1);
    expect(duplicates).toEqual([]);
    const missing = Array.from({ length: 1000 }, (_, i) => `PAT-${i}`).filter((card) => !seen.has(card));
    expect(missing).toEqual([]);
  }, 120_000);

  it("a cursor from another chain's list is 400 param starting_after", async () => {
    const one = await chain();
    const other = await chain();
    const foreign = await enrol(other.api, { name: 'Pat Elsewhere' });
    expect(expectError(await one.api.get(`/api/v1/members?q=pat&starting_after=${foreign.id}`), 400, 'parameter_invalid').param).toBe('starting_after');
    expect(await names(one.api, q('pat elsewhere'))).toEqual([]);
  });
});

async function importOrFail(venue: Venue, file: string) {
  const target = { chainId: venue.chainId, venueId: venue.id, livemode: false, country: venue.country, reference: path.basename(file) };
  const done = await importFile(t.db, target, file, { clock: t.clock, report: `${file}.report.csv` });
  expect(done).toMatchObject({ imported: 1000, failed: 0 });
}
