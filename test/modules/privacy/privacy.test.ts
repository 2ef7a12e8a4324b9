// A member's export and erasure: what the export holds, what erasure removes everywhere a copy sits, what it keeps.
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { describe, expect, it, vi } from 'vitest';
import * as members from '../../../src/modules/members/service.js';
import { runNextImport } from '../../../src/modules/imports/service.js';
import { importMembers } from '../../../src/modules/members/bulk-import.js';
import { runExpiry } from '../../../src/modules/members/expiry-service.js';
import { freeTextScrubber, personalValuesOf, redactorOf } from '../../../src/flows/privacy/service.js';
import { newId } from '../../../src/shared/ids.js';
import { MemberExport } from '../../../src/modules/privacy/schemas.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError, type Response } from '../../support/http.js';

const t = useTestApp();

/** Set to make the events read of an export fail, as a database connection lost midway would. */
const failing = vi.hoisted(() => ({ events: false }));
vi.mock('../../../src/modules/webhooks/events.js', async (original) => {
  const real = await original<typeof import('../../../src/modules/webhooks/events.js')>();
  return { ...real, listEventsNaming: (...args: Parameters<typeof real.listEventsNaming>) => (failing.events ? Promise.reject(new Error('connection lost')) : real.listEventsNaming(...args)) };
});

const NAME = 'Zofia Wiśniewska';
const PHONE = '+353871234567';

/**
 * A cashback member (one level of 5 %) with two cards, two checks, an adjustment whose reason quotes their name, an
 * active hold, a scan and a webhook endpoint that takes every event; the enrolment and the first check sent with
 * Idempotency-Keys, so their stored answers name the member.
 */
async function cashbackMember() {
  const venue = await createVenue(t, { country: 'IE', settings: { manual_adjustments_allowed: true } });
  await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
  const { secret } = await createKey(t, venue);
  const api = client(t, secret);
  expect((await api.post('/api/v1/webhook_endpoints', { url: 'https://hooks.example.com/privacy', events: ['*'] })).status).toBe(201);
  const cards = [newCardNumber(), newCardNumber()];
  const enrolled = await api.post('/api/v1/members', { card_number: cards[0], consent: true, name: NAME, phone: '087 123 4567' }, { 'idempotency-key': 'enrol-1' });
  expect(enrolled.status).toBe(201);
  const member = enrolled.body;
  expect(member.phone).toBe(PHONE);
  expect((await api.post(`/api/v1/members/${member.id}/cards`, { card_number: cards[1] })).status).toBe(201);
  const line = (price: number) => [{ name: 'Dinner', quantity: 1, unit_price: price }];
  expect((await api.post('/api/v1/checks', { external_id: 'P-1', member_id: member.id, line_items: line(2000) }, { 'idempotency-key': 'check-1' })).status).toBe(201);
  expect((await api.post('/api/v1/checks', { external_id: 'P-2', card_number: cards[1], line_items: line(1000) })).status).toBe(201);
  expect((await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: 300, reason: `Birthday gift for ${NAME}` })).status).toBe(201);
  const hold = await api.post('/api/v1/holds', { member_id: member.id, amount: 200 });
  expect(hold.status).toBe(201);
  expect((await api.post('/api/v1/scans', { code: cards[0] })).status).toBe(201);
  return { venue, api, secret, member, cards, hold: hold.body, personal: [NAME, 'Zofia W.', PHONE, member.serial, ...cards] };
}

/** The export, parsed, after checking it is one document of the declared shape. */
async function exportOf(api: ReturnType<typeof client>, id: string): Promise<MemberExport & { raw: string }> {
  const res = await api.get(`/api/v1/members/${id}/export`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(String(res.headers['content-type'])).toContain('application/json');
  expect(Value.Errors(MemberExport, res.body).length === 0 ? [] : [...Value.Errors(MemberExport, res.body)].slice(0, 3)).toEqual([]);
  return { ...res.body, raw: JSON.stringify(res.body) };
}

/** Every text the database keeps for the chain where a copy of a member's data could sit. */
async function storedTexts(chainId: string): Promise<string> {
  const { rows } = await sql<{ text: string }>`
    select data::text as text from events where chain_id = ${chainId}
    union all select response_body::text from idempotency_keys where chain_id = ${chainId}
    union all select display::text from transactions where chain_id = ${chainId}
    union all select coalesce(reason, '') from ledger_entries where chain_id = ${chainId}
    union all select concat_ws(' ', name, phone, email, serial) from members where chain_id = ${chainId}
    union all select card_number from member_cards where chain_id = ${chainId}
    union all select card_hash from erased_cards where chain_id = ${chainId}
    union all select reason from member_import_errors where chain_id = ${chainId}`.execute(t.db);
  return rows.map((r) => r.text).join('\n');
}

const figures = (tx: Record<string, unknown>) => {
  const { display: _display, ...rest } = tx;
  return rest;
};

describe('export', () => {
  it('holds the profile, cards, ledger, transactions with lines, holds, scans and the events that name the member', async () => {
    const { api, member, cards, hold } = await cashbackMember();
    const doc = await exportOf(api, member.id);
    expect(doc.member).toMatchObject({ id: member.id, name: NAME, phone: PHONE, serial: member.serial, erased_at: null });
    expect(doc.member.cards.map((c) => c.card_number)).toEqual(cards);
    // 5 % of 2000 and of 1000, and the adjustment of 300.
    expect(doc.member.totals).toEqual({ cashback: 450, spend: 3000, visits: 2, stamps: 0 });
    expect(doc.transactions.map((x) => x.external_id)).toEqual(['P-2', 'P-1']);
    expect(doc.transactions[1]!.line_items).toMatchObject([{ name: 'Dinner', quantity: 1, unit_price: 2000, earned: 100 }]);
    expect(doc.holds).toMatchObject([{ id: hold.id, amount: 200, status: 'active' }]);
    expect(doc.scans).toHaveLength(1);
    expect(doc.events.map((e) => e.type).sort()).toEqual(['balance.adjusted', 'transaction.completed', 'transaction.completed']);
    const history = (await api.get(`/api/v1/members/${member.id}/history?limit=100`)).body.data;
    expect(doc.ledger.map((e) => e.id)).toEqual(history.map((e: { id: string }) => e.id));
    expect(doc.visits).toEqual([]);
  });

  it("a stamps member's visits, and a long history read page by page into one document", async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'stamps');
    const api = client(t, (await createKey(t, venue)).secret);
    const member = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    for (let i = 0; i < 3; i++) expect((await api.post('/api/v1/visits', { member_id: member.id, external_id: `V-${i}` })).status).toBe(201);
    // More ledger rows than one page of the export reads.
    await t.db.transaction().execute((trx) =>
      members.appendLedger(trx, { chainId: venue.chainId, venueId: venue.id, livemode: false }, Array.from({ length: 450 }, () => ({ memberId: member.id, kind: 'import', stamps: 1 }))),
    );
    const doc = await exportOf(api, member.id);
    expect(doc.visits.map((v) => v.external_id)).toEqual(['V-2', 'V-1', 'V-0']);
    expect(doc.ledger).toHaveLength(453);
    expect(new Set(doc.ledger.map((e) => e.id)).size).toBe(453);
    expect(doc.member.totals.stamps).toBe(3 * 1 + 450);
    expect(doc.events.filter((e) => e.type === 'transaction.completed')).toHaveLength(3);
  });

  it('a read failing after the first bytes aborts the answer: the client never gets a document that ends cleanly', async () => {
    const { secret, member } = await cashbackMember();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    failing.events = true;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/members/${member.id}/export`, { headers: { authorization: `Bearer ${secret}` } });
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow('terminated');
    } finally {
      failing.events = false;
    }
  });
});

describe('erase', () => {
  it('removes the personal data everywhere, keeps the figures, releases the hold, and no look-up finds the member', async () => {
    const { venue, api, member, cards, hold, personal } = await cashbackMember();
    const before = await exportOf(api, member.id);
    const stored = await storedTexts(venue.chainId);
    for (const s of personal) expect(stored).toContain(s);

    const erased = await api.post(`/api/v1/members/${member.id}/erase`, undefined, { 'idempotency-key': 'erase-1' });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body).toMatchObject({ object: 'member_erasure', member_id: member.id, already_erased: false, holds_released: [hold.id] });

    // No look-up, scan or check finds the member; a check with the old card is one with an unknown card.
    for (const query of [`card_number=${cards[0]}`, `card_number=${cards[1]}`, `phone=${encodeURIComponent(PHONE)}`, `barcode=${cards[0]}`, `barcode=${member.serial}`]) {
      expectError(await api.get(`/api/v1/members/lookup?${query}`), 404, 'member_not_found');
    }
    expectError(await api.post('/api/v1/scans', { code: cards[0] }), 404, 'member_not_found');
    expectError(await api.post('/api/v1/scans', { code: member.serial }), 404, 'member_not_found');
    expectError(await api.get(`/api/v1/members/${member.id}`), 404, 'member_not_found');
    const unknown = await api.post('/api/v1/checks/calculate', { card_number: 'UNKNOWN-1', line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] });
    const old = await api.post('/api/v1/checks/calculate', { card_number: cards[0], line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] });
    expect([old.status, old.body.error?.code]).toEqual([unknown.status, unknown.body.error?.code]);
    expect((await api.get('/api/v1/members?limit=100')).body.data.map((m: { id: string }) => m.id)).not.toContain(member.id);

    // What the export and the database keep names none of it.
    const after = await exportOf(api, member.id);
    for (const s of personal) expect(after.raw).not.toContain(s);
    const storedAfter = await storedTexts(venue.chainId);
    for (const s of personal) expect(storedAfter).not.toContain(s);
    expect(after.member).toMatchObject({ name: null, phone: null, cards: [], erased_at: erased.body.erased_at });

    // The figures stay: totals, ledger, transactions; the hold was released, not captured.
    expect(after.member.totals).toEqual({ cashback: 450, spend: 3000, visits: 2, stamps: 0 });
    expect(after.ledger.map((e) => ({ ...e, reason: null }))).toEqual(before.ledger.map((e) => ({ ...e, reason: null })));
    expect(after.ledger.find((e) => e.type === 'adjustment')!.reason).toBe('Birthday gift for [erased]');
    expect(after.transactions.map(figures)).toEqual(before.transactions.map(figures));
    expect(after.transactions[0]!.display.cashier).toMatch(/^\[erased\] · /);
    expect(after.holds).toMatchObject([{ id: hold.id, status: 'released' }]);
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);

    // The venue's accounts still work: refunding half of the first check takes back half of its 100 earned.
    const refund = await api.post('/api/v1/transactions/P-1/refunds', { external_id: 'R-1', amount: 1000 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const refunded = await exportOf(api, member.id);
    expect(refunded.member.totals).toEqual({ cashback: 400, spend: 2000, visits: 2, stamps: 0 });
    expect(refunded.refunds).toMatchObject([{ external_id: 'R-1', transaction_external_id: 'P-1', amount: 1000, earned_reversed: 50, redeemed_returned: 0 }]);
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
    for (const s of personal) expect(await storedTexts(venue.chainId)).not.toContain(s);

    // A stored answer replays scrubbed; the enrolment's key still answers, without the data.
    const replay = await api.post('/api/v1/members', { card_number: cards[0], consent: true, name: NAME, phone: '087 123 4567' }, { 'idempotency-key': 'enrol-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toMatchObject({ id: member.id, name: '[erased]', phone: '[erased]', card_numbers: ['[erased]'] });

    // Erasing again: the same key replays; another request answers already_erased; one member.erased event in all.
    const again = await api.post(`/api/v1/members/${member.id}/erase`, undefined, { 'idempotency-key': 'erase-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(erased.body);
    const second = await api.post(`/api/v1/members/${member.id}/erase`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ already_erased: true, erased_at: erased.body.erased_at, holds_released: [] });
    const events = (await api.get('/api/v1/events?type=member.erased')).body.data;
    expect(events).toHaveLength(1);
    expect(events[0].data.object).toEqual({ ...erased.body });
    expect(events[0].request).toMatchObject({ idempotency_key: 'erase-1' });
  });

  it('the e-mail: listed by the export; erasure clears it everywhere (row, stored answers, reasons), no look-up finds it, and it is free again', async () => {
    const venue = await createVenue(t, { country: 'IE', settings: { manual_adjustments_allowed: true } });
    await createProgram(t, venue, 'cashback');
    const api = client(t, (await createKey(t, venue)).secret);
    const EMAIL = 'zofia.w@example.com';
    const enrolment = { card_number: newCardNumber(), consent: true, email: 'Zofia.W@Example.com' };
    const enrolled = await api.post('/api/v1/members', enrolment, { 'idempotency-key': 'enrol-email' });
    expect([enrolled.status, enrolled.body.email]).toEqual([201, EMAIL]);
    const id = enrolled.body.id as string;
    expect((await api.post(`/api/v1/members/${id}/adjustments`, { amount: 100, reason: `Welcome back ${EMAIL}` })).status).toBe(201);
    expect((await exportOf(api, id)).member).toMatchObject({ id, email: EMAIL });
    const emails = async () => (await t.db.selectFrom('members').select('email').where('chain_id', '=', venue.chainId).where('id', '=', id).executeTakeFirstOrThrow()).email;
    expect(await emails()).toBe(EMAIL);

    expect((await api.post(`/api/v1/members/${id}/erase`)).status).toBe(200);
    expect(await emails()).toBeNull();
    const after = await exportOf(api, id);
    expect(after.member.email).toBeNull();
    expect(after.raw).not.toContain(EMAIL);
    expect(after.ledger.find((e) => e.type === 'adjustment')!.reason).toBe('Welcome back [erased]');
    expect(await storedTexts(venue.chainId)).not.toContain(EMAIL);
    expectError(await api.get(`/api/v1/members/lookup?email=${EMAIL}`), 404, 'member_not_found');
    const replay = await api.post('/api/v1/members', enrolment, { 'idempotency-key': 'enrol-email' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toMatchObject({ id, email: '[erased]' });
    const again = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, email: EMAIL });
    expect([again.status, again.body.email]).toEqual([201, EMAIL]);
  });

  it("a card number of an erased member is free for a new member", async () => {
    const { api, member, cards } = await cashbackMember();
    expect((await api.post(`/api/v1/members/${member.id}/erase`)).status).toBe(200);
    const fresh = await api.post('/api/v1/members', { card_number: cards[0], consent: true });
    expect(fresh.status).toBe(201);
    expect((await api.get(`/api/v1/members/lookup?card_number=${cards[0]}`)).body.id).toBe(fresh.body.id);
  });

  it("another venue's key is answered exactly as for a member that does not exist", async () => {
    const { api, member } = await cashbackMember();
    const other = client(t, (await createKey(t, await createVenue(t))).secret);
    const missing = '01900000-0000-7000-8000-000000000000';
    const same = (a: Response, b: Response) => {
      expect(a.status).toBe(404);
      expect([a.status, a.body.error]).toEqual([b.status, b.body.error]);
    };
    same(await other.get(`/api/v1/members/${member.id}/export`), await other.get(`/api/v1/members/${missing}/export`));
    same(await other.post(`/api/v1/members/${member.id}/erase`), await other.post(`/api/v1/members/${missing}/erase`));
    expectError(await other.get('/api/v1/members/not-an-id/export'), 404, 'member_not_found');
    // The owner's member is untouched.
    expect((await api.get(`/api/v1/members/${member.id}`)).body.name).toBe(NAME);
  });
});

describe('erase, wherever a copy sits', () => {
  it('a name and phone changed before the erasure are erased too, in answers, displays and reasons, in any form', async () => {
    const venue = await createVenue(t, { country: 'IE', settings: { manual_adjustments_allowed: true } });
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
    const api = client(t, (await createKey(t, venue)).secret);
    expect((await api.post('/api/v1/webhook_endpoints', { url: 'https://hooks.example.com/x', events: ['*'] })).status).toBe(201);
    const m = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Oldname Smith', phone: '087 111 2222' }, { 'idempotency-key': 'enrol-r1' })).body;
    expect((await api.post('/api/v1/checks', { external_id: 'C1', member_id: m.id, line_items: [{ name: 'Gift for Oldname', quantity: 1, unit_price: 2000 }] })).status).toBe(201);
    expect((await api.post(`/api/v1/members/${m.id}/adjustments`, { amount: 50, reason: 'Goodwill, Oldname called' })).status).toBe(201);
    expect((await api.post(`/api/v1/members/${m.id}/adjustments`, { amount: 50, reason: 'Goodwill for Zed, ring 0871112222 or 087 111 2222' })).status).toBe(201);
    expect((await api.patch(`/api/v1/members/${m.id}`, { name: 'Zed Newname', phone: '087 333 4444' })).status).toBe(200);
    expect((await api.post(`/api/v1/members/${m.id}/erase`)).status).toBe(200);

    const stored = await storedTexts(venue.chainId);
    // The line item is the till's product name, kept as it was written.
    expect(stored.replaceAll('Gift for Oldname', '')).not.toMatch(/Oldname|Smith|Zed|Newname|1112222|111 2222|3334444|333 4444/);
    const reasons = (await exportOf(api, m.id)).ledger.filter((e) => e.type === 'adjustment').map((e) => e.reason).sort();
    expect(reasons).toEqual(['Goodwill for [erased], ring [erased] or [erased]', 'Goodwill, [erased] called']);
    expect((await exportOf(api, m.id)).transactions[0]!.display.cashier).toMatch(/^\[erased\] · Member 5% · /);
  });

  it('redacts by structure: dates, ids, level names and other members are left whole', () => {
    const id = '01900000-0000-7000-8000-0000000000aa';
    const other = '01900000-0000-7000-8000-000000000012';
    const values = personalValuesOf({ name: 'Gold', phone: null, serial: 'S3RIAL', cards: [{ card_number: '12', created_at: new Date() }, { card_number: '7000', created_at: new Date() }] });
    const redact = redactorOf(id, values);
    const doc = {
      object: 'transaction',
      id: other,
      member_id: id,
      created_at: '2027-12-28T10:00:00.000+00:00',
      status: 'completed',
      display: { cashier: 'Gold · Gold 5% · available €3.12', receipt: ['Level: Gold 5%', 'Stamps: +1 (12/12)'] },
      line_items: [{ name: 'Gold', quantity: 12 }],
      member: { object: 'member', id, name: 'Gold', phone: null, card_numbers: ['12', '7000'], serial: 'S3RIAL', barcode: { format: 'code128', value: '12' } },
      other: { object: 'member', id: other, name: 'Gold', card_numbers: ['12'] },
    };
    expect(redact(doc)).toEqual({
      ...doc,
      display: { cashier: '[erased] · Gold 5% · available €3.12', receipt: ['Level: Gold 5%', 'Stamps: +1 (12/12)'] },
      member: { ...doc.member, name: '[erased]', card_numbers: ['[erased]', '[erased]'], serial: '[erased]', barcode: { format: 'code128', value: '[erased]' } },
    });
    // Free text: a card number of 4 or more characters as a word, never inside an id, a date or an amount.
    const text = freeTextScrubber(values);
    expect(text(`card 7000 and S3RIAL, not ${other}, 2027-12-28, €7000.50 or 12`)).toBe(`card [erased] and [erased], not ${other}, 2027-12-28, €7000.50 or 12`);
  });

  it('an import file run again after the erasure skips the erased member: no name, phone or balance comes back', async () => {
    const venue = await createVenue(t, { country: 'IE' });
    await createProgram(t, venue, 'cashback');
    const api = client(t, (await createKey(t, venue)).secret);
    // The second line repeats the card: a bad line whose reason must not quote the number.
    const file = ['card_number,phone,name,consent_date,opening_balance', 'IMP-1,+353871234567,Aoife Byrne,2024-01-05,500', 'IMP-1,+353871234567,Aoife Byrne,2024-01-05,500', ''].join('\n');
    const run = async () => {
      const created = await api.post('/api/v1/members/imports', new Blob([file], { type: 'text/csv' }));
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      while (await runNextImport(t.db, t.clock, newId()));
      return (await api.get(`/api/v1/members/imports/${created.body.id}`)).body;
    };
    expect(await run()).toMatchObject({ status: 'succeeded', imported: 1, skipped: 0, failed: 1 });
    const m = (await api.get('/api/v1/members/lookup?card_number=IMP-1')).body;
    expect((await api.post(`/api/v1/members/${m.id}/erase`)).status).toBe(200);

    expect(await run()).toMatchObject({ status: 'succeeded', imported: 0, skipped: 1, failed: 1 });
    const cli = await importMembers(t.db, { chainId: venue.chainId, venueId: venue.id, livemode: false, country: 'IE', reference: 'again.csv' }, 'csv', (async function* () { yield file; })(), { clock: t.clock });
    expect(cli).toMatchObject({ imported: 0, skipped: 1, failed: 1 });
    expectError(await api.get('/api/v1/members/lookup?card_number=IMP-1'), 404, 'member_not_found');
    const { rows } = await sql<{ n: number; cashback: number }>`select count(*)::int as n, sum(cashback)::int as cashback from members where chain_id = ${venue.chainId}`.execute(t.db);
    expect(rows[0]).toEqual({ n: 1, cashback: 500 });
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
    const stored = await storedTexts(venue.chainId);
    for (const s of ['IMP-1', 'Aoife', '871234567']) expect(stored).not.toContain(s);

    // The API may give the number to a new guest; an import still does not enrol the old line.
    expect((await api.post('/api/v1/members', { card_number: 'IMP-1', consent: true })).status).toBe(201);
    expect(await run()).toMatchObject({ imported: 0, skipped: 1 });
  });

  it('an erased member is warned of nothing, and their cashback still expires once', async () => {
    const DAY = 86_400_000;
    const venue = await createVenue(t, { timezone: 'Europe/Berlin', locale: 'en-IE', currency: 'EUR', country: 'DE' });
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 10 }], cashback_expires_after_days: 30, cashback_expiry_warning_days: 7 } });
    const api = client(t, (await createKey(t, venue)).secret);
    const m = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Lena Vogel' })).body;
    // 10 % of €100.00: one lot of 1000.
    expect((await api.post('/api/v1/checks', { external_id: 'E1', member_id: m.id, line_items: [{ name: 'D', quantity: 1, unit_price: 10000 }] })).status).toBe(201);
    expect((await api.post(`/api/v1/members/${m.id}/erase`)).status).toBe(200);
    t.clock.advance(25 * DAY);
    await runExpiry(t.db, t.clock.now());
    t.clock.advance(10 * DAY);
    await runExpiry(t.db, t.clock.now());
    await runExpiry(t.db, t.clock.now());
    const types = (await sql<{ type: string }>`select type from events where chain_id = ${venue.chainId} and type like 'cashback.%'`.execute(t.db)).rows.map((r) => r.type);
    expect(types).not.toContain('cashback.expiring');
    const after = await exportOf(api, m.id);
    expect(after.member.totals.cashback).toBe(0);
    expect(after.ledger.filter((e) => e.type === 'expiry').map((e) => e.cashback)).toEqual([-1000]);
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
  });

  it('releases every hold in force, however many', async () => {
    const { venue, api, member, hold } = await cashbackMember();
    const extra = Array.from({ length: 1001 }, () => ({
      chain_id: venue.chainId, venue_id: venue.id, id: newId(), member_id: member.id, amount: 1, status: 'active' as const,
      expires_at: new Date(t.clock.now().getTime() + 3_600_000), captured_amount: null, captured_by: null, livemode: false, created_at: t.clock.now(), finished_at: null,
    }));
    await t.db.insertInto('holds').values(extra).execute();
    const erased = await api.post(`/api/v1/members/${member.id}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body.holds_released).toHaveLength(1002);
    expect(erased.body.holds_released).toContain(hold.id);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from holds where chain_id = ${venue.chainId} and venue_id = ${venue.id} and status = 'active'`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
  });
});
