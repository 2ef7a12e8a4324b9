// Bulk seed, not through the API: the real migrations, then set-based INSERT … SELECT generate_series for the
// rows, with member totals equal to the sums of their ledger rows (what `ledger verify` checks). Venues,
// programs and API keys go through the services, as an owner's tools create them.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import * as accounts from '../../src/modules/accounts/service.js';
import * as programs from '../../src/modules/programs/service.js';
import type { BenchConfig } from './config.js';

export interface VenueSeed {
  index: number;
  id: string;
  slug: string;
  /** Secrets of this venue's API keys; requests take them in turn. */
  keys: string[];
  /** Odd venues set max_cashback_per_day, so a check there also reads the day's earnings. */
  capped: boolean;
}

export interface SeedResult {
  seconds: number;
  venues: VenueSeed[];
  /** The venue of history member h (old `H{h}` and new `N{h}`): uncapped venues only. */
  historyVenue: number[];
  counts: Record<string, number>;
}

/** Deterministic names, so scenarios know every card and check without reading them back. */
export const names = {
  slug: (v: number) => `bench-${v}`,
  card: (i: number) => `C${i}`,
  oldCard: (h: number) => `H${h}`,
  newCard: (h: number) => `N${h}`,
  pastCheck: (j: number) => `P${j}`,
  sku: (k: number) => `SKU-${k}`,
  dish: (n: number) => `D-${n}`,
};

export const PRODUCTS_PER_VENUE = 200;
export const DISHES_PER_VENUE = 500;
/** Product k's category: k % 4. */
export const PRODUCT_CATEGORIES = ['food', 'drinks', 'desserts', 'alcohol'] as const;
export const OPENING_BALANCE = 5_000;
export const DAY_CAP = 10_000;

const LEVELS = [
  { name: 'Member', min_spend: 0, percent: 3 },
  { name: 'Silver', min_spend: 50_000, percent: 5 },
  { name: 'Gold', min_spend: 200_000, percent: 7 },
];

/** The venue a regular member belongs to. */
export const venueOfMember = (config: BenchConfig, i: number) => i % config.venues;
export const memberOfPastCheck = (config: BenchConfig, j: number) => j % config.members;

export async function seed(database: Database, config: BenchConfig, onStep: (step: string) => void = () => {}): Promise<SeedResult> {
  const started = Date.now();
  const db = database.db;
  onStep('migrations');
  await migrateToLatest(db);

  onStep('venues, programs');
  const venues: VenueSeed[] = [];
  const programIds: string[] = [];
  for (let v = 0; v < config.venues; v++) {
    const capped = v % 2 === 1;
    const venue = await accounts.createVenue(db, {
      name: `Bench venue ${v}`,
      slug: names.slug(v),
      settings: capped ? { max_cashback_per_day: DAY_CAP } : {},
    });
    const program = await programs.createProgram(db, venue.id, {
      name: 'Cashback',
      type: 'cashback',
      settings: { levels: LEVELS, max_redeem_percent: 50 },
    });
    venues.push({ index: v, id: venue.id, slug: venue.slug, keys: [], capped });
    programIds.push(program.id);
  }

  onStep('API keys');
  // Through the accounts service, a few at a time (PGlite runs them one by one anyway).
  const jobs: (() => Promise<void>)[] = [];
  for (const venue of venues) {
    for (let k = 0; k < config.keysPerVenue; k++) {
      jobs.push(async () => {
        const { secret } = await accounts.createApiKey(db, config.pepper, { venueId: venue.id, name: `bench ${k}`, livemode: true });
        venue.keys.push(secret);
      });
    }
  }
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));

  const uncapped = venues.filter((v) => !v.capped).map((v) => v.index);
  const historyVenue = Array.from({ length: config.historyMembers }, (_, h) => uncapped[h % uncapped.length]!);

  await db.connection().execute(async (conn) => {
    const run = (step: string, query: ReturnType<typeof sql>) => {
      onStep(step);
      return query.execute(conn);
    };
    await run(
      'helpers',
      sql`create function pg_temp.bench_uuid7(ts timestamptz) returns uuid language sql volatile as $$
        select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
          placing substring(int8send(floor(extract(epoch from ts) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
      $$`,
    );
    // The rows are consistent by construction: skip the per-row foreign-key triggers while loading them.
    await sql`set session_replication_role = replica`.execute(conn);
    await sql`create temp table bench_venues (idx int primary key, venue_id uuid not null, program_id uuid not null)`.execute(conn);
    await sql`insert into bench_venues (idx, venue_id, program_id) values ${sql.join(
      venues.map((v, i) => sql`(${v.index}, ${v.id}::uuid, ${programIds[i]}::uuid)`),
    )}`.execute(conn);

    await run(
      'webhook endpoints',
      sql`insert into webhook_endpoints (venue_id, id, url, description, events, status, secret, livemode)
        select venue_id, gen_random_uuid(), 'https://hooks.bench.invalid/' || idx, 'bench: one delivery per event', '{*}', 'enabled',
          'whsec_bench_' || md5(idx::text), true
        from bench_venues`,
    );
    await run(
      'categories',
      sql`insert into catalog_categories (venue_id, id, external_id, name, earns_cashback, payable_with_cashback, cashback_percent_bp)
        select v.venue_id, gen_random_uuid(), c.external_id, c.name, c.earns, c.payable, c.bp
        from bench_venues v cross join (values
          ('food', 'Food', true, true, null::int),
          ('drinks', 'Soft drinks', true, true, 200),
          ('desserts', 'Desserts', true, true, 1250),
          ('alcohol', 'Alcohol', false, false, null::int)) c(external_id, name, earns, payable, bp)`,
    );
    await run(
      'products',
      sql`insert into catalog_products (venue_id, id, sku, name, category, price)
        select v.venue_id, gen_random_uuid(), 'SKU-' || k, 'Product ' || k,
          (array['food', 'drinks', 'desserts', 'alcohol'])[k % 4 + 1], 200 + (k * 37) % 2000
        from bench_venues v cross join generate_series(1, ${PRODUCTS_PER_VENUE}) k`,
    );
    await run(
      'dishes',
      sql`insert into dishes (venue_id, id, external_id, name, description, category, price, available)
        select v.venue_id, gen_random_uuid(), 'D-' || n, 'Dish ' || n, 'A dish of the bench menu', 'Mains', 500 + (n * 53) % 2500, true
        from bench_venues v cross join generate_series(0, ${DISHES_PER_VENUE - 1}) n`,
    );

    const M = config.members;
    const V = config.venues;
    await run(
      'members',
      sql`insert into members (venue_id, id, program_id, serial, name, consented_at, livemode, created_at)
        select v.venue_id, pg_temp.bench_uuid7(t.at), v.program_id, 'BS' || i, 'Guest ' || i, t.at, true, t.at
        from generate_series(0, ${M - 1}) i
        join bench_venues v on v.idx = i % ${V}
        cross join lateral (select now() - interval '400 days' + (i::float8 / ${M}) * interval '200 days' as at) t`,
    );
    await sql`create temp table bench_members as
      select substr(serial, 3)::int as idx, venue_id, id from members where serial like 'BS%'`.execute(conn);
    await sql`alter table bench_members add primary key (idx)`.execute(conn);
    await run(
      'member cards',
      sql`insert into member_cards (venue_id, card_number, member_id, created_at)
        select m.venue_id, 'C' || m.idx, m.id, now() - interval '400 days' from bench_members m`,
    );

    // History members: old ones with a long ledger, new ones with none, in uncapped venues.
    await sql`create temp table bench_history (idx int primary key, venue_id uuid not null, program_id uuid not null)`.execute(conn);
    await sql`insert into bench_history (idx, venue_id, program_id) values ${sql.join(
      historyVenue.map((v, h) => sql`(${h}, ${venues[v]!.id}::uuid, ${programIds[v]}::uuid)`),
    )}`.execute(conn);
    await run(
      'history members',
      sql`insert into members (venue_id, id, program_id, serial, name, consented_at, livemode, created_at)
        select h.venue_id, pg_temp.bench_uuid7(p.at), h.program_id, p.prefix || h.idx, p.label || h.idx, p.at, true, p.at
        from bench_history h
        cross join (values ('BH', 'Old guest ', now() - interval '400 days'), ('BN', 'New guest ', now() - interval '1 hour')) p(prefix, label, at)`,
    );
    await sql`insert into member_cards (venue_id, card_number, member_id, created_at)
      select venue_id, case when serial like 'BH%' then 'H' else 'N' end || substr(serial, 3), id, created_at
      from members where serial like 'BH%' or serial like 'BN%'`.execute(conn);

    const T = config.transactions;
    const K = Math.floor(config.historyEntries / 2);
    const insertChecks = (source: ReturnType<typeof sql>) => sql`
      insert into transactions (venue_id, id, external_id, register_key, register_id, member_id, status, line_items, subtotal,
        discount_amount, redeemed, earned, earn_capped, stamps_earned, paid, refunded_amount, closed_at, hold_id, display,
        fingerprint, livemode, created_at, venue_day, earned_reversed, redeemed_returned)
      select s.venue_id, pg_temp.bench_uuid7(s.at), s.ext, '', null, s.member_id, 'completed',
        jsonb_build_array(
          jsonb_build_object('sku', 'SKU-4', 'name', 'Product 4', 'category', 'food', 'quantity', 1, 'unit_price', s.subtotal - 500,
            'amount', s.subtotal - 500, 'earns_cashback', true, 'payable_with_cashback', true, 'cashback_percent', 3,
            'redeemed', s.redeemed - s.redeemed / 4, 'earned', (s.subtotal - 500 - s.redeemed + s.redeemed / 4) * 3 / 100, 'rule_source', 'product'),
          jsonb_build_object('sku', null, 'name', 'Coffee', 'category', null, 'quantity', 1, 'unit_price', 500,
            'amount', 500, 'earns_cashback', true, 'payable_with_cashback', true, 'cashback_percent', 3,
            'redeemed', s.redeemed / 4, 'earned', (500 - s.redeemed / 4) * 3 / 100, 'rule_source', 'default')),
        s.subtotal, 0, s.redeemed, c.earned, false, 0, c.paid, 0, s.at, null,
        jsonb_build_object('cashier', 'Guest · Member 3% · available €40.00', 'receipt', jsonb_build_array(
          'Cashback earned: +€' || to_char(c.earned / 100.0, 'FM990.00'), 'To pay: €' || to_char(c.paid / 100.0, 'FM99990.00'), 'Level: Member 3%')),
        md5(s.ext), true, s.at, (s.at at time zone 'Europe/Dublin')::date, 0, 0
      from (${source}) s
      cross join lateral (select s.subtotal - s.redeemed as paid, (s.subtotal - s.redeemed) * 3 / 100 as earned) c`;
    await run(
      'past transactions',
      insertChecks(sql`
        select m.venue_id, m.id as member_id, 'P' || j as ext,
          now() - interval '180 days' + (j::float8 / ${T}) * interval '179 days' as at,
          (1500 + (j::bigint * 7919) % 6000)::bigint as subtotal, (case when j % 3 = 0 then 300 else 0 end)::bigint as redeemed
        from generate_series(0, ${T - 1}) j join bench_members m on m.idx = j % ${M}
        order by m.venue_id, m.id, j`),
    );
    if (K > 0) {
      await run(
        'history transactions',
        insertChecks(sql`
          select m.venue_id, m.id as member_id, 'PH' || h.idx || '-' || k as ext,
            now() - interval '360 days' + (k::float8 / ${K}) * interval '359 days' as at,
            (1500 + (k::bigint * 7919) % 6000)::bigint as subtotal, 0::bigint as redeemed
          from bench_history h join members m on m.venue_id = h.venue_id and m.serial = 'BH' || h.idx
          cross join generate_series(0, ${K - 1}) k`),
      );
    }
    await run(
      'ledger',
      sql`insert into ledger_entries (venue_id, id, member_id, kind, cashback, spend, visits, stamps, reference, livemode, created_at)
        select t.venue_id, pg_temp.bench_uuid7(t.created_at), t.member_id, e.kind, e.cashback, e.spend, e.visits, 0, t.external_id, true, t.created_at
        from transactions t
        cross join lateral (values ('redemption', -t.redeemed, 0::bigint, 0), ('earn', t.earned, 0::bigint, 0), ('check', 0::bigint, t.paid, 1)) e(kind, cashback, spend, visits)
        where (e.kind <> 'redemption' or t.redeemed > 0) and (e.kind <> 'earn' or t.earned > 0)
        order by t.venue_id, t.member_id, t.created_at`,
    );
    await run(
      'opening balances',
      sql`insert into ledger_entries (venue_id, id, member_id, kind, cashback, reason, livemode, created_at)
        select m.venue_id, pg_temp.bench_uuid7(now() - interval '400 days'), m.id, 'import', ${OPENING_BALANCE}, 'bench opening balance', true,
          now() - interval '400 days'
        from bench_members m`,
    );
    await run(
      'member totals',
      sql`update members m set cashback = l.cashback, spend = l.spend, visits = l.visits, stamps = l.stamps
        from (select venue_id, member_id, sum(cashback) as cashback, sum(spend) as spend, sum(visits) as visits, sum(stamps) as stamps
              from ledger_entries group by venue_id, member_id) l
        where l.venue_id = m.venue_id and l.member_id = m.id`,
    );
    await sql`reset session_replication_role`.execute(conn);
    await sql`drop table bench_venues, bench_members, bench_history`.execute(conn);
    await sql`drop function pg_temp.bench_uuid7(timestamptz)`.execute(conn);
  });

  onStep('vacuum analyze');
  await sql`vacuum analyze`.execute(db);
  await sql`checkpoint`.execute(db);

  const counts: Record<string, number> = {};
  for (const table of ['venues', 'api_keys', 'members', 'transactions', 'ledger_entries', 'dishes', 'catalog_products']) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db as Kysely<any>);
    counts[table] = Number(rows[0]!.n);
  }
  return { seconds: (Date.now() - started) / 1000, venues, historyVenue, counts };
}
