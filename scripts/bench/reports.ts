// `npm run bench:reports`: the Reports page's query (dashboard/activity-report.ts) at a year of history, on a fresh
// embedded database or DATABASE_URL's server: 100,000 members and BENCH_CHECKS_PER_DAY (default 1,000) checks a day
// for 365 days, seven in ten naming a member (with its earn entry, one in ten a redemption), written by SQL; then the
// report of the last 30 days, 90 days and the whole year, timed one after another through the service, p50 and p95
// against the 100 ms target. Writes bench/results/reports-<database>.json (BENCH_OUT: elsewhere).
// BENCH_SMOKE=1: 2,000 members, 20 checks a day and a few runs (not figures). The seeded figures are not a
// balanced ledger (members' totals are the seed's): only the time is measured.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { activityReport } from '../../src/dashboard/activity-report.js';
import * as accounts from '../../src/modules/accounts/service.js';
import * as programs from '../../src/modules/programs/service.js';
import { addDays, venueDay } from '../../src/shared/time.js';
import { seedMembers } from '../../test/support/members-seed.js';
import { Latencies } from './stats.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const MEMBERS = SMOKE ? 2_000 : 100_000;
const PER_DAY = Number(process.env.BENCH_CHECKS_PER_DAY ?? (SMOKE ? 20 : 1_000));
const DAYS = 365;
const RUNS = SMOKE ? 3 : 20;
const TARGET_P95_MS = 100;

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite' });
  await migrateToLatest(database.db);
  const label = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const venue = await seed(database);
  await sql`analyze`.execute(database.db);

  const now = new Date();
  const today = venueDay(now, venue.timezone);
  const results: Record<string, unknown>[] = [];
  for (const days of [30, 90, 366]) {
    const query = { from: addDays(today, -(days - 1)), to: today, livemode: true };
    const run = () => activityReport(database.db, venue, query, new Date());
    const checks = (await run()).totals.checks;
    const latencies = new Latencies();
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await run();
      latencies.push(performance.now() - t0);
    }
    const s = latencies.summary();
    const p95 = latencies.quantile(0.95)!;
    results.push({ case: `last ${days} days`, checks, p50_ms: s.p50_ms, p95_ms: p95, max_ms: s.max_ms, within_target: p95 <= TARGET_P95_MS });
    console.log(`${label}: last ${String(days).padStart(3)} days · ${checks} checks · p50 ${s.p50_ms} ms · p95 ${p95} ms${p95 > TARGET_P95_MS ? '  OVER' : ''}`);
  }
  const out = process.env.BENCH_OUT ?? path.resolve(import.meta.dirname, `../../bench/results/reports-${database.kind}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify({ database: label, members: MEMBERS, checks_per_day: PER_DAY, days: DAYS, runs_each: RUNS, target_p95_ms: TARGET_P95_MS, smoke: SMOKE, at: now.toISOString(), results }, null, 2) + '\n',
  );
  console.log(`Written to ${out}`);
  await database.close();
}

/** A venue with MEMBERS members and a year of checks up to today, each month by one statement. */
async function seed(database: Database) {
  const db = database.db;
  const venue = await accounts.createVenue(db, { name: 'Reports bench', slug: `bench-reports-${Math.random().toString(36).slice(2, 8)}` });
  const program = await programs.createProgram(db, venue.chainId, { name: 'Cashback', type: 'cashback', settings: { levels: [{ name: 'Bronze', min_spend: 0, percent: 3 }] } });
  let started = performance.now();
  await seedMembers(db, { chainId: venue.chainId, venueId: venue.id, programId: program.id }, MEMBERS);
  console.log(`seeded ${MEMBERS} members in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  await sql`create temporary table bench_members as select id, (row_number() over (order by serial) - 1)::int as n from members where chain_id = ${venue.chainId}`.execute(db);
  // Oldest first, in time order, as a venue's checks arrive.
  for (let to = DAYS - 1; to >= 0; to -= 30) {
    const from = Math.max(0, to - 29);
    // Day d is d days ago; check i of it is at 08:00 UTC plus i × 40 s; a member for seven in ten.
    await sql`with made as (
        insert into transactions (chain_id, venue_id, id, external_id, register_key, member_id, status, line_items, subtotal, discount_amount,
          redeemed, earned, earn_capped, stamps_earned, paid, closed_at, display, fingerprint, livemode, created_at, venue_day)
        select ${venue.chainId}, ${venue.id}, gen_random_uuid(), 'B-' || d || '-' || i, '', case when i % 10 < 7 then m.id end, 'completed', '[]'::jsonb,
          1000 + (i * 37) % 4000, 0, case when i % 10 = 0 then 200 else 0 end, case when i % 10 < 7 then 30 + (i * 37) % 120 else 0 end, false, 0,
          1000 + (i * 37) % 4000 - case when i % 10 = 0 then 200 else 0 end, at, '{"cashier":"","receipt":[]}'::jsonb, '', true, at,
          (at at time zone 'UTC')::date
        from generate_series(${to}::int, ${from}::int, -1) d, generate_series(0, ${PER_DAY - 1}::int) i,
          lateral (select date_trunc('day', now()) - (d || ' days')::interval + interval '8 hours' + (i * 40 || ' seconds')::interval as at) t,
          lateral (select id from bench_members where n = (d * ${PER_DAY} + i) % ${MEMBERS}) m
        returning id, member_id, earned, redeemed, created_at
      ), earns as (
        insert into ledger_entries (chain_id, id, venue_id, member_id, kind, cashback, livemode, created_at, transaction_id)
        select ${venue.chainId}, gen_random_uuid(), ${venue.id}, member_id, 'earn', earned, true, created_at, id from made where member_id is not null
      )
      insert into ledger_entries (chain_id, id, venue_id, member_id, kind, cashback, livemode, created_at, transaction_id)
      select ${venue.chainId}, gen_random_uuid(), ${venue.id}, member_id, 'redemption', -redeemed, true, created_at, id from made where member_id is not null and redeemed > 0`.execute(db);
  }
  console.log(`seeded ${DAYS * PER_DAY} checks in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return venue;
}

await main();
