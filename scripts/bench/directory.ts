// `npm run bench:directory`: the members directory (D27) at 100,000 members of one chain among others, on a fresh
// embedded database or DATABASE_URL's server: search by a name fragment, phone, e-mail and card, each filter and
// sort, a page deep into a sort, timed through the service (directory.listMembers) one after another; p50 and p95
// against the 100 ms target; and the members import of as many generated members into a chain of its own (one run
// of the CLI's importFile, its rate). Writes bench/results/directory-<database>.json (BENCH_OUT: elsewhere).
// BENCH_MEMBERS: how many (default 100,000); BENCH_SMOKE=1: 2,000 members and a few runs of each (not figures).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import * as accounts from '../../src/modules/accounts/service.js';
import { importFile } from '../../src/modules/members/bulk-import-file.js';
import * as directory from '../../src/modules/members/directory.js';
import { systemClock } from '../../src/shared/clock.js';
import * as programs from '../../src/modules/programs/service.js';
import { seedMembers, seededCard, seededEmail, seededPhone, writeMembersFile } from '../../test/support/members-seed.js';
import { Latencies } from './stats.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? (SMOKE ? 2_000 : 100_000));
const RUNS = SMOKE ? 3 : 40;
const TARGET_P95_MS = 100;
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite' });
  await migrateToLatest(database.db);
  const label = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const imported = await timeImport(database);
  const { venue, programId } = await seed(database);
  // Another chain of the same size-order shares every index: the queries must stay within theirs.
  await seed(database, Math.round(MEMBERS / 4));
  // As the service keeps them: PostgreSQL's autovacuum, PGlite's hourly ANALYZE (db/statistics.ts).
  await sql`analyze`.execute(database.db);

  const caller = { ...accounts.ownerCaller(venue), keyVenueId: null };
  const page = { limit: 50 };
  const now = Date.now();
  const cases: Array<[string, directory.DirectoryQuery, { startingAfterOf?: directory.DirectoryQuery }?]> = [
    ['newest first (no search)', {}],
    ['name fragment "aoif"', { q: 'aoif', sort: 'name' }],
    ['two words without accents "sean suil"', { q: 'sean suil', sort: 'name' }],
    ['name fragment "mur" sorted by last visit', { q: 'mur', sort: 'last_visit' }],
    ['two letters "ke"', { q: 'ke' }],
    ['no match "xyzzy"', { q: 'xyzzy' }],
    ['phone', { q: seededPhone(MEMBERS - 7) }],
    ['e-mail', { q: seededEmail(MEMBERS - 11) }],
    ['card', { q: seededCard(MEMBERS - 13) }],
    ['level Gold', { level: 'Gold' }],
    ['program', { program_id: programId }],
    ['home venue', { venue_id: venue.id }],
    ['last visit within 30 days', { last_visit_after: new Date(now - 30 * 86_400_000).toISOString() }],
    ['last visit over 180 days ago', { last_visit_before: new Date(now - 180 * 86_400_000).toISOString() }],
    ['sort by name', { sort: 'name' }],
    ['sort by last visit', { sort: 'last_visit' }],
    ['sort by balance', { sort: 'balance' }],
    ['sort by spend', { sort: 'spend' }],
    ['sort by spend, 20th page', { sort: 'spend' }, { startingAfterOf: { sort: 'spend' } }],
    ['name "ryan" + level Silver + sort by balance', { q: 'ryan', level: 'Silver', sort: 'balance' }],
  ];
  const results: Record<string, unknown>[] = [];
  for (const [name, query, deep] of cases) {
    const startingAfter = deep ? await twentiethPageCursor(database, caller, deep.startingAfterOf!) : undefined;
    const run = () => directory.listMembers(database.db, { ...caller, now: new Date() }, { ...page, startingAfter }, query);
    const found = (await run()).data.length;
    const latencies = new Latencies();
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await run();
      latencies.push(performance.now() - t0);
    }
    const s = latencies.summary();
    const p95 = latencies.quantile(0.95)!;
    results.push({ case: name, found, p50_ms: s.p50_ms, p95_ms: p95, max_ms: s.max_ms, within_target: p95 <= TARGET_P95_MS });
    console.log(`${label}: ${name.padEnd(48)} ${String(found).padStart(3)} found · p50 ${s.p50_ms} ms · p95 ${p95} ms${p95 > TARGET_P95_MS ? '  OVER' : ''}`);
  }
  const out = process.env.BENCH_OUT ?? path.resolve(import.meta.dirname, `../../bench/results/directory-${database.kind}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ database: label, members: MEMBERS, runs_each: RUNS, page_size: page.limit, target_p95_ms: TARGET_P95_MS, smoke: SMOKE, at: new Date().toISOString(), import: imported, results }, null, 2) + '\n');
  console.log(`Written to ${out}`);
  await database.close();
}

/** A chain with `count` members (test/support/members-seed.ts). */
async function seed(database: Database, count = MEMBERS) {
  const slug = `bench-directory-${count}-${Math.random().toString(36).slice(2, 8)}`;
  const venue = await accounts.createVenue(database.db, { name: 'Directory bench', slug });
  const program = await programs.createProgram(database.db, venue.chainId, {
    name: 'Cashback',
    type: 'cashback',
    settings: { levels: [{ name: 'Bronze', min_spend: 0, percent: 3 }, { name: 'Silver', min_spend: 50_000, percent: 5 }, { name: 'Gold', min_spend: 150_000, percent: 8 }] },
  });
  const started = performance.now();
  await seedMembers(database.db, { chainId: venue.chainId, venueId: venue.id, programId: program.id }, count);
  console.log(`seeded ${count} members in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { venue, programId: program.id };
}

/** The members import of MEMBERS generated members (test/support/members-seed.ts) into a chain of its own, in one run. */
async function timeImport(database: Database) {
  const venue = await accounts.createVenue(database.db, { name: 'Import bench', slug: `bench-import-${Math.random().toString(36).slice(2, 8)}` });
  await programs.createProgram(database.db, venue.chainId, { name: 'Cashback', type: 'cashback', settings: { levels: [{ name: 'Bronze', min_spend: 0, percent: 3 }] } });
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
  try {
    const file = path.join(dir, 'members.csv');
    writeMembersFile(file, MEMBERS);
    const target = { chainId: venue.chainId, venueId: venue.id, livemode: true, country: venue.country, reference: 'bench' };
    const done = await importFile(database.db, target, file, { clock: systemClock, report: path.join(dir, 'report.csv') });
    if (done.imported !== MEMBERS) throw new Error(`the import took ${done.imported} of ${MEMBERS} members`);
    const result = { members: done.imported, seconds: Math.round(done.seconds * 10) / 10, members_per_s: Math.round(done.imported / done.seconds) };
    console.log(`import: ${result.members} members in ${result.seconds} s (${result.members_per_s} members/s)`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function twentiethPageCursor(database: Database, caller: Parameters<typeof directory.listMembers>[1], query: directory.DirectoryQuery) {
  let after: string | undefined;
  for (let i = 0; i < 19; i++) after = (await directory.listMembers(database.db, caller, { limit: 50, startingAfter: after }, query)).data.at(-1)!.id;
  return after;
}

await main();
