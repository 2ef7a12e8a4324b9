// POST /v1/members/imports and GET /v1/members/imports/{id}: the upload stored, a worker processes it (resuming a job
// left midway), progress and the bad lines shown, and a second worker never processes a job another holds.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Venue } from '../../../src/modules/accounts/service.js';
import * as imports from '../../../src/modules/imports/service.js';
import { startImportWorker } from '../../../src/modules/imports/worker.js';
import * as members from '../../../src/modules/members/service.js';
import { TEST_PEPPER, useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, refuseCard } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';
import { startWorkerProcess } from '../../support/processes.js';
import { needs } from '../../support/services.js';

const t = useTestApp();
const postgres = await needs('postgres');

const csv = (text: string) => new Blob([text], { type: 'text/csv' });

/** A CSV of `count` members; member i has opening balance i, so the test knows every balance. */
function membersCsv(count: number, prefix: string): string {
  const lines = ['card_number,phone,consent_date,opening_balance,visits'];
  for (let i = 0; i < count; i++) lines.push(`${prefix}${i},,2024-06-01,${i},1`);
  return lines.join('\n') + '\n';
}

async function venueWithImportKey() {
  const venue = await createVenue(t);
  await createProgram(t, venue, 'cashback');
  const { secret } = await createKey(t, venue, { scopes: ['members:write'] });
  return { venue, api: client(t, secret) };
}

/** Each card of the venue with its balance and the number of members holding it. */
async function balances(venue: Venue) {
  const { rows } = await sql<{ card_number: string; cashback: string }>`
    select c.card_number, m.cashback from member_cards c join members m on m.chain_id = c.chain_id and m.id = c.member_id
    where c.chain_id = ${venue.chainId} order by c.card_number`.execute(t.db);
  return rows.map((r) => [r.card_number, Number(r.cashback)]);
}

/** Runs every job waiting (earlier tests of this file leave some). */
async function runAll() {
  while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-0000000000ff'));
}

const expectedBalances = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => [`${prefix}${i}`, i]).sort(([a], [b]) => String(a).localeCompare(String(b)));

describe('member imports through the API', () => {
  it('POST the file, the worker processes it, GET shows the progress and every bad line', async () => {
    const { venue, api } = await venueWithImportKey();
    const body = ['card_number,phone,name,consent_date,opening_balance', 'A-1,+353871234567,Aoife,2024-01-05,500', 'A-2,not a phone,,2024-01-05,0', 'A-3,,,,0', 'A-4,,Brian,2024-01-06,125', ''].join('\n');
    const created = await api.post('/api/v1/members/imports', csv(body));
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ object: 'member_import', status: 'pending', format: 'csv', total_lines: 4, processed: 0, imported: 0, failed: 0, errors: [] });

    const worker = startImportWorker(t.db, t.clock, { error: (obj) => console.error(obj) });
    let shown = created.body;
    for (let waited = 0; shown.status !== 'succeeded' && waited < 20_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      shown = (await api.get(`/api/v1/members/imports/${created.body.id}`)).body;
    }
    await worker.stop();
    expect(shown).toMatchObject({
      status: 'succeeded',
      total_lines: 4,
      processed: 4,
      imported: 2,
      skipped: 0,
      failed: 2,
      has_more_errors: false,
      errors: [
        { line: 3, reason: expect.stringMatching(/phone is not a valid phone number/) },
        { line: 4, reason: expect.stringMatching(/consent_date is required/) },
      ],
    });
    expect(shown.finished_at).not.toBeNull();
    expect(await balances(venue)).toEqual([['A-1', 500], ['A-4', 125]]);
    // The stored file is gone once done.
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from member_import_chunks where chain_id = ${venue.chainId}`.execute(t.db);
    expect(rows[0]!.n).toBe('0');
  });

  it('JSON Lines as application/x-ndjson; a second upload of the same file skips the members imported', async () => {
    const { venue, api } = await venueWithImportKey();
    const file = new Blob(['{"card_number":"N-1","consent_date":"2024-01-01","opening_balance":40}\n{"card_number":"N-2","consent_date":"2024-01-01"}'], {
      type: 'application/x-ndjson',
    });
    const first = await api.post('/api/v1/members/imports', file);
    expect(first.body).toMatchObject({ format: 'jsonl', total_lines: 2 });
    await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-000000000001');
    const second = await api.post('/api/v1/members/imports', file);
    await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-000000000001');
    expect((await api.get(`/api/v1/members/imports/${first.body.id}`)).body).toMatchObject({ status: 'succeeded', imported: 2, skipped: 0 });
    expect((await api.get(`/api/v1/members/imports/${second.body.id}`)).body).toMatchObject({ status: 'succeeded', imported: 0, skipped: 2 });
    expect(await balances(venue)).toEqual([['N-1', 40], ['N-2', 0]]);
  });

  it('a job stopped between batches is resumed by another worker once the claim runs out: each member once', async () => {
    const { venue, api } = await venueWithImportKey();
    const created = (await api.post('/api/v1/members/imports', csv(membersCsv(2500, 'R-')))).body;
    const a = 'a0000000-0000-7000-8000-00000000000a';
    const b = 'b0000000-0000-7000-8000-00000000000b';
    const job = (await imports.claimImport(t.db, t.clock, a))!;
    expect(job.id).toBe(created.id);
    // Worker A stops after its first batch (a shutdown, or a crash after that commit).
    const stopped = new AbortController();
    stopped.abort();
    expect(await imports.processImport(t.db, t.clock, job, a, stopped.signal)).toBe('stopped');
    expect((await api.get(`/api/v1/members/imports/${created.id}`)).body).toMatchObject({ status: 'running', processed: 1000, imported: 1000 });

    // While A's claim lasts, B finds nothing to do; once it has run out, B takes the job over where A left it.
    expect(await imports.claimImport(t.db, t.clock, b)).toBeUndefined();
    t.clock.advance(imports.IMPORT_LEASE_MS + 1);
    const taken = (await imports.claimImport(t.db, t.clock, b))!;
    expect(taken.processed).toBe(1000);
    expect(await imports.processImport(t.db, t.clock, taken, b)).toBe('succeeded');
    expect((await api.get(`/api/v1/members/imports/${created.id}`)).body).toMatchObject({ status: 'succeeded', processed: 2500, imported: 2500, skipped: 0, failed: 0 });
    expect(await balances(venue)).toEqual(expectedBalances(2500, 'R-'));
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
  });

  it('a second worker never processes a job another holds: claims at once get one winner; a worker whose claim was taken over commits nothing', async () => {
    const { venue, api } = await venueWithImportKey();
    const created = (await api.post('/api/v1/members/imports', csv(membersCsv(1500, 'W-')))).body;
    const ids = ['c0000000-0000-7000-8000-00000000000c', 'd0000000-0000-7000-8000-00000000000d'];
    const claims = await Promise.all(ids.map((id) => imports.claimImport(t.db, t.clock, id)));
    expect(claims.filter(Boolean).map((j) => j!.id)).toEqual([created.id]);
    const winner = ids[claims.findIndex(Boolean)]!;
    const loser = ids.find((id) => id !== winner)!;

    // The winner stalls past its claim; the other worker takes the job over and finishes it.
    t.clock.advance(imports.IMPORT_LEASE_MS + 1);
    const taken = (await imports.claimImport(t.db, t.clock, loser))!;
    expect(await imports.processImport(t.db, t.clock, taken, loser)).toBe('succeeded');
    // The stalled winner wakes up: its first batch finds the job no longer its own and rolls back.
    expect(await imports.processImport(t.db, t.clock, claims.find(Boolean)!, winner)).toBe('lost');
    expect((await api.get(`/api/v1/members/imports/${created.id}`)).body).toMatchObject({ status: 'succeeded', imported: 1500, skipped: 0 });
    expect(await balances(venue)).toEqual(expectedBalances(1500, 'W-'));
  });

  it('bad lines are listed 100 at a time in file order; errors_after pages on', async () => {
    const { api } = await venueWithImportKey();
    const lines = ['card_number,consent_date'];
    for (let i = 0; i < 150; i++) lines.push(`E-${i},`);
    const created = (await api.post('/api/v1/members/imports', csv(lines.join('\n')))).body;
    await imports.runNextImport(t.db, t.clock, 'e0000000-0000-7000-8000-00000000000e');
    const first = (await api.get(`/api/v1/members/imports/${created.id}`)).body;
    expect(first).toMatchObject({ failed: 150, has_more_errors: true });
    expect(first.errors.map((e: { line: number }) => e.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    const rest = (await api.get(`/api/v1/members/imports/${created.id}?errors_after=101`)).body;
    expect(rest).toMatchObject({ has_more_errors: false });
    expect(rest.errors.map((e: { line: number }) => e.line)).toEqual(Array.from({ length: 50 }, (_, i) => i + 102));
  });

  it('a file refused as a whole (unknown column) fails the job with the reason', async () => {
    const { api } = await venueWithImportKey();
    const created = (await api.post('/api/v1/members/imports', csv('card_number,consent_date,shoe_size\nX-1,2024-01-01,9\n'))).body;
    await imports.runNextImport(t.db, t.clock, 'f0000000-0000-7000-8000-00000000000f');
    expect((await api.get(`/api/v1/members/imports/${created.id}`)).body).toMatchObject({
      status: 'failed',
      imported: 0,
      failure: expect.stringMatching(/unknown column "shoe_size"/),
    });
  });

  postgres.it('a real worker process (ROLE=worker) processes an upload another process stored', async () => {
    const { venue, api } = await venueWithImportKey();
    const created = (await api.post('/api/v1/members/imports', csv(membersCsv(3000, 'P-')))).body;
    const worker = startWorkerProcess({ DATABASE_URL: t.testDatabase.url!, API_KEY_PEPPER: TEST_PEPPER });
    try {
      let shown = created;
      for (let waited = 0; shown.status !== 'succeeded' && waited < 60_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
        shown = (await api.get(`/api/v1/members/imports/${created.id}`)).body;
      }
      expect(shown, worker.output()).toMatchObject({ status: 'succeeded', processed: 3000, imported: 3000, failed: 0 });
    } finally {
      await worker.stop();
    }
    expect(await balances(venue)).toEqual(expectedBalances(3000, 'P-'));
  }, 120_000);

  it('refusals in the envelope: wrong content type (415), too large (413), empty (400), unknown import (404), unknown program (400)', async () => {
    const { api } = await venueWithImportKey();
    expectError(await api.post('/api/v1/members/imports', { card_number: 'X' }), 415, 'unsupported_content_type');
    const plain = expectError(await api.post('/api/v1/members/imports', 'card_number\n', { 'content-type': 'text/plain' }), 415, 'unsupported_content_type');
    // The message names the types this route takes, not JSON's.
    expect(plain.message).toBe('Send the file as the body with Content-Type: text/csv or application/x-ndjson.');
    const octets = expectError(await api.post('/api/v1/members/imports', Buffer.from('x'), { 'content-type': 'application/octet-stream' }), 415, 'unsupported_content_type');
    expect(octets.message).toBe(plain.message);
    expectError(await api.post('/api/v1/members/imports', Buffer.alloc(imports.MAX_IMPORT_BYTES + 1, 0x0a), { 'content-type': 'text/csv' }), 413, 'request_body_too_large');
    expect(Number((await sql<{ n: string }>`select count(*)::text as n from member_imports where status = 'receiving'`.execute(t.db)).rows[0]!.n)).toBe(0);
    const empty = expectError(await api.post('/api/v1/members/imports', csv('')), 400, 'parameter_invalid');
    expect(empty.param).toBe('file');
    expectError(await api.get('/api/v1/members/imports/0190a000-0000-7000-8000-000000000000'), 404, 'member_import_not_found');
    expectError(await api.get('/api/v1/members/imports/nope'), 404, 'member_import_not_found');
    const program = expectError(await api.post('/api/v1/members/imports?program_id=0190a000-0000-7000-8000-000000000000', csv('card_number,consent_date\n')), 400, 'parameter_invalid');
    expect(program.param).toBe('program_id');
  });

  it('Idempotency-Key: the same key and file replays the 202 (one job); another file with the key is refused', async () => {
    const { venue, api } = await venueWithImportKey();
    const file = 'card_number,consent_date\nK-1,2024-01-01\n';
    const first = await api.post('/api/v1/members/imports', csv(file), { 'idempotency-key': 'import-k1' });
    expect(first.status).toBe(202);
    const again = await api.post('/api/v1/members/imports', csv(file), { 'idempotency-key': 'import-k1' });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(await api.post('/api/v1/members/imports', csv('card_number,consent_date\nK-2,2024-01-01\n'), { 'idempotency-key': 'import-k1' }), 400, 'idempotency_key_reused');
    // One job, and nothing left of the copies the replay and the refusal stored.
    const { rows } = await sql<{ status: string }>`select status from member_imports where chain_id = ${venue.chainId}`.execute(t.db);
    expect(rows).toEqual([{ status: 'pending' }]);
    const chunks = await sql<{ n: string }>`select count(*)::text as n from member_import_chunks where chain_id = ${venue.chainId}`.execute(t.db);
    expect(chunks.rows[0]!.n).toBe('1');
  });

  it('CR line endings are counted as the parser counts them: total_lines and processed agree', async () => {
    const { api } = await venueWithImportKey();
    const created = (await api.post('/api/v1/members/imports', csv('card_number,consent_date\rC-1,2024-01-01\rC-2,2024-01-01\rC-3,bad\r'))).body;
    expect(created.total_lines).toBe(3);
    await runAll();
    expect((await api.get(`/api/v1/members/imports/${created.id}`)).body).toMatchObject({ status: 'succeeded', total_lines: 3, processed: 3, imported: 2, failed: 1, errors: [{ line: 4 }] });
  });

  it('a consent date the database cannot hold is a bad line; an unforeseen refusal fails the job after a few attempts, naming the lines', async () => {
    const { venue, api } = await venueWithImportKey();
    const dated = (await api.post('/api/v1/members/imports', csv('card_number,consent_date\nY-1,2024-01-01\nY-2,0000-01-01\nY-3,2024-01-01\n'))).body;
    await runAll();
    expect((await api.get(`/api/v1/members/imports/${dated.id}`)).body).toMatchObject({
      status: 'succeeded',
      imported: 2,
      errors: [{ line: 3, reason: 'consent_date is before 1900-01-01.' }],
    });

    const allowCard = await refuseCard(t, venue, 'BOOM');
    try {
      const created = (await api.post('/api/v1/members/imports', csv('card_number,consent_date\nBOOM,2024-01-01\n'))).body;
      const worker = 'a0000000-0000-7000-8000-000000000002';
      for (let attempt = 1; attempt < imports.MAX_IMPORT_ATTEMPTS; attempt++) {
        await expect(imports.runNextImport(t.db, t.clock, worker)).rejects.toThrow(/BOOM refused/);
        expect((await api.get(`/api/v1/members/imports/${created.id}`)).body.status).toBe('running');
        t.clock.advance(imports.IMPORT_LEASE_MS + 1);
      }
      expect(await imports.runNextImport(t.db, t.clock, worker)).toBe(true);
      expect((await api.get(`/api/v1/members/imports/${created.id}`)).body).toMatchObject({
        status: 'failed',
        failure: expect.stringMatching(/^Lines 2 to 2 could not be imported \(.*BOOM refused.*\).* \(after 3 attempts\)$/),
      });
      t.clock.advance(imports.IMPORT_LEASE_MS + 1);
      expect(await imports.claimImport(t.db, t.clock, worker)).toBeUndefined();
    } finally {
      await allowCard();
    }
  });

  it('housekeeping deletes uploads an API process stopped receiving an hour ago, with their chunks', async () => {
    const { venue } = await venueWithImportKey();
    const program = (await sql<{ id: string }>`select id from programs where chain_id = ${venue.chainId}`.execute(t.db)).rows[0]!.id;
    const upload = async (id: string, at: Date) => {
      await sql`insert into member_imports (chain_id, id, program_id, livemode, format, status, created_at)
        values (${venue.chainId}, ${id}, ${program}, true, 'csv', 'receiving', ${at})`.execute(t.db);
      await sql`insert into member_import_chunks (chain_id, import_id, seq, bytes) values (${venue.chainId}, ${id}, 0, ${Buffer.from('card_number\n')})`.execute(t.db);
    };
    const now = t.clock.now();
    const old = ['0190a000-0000-7000-8000-000000000001', '0190a000-0000-7000-8000-000000000002', '0190a000-0000-7000-8000-000000000003'];
    for (const id of old) await upload(id, new Date(now.getTime() - imports.INTERRUPTED_UPLOAD_MS - 1));
    await upload('0190a000-0000-7000-8000-000000000004', new Date(now.getTime() - imports.INTERRUPTED_UPLOAD_MS + 60_000));
    // Two at a time: bounded batches until none is left.
    expect(await imports.forgetInterruptedUploads(t.db, now, 2)).toBe(3);
    const { rows } = await sql<{ id: string }>`select import_id as id from member_import_chunks where chain_id = ${venue.chainId}`.execute(t.db);
    expect(rows).toEqual([{ id: '0190a000-0000-7000-8000-000000000004' }]);
  });

  it("POST /v1/members and POST /v1/members/{id}/cards refuse a card number that is another member's serial (409)", async () => {
    const { venue, api } = await venueWithImportKey();
    const a = await api.post('/api/v1/members', { card_number: 'SER-A', consent: true });
    const b = await api.post('/api/v1/members', { card_number: 'SER-B', consent: true });
    expect([a.status, b.status]).toEqual([201, 201]);
    const serialOf = async (id: string) => (await sql<{ serial: string }>`select serial from members where chain_id = ${venue.chainId} and id = ${id}`.execute(t.db)).rows[0]!.serial;
    const serialA = await serialOf(a.body.id);
    const enrol = expectError(await api.post('/api/v1/members', { card_number: serialA, consent: true }), 409, 'card_number_taken');
    expect(enrol).toMatchObject({ param: 'card_number', message: expect.stringMatching(/another member's serial/) });
    expectError(await api.post(`/api/v1/members/${b.body.id}/cards`, { card_number: serialA }), 409, 'card_number_taken');
    // A member's own serial is theirs to carry as a card: a scan still finds one member.
    expect((await api.post(`/api/v1/members/${a.body.id}/cards`, { card_number: serialA })).status).toBe(201);
  });
});
