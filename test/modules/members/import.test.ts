// `members import FILE`: generated files imported in one run (100,000 members on PostgreSQL), bad lines reported
// with their line and reason while the rest apply, and an interrupted import resumed to each member exactly once.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerCaller, type Venue } from '../../../src/modules/accounts/service.js';
import { importFile } from '../../../src/modules/members/bulk-import-file.js';
import { importMembers } from '../../../src/modules/members/bulk-import.js';
import * as members from '../../../src/modules/members/service.js';
import { TEST_PEPPER, useTestApp } from '../../support/app.js';
import { createProgram, createVenue, refuseCard } from '../../support/factories.js';
import { runCli } from '../../support/processes.js';
import { generatedMember, IMPORT_HEADER, writeMembersFile } from '../../support/members-seed.js';
import { needs } from '../../support/services.js';

const t = useTestApp();
const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const postgres = await needs('postgres');
const embedded = await needs('embedded');


function writeGenerated(name: string, count: number): string {
  const file = path.join(dir, name);
  writeMembersFile(file, count);
  return file;
}

async function cashbackVenue(): Promise<Venue> {
  const venue = await createVenue(t);
  await createProgram(t, venue, 'cashback');
  return venue;
}

const target = (venue: Venue, reference = 'test file') => ({ chainId: venue.chainId, venueId: venue.id, livemode: true, country: venue.country, reference });

/** Every member of the venue with their card, totals and how many `import` entries they have. */
async function imported(venue: Venue) {
  const { rows } = await sql<{ card_number: string; cashback: string; spend: string; visits: number; entries: string }>`
    select c.card_number, m.cashback, m.spend, m.visits,
      (select count(*) from ledger_entries l where l.chain_id = m.chain_id and l.member_id = m.id and l.kind = 'import') as entries
    from members m join member_cards c on c.chain_id = m.chain_id and c.member_id = m.id
    where m.chain_id = ${venue.chainId} order by c.card_number`.execute(t.db);
  return rows.map((r) => ({ card: r.card_number, balance: Number(r.cashback), spend: Number(r.spend), visits: r.visits, entries: Number(r.entries) }));
}

/** What the venue must hold after importing generated members 0..count-1, each exactly once. */
const expectedMembers = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const m = generatedMember(i);
    return { card: m.card, balance: m.balance, spend: m.spend, visits: m.visits, entries: 1 };
  });

async function importInOneRun(count: number) {
  const venue = await cashbackVenue();
  const file = writeGenerated(`members-${count}.csv`, count);
  const rssBefore = process.memoryUsage().rss;
  const done = await importFile(t.db, target(venue), file, { clock: t.clock, report: path.join(dir, `report-${count}.csv`) });
  const rssGrowth = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  console.log(
    `members import: ${count} members in ${done.seconds.toFixed(1)} s (${Math.round(count / done.seconds)} members/s), RSS grew ${rssGrowth.toFixed(0)} MB`,
  );
  expect(done).toMatchObject({ imported: count, skipped: 0, failed: 0, stopped: false });
  const { rows } = await sql<{ n: string; balance: string; spend: string }>`
    select count(*)::text as n, sum(cashback)::text as balance, sum(spend)::text as spend from members where chain_id = ${venue.chainId}`.execute(t.db);
  // Sums of the generator's figures, computed here from the formulas.
  let balance = 0;
  let spend = 0;
  for (let i = 0; i < count; i++) {
    balance += generatedMember(i).balance;
    spend += generatedMember(i).spend;
  }
  expect(rows[0]).toEqual({ n: String(count), balance: String(balance), spend: String(spend) });
  expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
  return done;
}

describe('members import', () => {
  // How fast is the directory bench's to say (npm run bench:directory); this one says that all of them arrive.
  postgres.it('imports 100,000 generated members in one run', async () => {
    await importInOneRun(100_000);
  }, 300_000);

  embedded.it('imports 2,000 generated members in one run (the 100,000 run is PostgreSQL’s)', async () => {
    await importInOneRun(2_000);
  }, 60_000);

  it('a file with 1 % bad lines applies the rest and reports each bad line with its line number and reason', async () => {
    const venue = await cashbackVenue();
    const lines = [IMPORT_HEADER];
    /** Line number (the header is line 1) → what its reason must say. */
    const bad = new Map<number, RegExp>();
    const faults: Array<[string, RegExp]> = [
      ['bad card!,,,2024-01-01,0,0,0,0', /card_number must match pattern/],
      ['B-PHONE-{i},12,,2024-01-01,0,0,0,0', /phone is not a valid phone number for IE/],
      ['B-CONSENT-{i},,,,0,0,0,0', /consent_date is required/],
      ['B-DATE-{i},,,01/02/2024,0,0,0,0', /consent_date must be a date/],
      ['B-FUTURE-{i},,,2999-01-01,0,0,0,0', /consent_date is in the future/],
      ['B-NEG-{i},,,2024-01-01,-5,0,0,0', /opening_balance must be a whole number/],
      ['B-STAMPS-{i},,,2024-01-01,0,0,0,3', /stamps apply only to a stamps program/],
      ['B-FIELDS-{i},,,2024-01-01,0', /The line has 5 fields; the header has 8/],
      ['G0000001,,,2024-01-01,0,0,0,0', /card_number is also on line 3/],
      ['B-FRAC-{i},,,2024-01-01,0,12.5,0,0', /total_spend must be a whole number/],
    ];
    let good = 0;
    for (let i = 0; i < 1000; i++) {
      const line = lines.length + 1;
      if (i % 100 === 50) {
        const [text, reason] = faults[(i - 50) / 100]!;
        lines.push(text.replace('{i}', String(i)));
        bad.set(line, reason);
      } else {
        const m = generatedMember(i);
        lines.push(`${m.card},${m.phone},Guest ${i},2024-03-01,${m.balance},${m.spend},${m.visits},0`);
        good++;
      }
    }
    const file = path.join(dir, 'one-percent-bad.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const report = path.join(dir, 'one-percent-bad.report.jsonl');
    const done = await importFile(t.db, target(venue), file, { clock: t.clock, report });

    expect(done).toMatchObject({ imported: good, skipped: 0, failed: 10 });
    const reported = readFileSync(report, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { line: number; reason: string });
    expect(reported.map((r) => r.line)).toEqual([...bad.keys()]);
    for (const r of reported) expect(r.reason).toMatch(bad.get(r.line)!);
    expect((await imported(venue)).length).toBe(good);
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
  });

  it('the example file of docs/members.md imports whole', async () => {
    const venue = await cashbackVenue();
    const example = path.resolve(import.meta.dirname, '../../../docs/examples/members-import.csv');
    const done = await importFile(t.db, target(venue), example, { clock: t.clock, report: path.join(dir, 'example.report.csv') });
    expect(done).toMatchObject({ imported: 4, skipped: 0, failed: 0 });
    expect(await imported(venue)).toEqual([
      { card: '100001', balance: 1250, spend: 48600, visits: 23, entries: 1 },
      { card: '100002', balance: 0, spend: 12900, visits: 6, entries: 1 },
      { card: '100003', balance: 320, spend: 5400, visits: 3, entries: 1 },
      { card: 'A-77', balance: 0, spend: 0, visits: 0, entries: 1 },
    ]);
  });

  it('JSON Lines: the same fields, numbers as numbers, line numbers counted from 1', async () => {
    const venue = await cashbackVenue();
    const file = path.join(dir, 'members.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ card_number: 'J-1', phone: '087 123 4567', name: 'Aoife', consent_date: '2024-02-01', opening_balance: 250, total_spend: 12000, visits: 4 }),
        '',
        '{"card_number": "J-2", "consent_date": "2024-02-01T10:00:00+01:00", "shoe_size": 9}',
        'not json',
        JSON.stringify({ card_number: 'J-3', consent_date: '2024-02-01' }),
      ].join('\n'),
    );
    const report = path.join(dir, 'members.jsonl.report.csv');
    const done = await importFile(t.db, target(venue), file, { clock: t.clock, report });
    expect(done).toMatchObject({ format: 'jsonl', imported: 2, failed: 2 });
    expect(readFileSync(report, 'utf8')).toBe('line,reason\n3,"shoe_size is not a known field; the fields are card_number, phone, email, name, consent_date, opening_balance, total_spend, visits, stamps."\n4,"The line is not valid JSON."\n');
    const aoife = await members.lookupMember(t.db, { ...ownerCaller(venue), now: t.clock.now() }, { card_number: 'J-1' });
    expect(aoife).toMatchObject({ phone: '+353871234567', name: 'Aoife', balance: 250, total_spend: 12000, visits: 4 });
    expect(new Date(aoife.consented_at).toISOString()).toBe('2024-02-01T00:00:00.000Z');
  });

  it('stopped between batches and run again: each member exactly once, with the right balance', async () => {
    const venue = await cashbackVenue();
    const file = writeGenerated('interrupted.csv', 1000);
    const stop = new AbortController();
    let batches = 0;
    const first = await importMembers(t.db, target(venue), 'csv', readChunks(file), {
      clock: t.clock,
      batchSize: 100,
      signal: stop.signal,
      afterBatch: () => void (++batches === 3 && stop.abort()),
    });
    expect(first).toMatchObject({ imported: 300, stopped: true });
    expect((await imported(venue)).length).toBe(300);

    const again = await importMembers(t.db, target(venue), 'csv', readChunks(file), { clock: t.clock, batchSize: 100 });
    expect(again).toMatchObject({ imported: 700, skipped: 300, failed: 0, stopped: false });
    expect(await imported(venue)).toEqual(expectedMembers(1000));
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
  });

  postgres.it('the CLI killed with SIGKILL midway and run again: each member exactly once, ledger verify clean', async () => {
    const venue = await cashbackVenue();
    const count = 20_000;
    const file = writeGenerated('killed.csv', count);
    const env = { ...process.env, DATABASE_URL: t.testDatabase.url!, API_KEY_PEPPER: TEST_PEPPER };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'members', 'import', file, '--venue', venue.id], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed once some batches have committed, and before the last.
    let seen = 0;
    for (let waited = 0; seen < 2000 && waited < 120_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      seen = Number((await sql<{ n: string }>`select count(*) as n from members where chain_id = ${venue.chainId}`.execute(t.db)).rows[0]!.n);
    }
    child.kill('SIGKILL');
    await exited;
    const before = (await imported(venue)).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(count);
    expect(before % 1000).toBe(0); // whole batches: a batch commits whole or not at all

    const rerun = await runCli(['members', 'import', file, '--venue', venue.id, '--report', path.join(dir, 'killed.report.csv')], env as Record<string, string>);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain(`${count - before} members imported, ${before} already there skipped, 0 bad lines`);
    expect(await imported(venue)).toEqual(expectedMembers(count));
    const verify = await runCli(['ledger', 'verify', '--venue', venue.id], env as Record<string, string>);
    expect(verify.code, verify.stdout).toBe(0);
  }, 240_000);
});

async function* readChunks(file: string): AsyncGenerator<Buffer> {
  const bytes = readFileSync(file);
  for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096);
}

async function* text(content: string): AsyncGenerator<Buffer> {
  yield Buffer.from(content);
}

/** Imports `content` and gathers its bad lines; also checks that every data line is accounted for exactly once. */
async function importText(venue: Venue, format: 'csv' | 'jsonl', content: string, dataLines: number, batchSize?: number) {
  const bad: { line: number; reason: string }[] = [];
  const done = await importMembers(t.db, target(venue), format, text(content), { clock: t.clock, batchSize, afterBatch: (o) => void bad.push(...o.badLines) });
  // No line lost silently: each is reported, imported or skipped.
  expect(bad.length + done.imported + done.skipped).toBe(dataLines);
  expect(done.failed).toBe(bad.length);
  return { done, bad };
}

const cards = async (venue: Venue) => (await imported(venue)).map((m) => m.card);

describe('members import: what a line may hold', () => {
  it('a value the database cannot hold is a bad line, not a crash: dates 1900 to now, figures within their maximum', async () => {
    const venue = await cashbackVenue();
    const content = [
      'card_number,consent_date,visits,opening_balance',
      'Y-1,2024-01-01,0,0',
      'Y-2,0000-01-01,0,0',
      'Y-3,1899-12-31,0,0',
      'Y-4,2024-01-01,1000000001,0', // over the billion visits kept below int4's 2,147,483,647
      'Y-5,2024-01-01,0,1000000000001', // over 10 billion in major units
      'Y-6,1900-01-01,1000000000,1000000000000',
    ].join('\n');
    const { bad } = await importText(venue, 'csv', content, 6);
    expect(bad).toEqual([
      { line: 3, reason: 'consent_date is before 1900-01-01.' },
      { line: 4, reason: 'consent_date is before 1900-01-01.' },
      { line: 5, reason: 'visits must be a whole number from 0 to 1000000000.' },
      { line: 6, reason: 'opening_balance must be a whole number from 0 to 1000000000000 in minor units (cents).' },
    ]);
    expect(await imported(venue)).toEqual([
      { card: 'Y-1', balance: 0, spend: 0, visits: 0, entries: 1 },
      { card: 'Y-6', balance: 1_000_000_000_000, spend: 0, visits: 1_000_000_000, entries: 1 },
    ]);
  });

  it('a batch the database refuses for an unforeseen reason stops the import naming its lines; the batches before stay', async () => {
    const venue = await cashbackVenue();
    const allowCard = await refuseCard(t, venue, 'BOOM');
    try {
      const content = ['card_number,consent_date', 'K-1,2024-01-01', 'K-2,2024-01-01', 'K-3,2024-01-01', 'BOOM,2024-01-01', 'K-5,2024-01-01'].join('\n');
      const run = importMembers(t.db, target(venue), 'csv', text(content), { clock: t.clock, batchSize: 2 });
      await expect(run).rejects.toThrow(/^Lines 4 to 5 could not be imported \(.*BOOM refused.*\); the lines before them are imported\.$/);
      expect(await cards(venue)).toEqual(['K-1', 'K-2']);
    } finally {
      await allowCard();
    }
  });

  it('a stray opening quote: every line it swallows is reported from its first line, the lines after it import', async () => {
    const venue = await cashbackVenue();
    const closedLater = ['card_number,name,consent_date', 'U-1,"Anne,2024-01-01', 'U-2,Bob,2024-01-01', 'U-3,Carl,2024-01-01', 'U-4,Dan",2024-01-01', 'U-5,Eve,2024-01-01'].join('\n');
    const first = await importText(venue, 'csv', closedLater, 5);
    expect(first.bad).toEqual([2, 3, 4, 5].map((line) => ({ line, reason: 'The line is not valid CSV: unbalanced quote starting on line 2.' })));
    expect(await cards(venue)).toEqual(['U-5']);

    const other = await cashbackVenue();
    const neverClosed = ['card_number,name,consent_date', 'V-1,Zed,2024-01-01', 'V-2,"Anne,2024-01-01', 'V-3,Bob,2024-01-01', ''].join('\n');
    const second = await importText(other, 'csv', neverClosed, 3);
    expect(second.bad).toEqual([3, 4].map((line) => ({ line, reason: 'The line is not valid CSV: unbalanced quote starting on line 3.' })));
    expect(await cards(other)).toEqual(['V-1']);
  });

  it('a quoted field over two lines is reported at both, from its first line', async () => {
    const venue = await cashbackVenue();
    const content = ['card_number,name,phone,consent_date', 'M-1,"Anne', 'Smith",,2024-01-01', 'M-2,Bob,,', 'M-3,"Carl, Jr",,2024-01-01'].join('\n');
    const { bad } = await importText(venue, 'csv', content, 4);
    expect(bad.map((b) => b.line)).toEqual([2, 3, 4]);
    expect(bad[0]!.reason).toMatch(/unbalanced quote starting on line 2/);
    expect(bad[2]!.reason).toMatch(/consent_date is required/);
    expect(await cards(venue)).toEqual(['M-3']);
  });

  it('Excel files: semicolons as the delimiter, a trailing empty column, CR line endings; a column named twice refuses the file', async () => {
    const venue = await cashbackVenue();
    const semicolons = await importText(venue, 'csv', 'card_number;consent_date;opening_balance\nS-1;2024-01-01;1250\nS-2;2024-01-01;12,50\n', 2);
    expect(semicolons.bad).toEqual([{ line: 3, reason: expect.stringMatching(/opening_balance must be a whole number/) }]);
    const trailing = await importText(venue, 'csv', 'card_number,consent_date,\nT-1,2024-01-01,\nT-2,2024-01-01\n', 2);
    expect(trailing.bad).toEqual([]);
    const cr = await importText(venue, 'csv', 'card_number,consent_date\rC-1,2024-01-01\rC-2,bad\rC-3,2024-01-01\r', 3);
    expect(cr.bad).toEqual([{ line: 3, reason: expect.stringMatching(/consent_date must be a date/) }]);
    expect(await imported(venue)).toEqual([
      { card: 'C-1', balance: 0, spend: 0, visits: 0, entries: 1 },
      { card: 'C-3', balance: 0, spend: 0, visits: 0, entries: 1 },
      { card: 'S-1', balance: 1250, spend: 0, visits: 0, entries: 1 },
      { card: 'T-1', balance: 0, spend: 0, visits: 0, entries: 1 },
      { card: 'T-2', balance: 0, spend: 0, visits: 0, entries: 1 },
    ]);
    const twice = importMembers(t.db, target(venue), 'csv', text('card_number,consent_date,card_number\nH-1,2024-01-01,H-2\n'), { clock: t.clock });
    await expect(twice).rejects.toMatchObject({ code: 'parameter_invalid', param: 'file', message: 'The header names the column "card_number" twice; name each column once.' });
  });

  it('dates: a real calendar date, or a date and time with its offset', async () => {
    const venue = await cashbackVenue();
    const content = ['card_number,consent_date', 'D-1,2024-02-30', 'D-2,2023-02-29', 'D-3,2024-01-01T10:00:00', 'D-4,2024-01-01T25:00:00Z', 'D-5,2024-02-29', 'D-6,2024-01-01T10:00:00+01:00'].join('\n');
    const { bad } = await importText(venue, 'csv', content, 6);
    expect(bad.map((b) => b.line)).toEqual([2, 3, 4, 5]);
    for (const b of bad) expect(b.reason).toMatch(/consent_date must be a date as YYYY-MM-DD or an RFC 3339 date and time with its offset/);
    const caller = { ...ownerCaller(venue), now: t.clock.now() };
    const consented = async (card: string) => new Date((await members.lookupMember(t.db, caller, { card_number: card })).consented_at).toISOString();
    expect(await consented('D-5')).toBe('2024-02-29T00:00:00.000Z');
    expect(await consented('D-6')).toBe('2024-01-01T09:00:00.000Z');
  });

  it('JSON Lines: a card number, name or phone must be a string, as POST /v1/members takes it; lengths are checked as sent', async () => {
    const venue = await cashbackVenue();
    const content = [
      '{"card_number":12345678901234567890,"consent_date":"2024-01-01"}',
      '{"card_number":"J-2","consent_date":"2024-01-01","name":42}',
      '{"card_number":"J-3","consent_date":"2024-01-01","phone":871234567}',
      JSON.stringify({ card_number: 'J-4', consent_date: '2024-01-01', name: `     ${'a'.repeat(120)}` }),
      JSON.stringify({ card_number: 'J-5', consent_date: '2024-01-01', name: ` ${'a'.repeat(118)} `, opening_balance: 100 }),
    ].join('\n');
    const { bad } = await importText(venue, 'jsonl', content, 5);
    expect(bad).toEqual([
      { line: 1, reason: 'card_number must be a string.' },
      { line: 2, reason: 'name must be a string.' },
      { line: 3, reason: 'phone must be a string.' },
      { line: 4, reason: expect.stringMatching(/name/) },
    ]);
    const caller = { ...ownerCaller(venue), now: t.clock.now() };
    expect(await members.lookupMember(t.db, caller, { card_number: 'J-5' })).toMatchObject({ name: 'a'.repeat(118), balance: 100 });
  });

  it('stamps: a full card is refused with the reason (rewards owed are given at the till)', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'stamps'); // 5 stamps for a free coffee
    const { bad } = await importText(venue, 'csv', 'card_number,consent_date,stamps\nS-4,2024-01-01,4\nS-5,2024-01-01,5\nS-25,2024-01-01,25\n', 3);
    expect(bad).toEqual([3, 4].map((line) => ({ line, reason: 'stamps must be fewer than the 5 a reward takes; give rewards owed at the till, not as stamps.' })));
    expect(await cards(venue)).toEqual(['S-4']);
  });

  it('an email column: stored trimmed and lower-cased; a bad address, one already on a line or another member\'s is a bad line; run again, skipped', async () => {
    const venue = await cashbackVenue();
    const caller = { ...ownerCaller(venue), now: t.clock.now() };
    await members.enrolMember(t.db, caller, { card_number: 'E-0', consent: true, email: 'taken@example.com' }, null);
    // Another chain's member with an address is no conflict here.
    const other = await cashbackVenue();
    await members.enrolMember(t.db, { ...ownerCaller(other), now: t.clock.now() }, { card_number: 'E-9', consent: true, email: 'elsewhere@example.com' }, null);
    const csv = [
      'card_number,email,consent_date',
      'E-1, Aoife@Example.COM ,2024-01-01',
      'E-2,not-an-address,2024-01-01',
      'E-3,AOIFE@example.com,2024-01-01',
      'E-4,taken@example.com,2024-01-01',
      'E-5,,2024-01-01',
      'E-6,elsewhere@example.com,2024-01-01',
      '',
    ].join('\n');
    const { done, bad } = await importText(venue, 'csv', csv, 6);
    expect(done).toMatchObject({ imported: 3, failed: 3 });
    expect(bad).toEqual([
      { line: 3, reason: 'email is not an e-mail address (one @, no spaces, at most 254 characters).' },
      { line: 4, reason: 'email is also on line 2; an e-mail address names one member.' },
      { line: 5, reason: "email is another member's of this chain; an e-mail address names one member." },
    ]);
    const byCard = async (card_number: string) => (await members.lookupMember(t.db, caller, { card_number })).email;
    expect([await byCard('E-1'), await byCard('E-5'), await byCard('E-6')]).toEqual(['aoife@example.com', null, 'elsewhere@example.com']);
    expect((await members.lookupMember(t.db, caller, { email: 'aoife@example.com' })).card_numbers).toEqual(['E-1']);
    // The same good lines again: imported before, so skipped, not refused for their own address.
    const again = await importText(venue, 'jsonl', `${JSON.stringify({ card_number: 'E-1', email: 'aoife@example.com', consent_date: '2024-01-01' })}\n`, 1);
    expect(again.done).toMatchObject({ imported: 0, skipped: 1, failed: 0 });
  });

  it("a card number that is another member's serial is a bad line (a scan of it would find two members)", async () => {
    const venue = await cashbackVenue();
    await importText(venue, 'csv', 'card_number,consent_date\nQ-1,2024-01-01\n', 1);
    const { rows } = await sql<{ serial: string }>`select serial from members where chain_id = ${venue.chainId}`.execute(t.db);
    const serial = rows[0]!.serial;
    const { bad } = await importText(venue, 'csv', `card_number,consent_date\nQ-2,2024-01-01\n${serial},2024-01-01\nQ-3,2024-01-01\n`, 3);
    expect(bad).toEqual([{ line: 3, reason: "card_number is another member's serial (the code on their pass); a scan of it would find two members." }]);
    expect(await cards(venue)).toEqual(['Q-1', 'Q-2', 'Q-3']);
  });
});
