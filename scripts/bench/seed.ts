// Bulk seed, not through the API: the real migrations, then set-based INSERT … SELECT generate_series for the
// rows, with member totals equal to the sums of their ledger rows (what `ledger verify` checks). Venues (each a
// chain of one, plus the chain comparison's chain of three and chain of one), programs and API keys go through the
// services, as an owner's tools create them.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import * as accounts from '../../src/modules/accounts/service.js';
import { SYSTEM } from '../../src/modules/audit/service.js';
import * as programs from '../../src/modules/programs/service.js';
import type { BenchConfig } from './config.js';

export interface VenueSeed {
  /** Its place in the seed's list of every venue, regular ones first, then the comparison's chains. */
  index: number;
  id: string;
  chainId: string;
  slug: string;
  /** Secrets of this venue's API keys; requests take them in turn. */
  keys: string[];
  /** Odd regular venues set max_cashback_per_day, so a check there also reads the day's earnings. */
  capped: boolean;
}

/** A chain of the chain comparison: its venues, and its own members (`names.chainCard(venues.length, i)`). */
export interface ComparisonChain {
  chainId: string;
  venues: VenueSeed[];
}

export interface SeedResult {
  seconds: number;
  /** The regular venues, each a chain of one with its own members. */
  venues: VenueSeed[];
  /** The venue of history member h (old `H{h}` and new `N{h}`): uncapped venues only. */
  historyVenue: number[];
  /** A chain of three venues and a chain of one, as many members each, with the same past checks per member. */
  chains: { three: ComparisonChain; one: ComparisonChain };
  /**
   * Chains of one alike but for their campaigns (D22): two active bonuses without a budget (`unlimited`), two of which
   * one has a budget (`budgeted`: every check takes from its row), and none.
   */
  campaignSides: Record<CampaignSide, ComparisonChain>;
  counts: Record<string, number>;
}

/** Deterministic names, so scenarios know every card and check without reading them back. */
export const names = {
  slug: (v: number) => `bench-${v}`,
  card: (i: number) => `C${i}`,
  /** Member i of the comparison's chain of `venues`: cards of the same length on both sides. */
  chainCard: (venues: number, i: number) => `K${venues}-${i}`,
  /** Member i of a venue of the campaign comparison. */
  campaignCard: (side: CampaignSide, i: number) => `${CAMPAIGN_PREFIX[side]}-${i}`,
  oldCard: (h: number) => `H${h}`,
  newCard: (h: number) => `N${h}`,
  pastCheck: (j: number) => `P${j}`,
  sku: (k: number) => `SKU-${k}`,
  dish: (n: number) => `D-${n}`,
};

export type CampaignSide = 'unlimited' | 'budgeted' | 'none';
export const CAMPAIGN_SIDES: CampaignSide[] = ['unlimited', 'budgeted', 'none'];
const CAMPAIGN_PREFIX: Record<CampaignSide, string> = { unlimited: 'CU', budgeted: 'CB', none: 'CN' };

export const PRODUCTS_PER_CHAIN = 200;
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

/** The venue a regular member belongs to (the only venue of the member's chain). */
export const venueOfMember = (config: BenchConfig, i: number) => i % config.venues;
export const memberOfPastCheck = (config: BenchConfig, j: number) => j % config.members;

/**
 * Members generated together: member i enrols at venue `first + i % venues` of the seed's list (so regular members
 * spread over the regular chains, and a comparison chain's over its venues); past check j is member `j % count`'s,
 * at the venue of its chain numbered `j / count` modulo the chain's size (a chain of three's venues in turn).
 */
interface Population {
  name: string;
  /** members.serial is this prefix and the member's number; the seed finds its members back by it. */
  serial: string;
  cardPrefix: string;
  checkPrefix: string;
  count: number;
  checks: number;
  first: number;
  venues: number;
}

export async function seed(database: Database, config: BenchConfig, onStep: (step: string) => void = () => {}): Promise<SeedResult> {
  const started = Date.now();
  const db = database.db;
  onStep('migrations');
  await migrateToLatest(db);

  onStep('chains, venues, programs');
  const venues: VenueSeed[] = [];
  const programOf = new Map<string, string>();
  let index = 0;
  const addVenue = async (slug: string, name: string, options: { chainId?: string; capped?: boolean } = {}): Promise<VenueSeed> => {
    const capped = options.capped ?? false;
    const venue = await accounts.createVenue(db, { name, slug, chainId: options.chainId, settings: capped ? { max_cashback_per_day: DAY_CAP } : {} });
    if (!programOf.has(venue.chainId)) {
      const program = await programs.createProgram(db, venue.chainId, { name: 'Cashback', type: 'cashback', settings: { levels: LEVELS, max_redeem_percent: 50 } });
      programOf.set(venue.chainId, program.id);
    }
    return { index: index++, id: venue.id, chainId: venue.chainId, slug: venue.slug, keys: [], capped };
  };
  for (let v = 0; v < config.venues; v++) venues.push(await addVenue(names.slug(v), `Bench venue ${v}`, { capped: v % 2 === 1 }));
  const threeFirst = await addVenue('bench-chain-of-three-1', 'Bench chain of three, venue 1');
  const three: ComparisonChain = { chainId: threeFirst.chainId, venues: [threeFirst] };
  for (const n of [2, 3]) three.venues.push(await addVenue(`bench-chain-of-three-${n}`, `Bench chain of three, venue ${n}`, { chainId: three.chainId }));
  const onlyVenue = await addVenue('bench-chain-of-one', 'Bench chain of one');
  const one: ComparisonChain = { chainId: onlyVenue.chainId, venues: [onlyVenue] };
  const sideVenues: VenueSeed[] = [];
  for (const side of CAMPAIGN_SIDES) sideVenues.push(await addVenue(`bench-campaigns-${side}`, `Bench venue, campaigns: ${side}`));
  const campaignSides = Object.fromEntries(CAMPAIGN_SIDES.map((side, i) => [side, { chainId: sideVenues[i]!.chainId, venues: [sideVenues[i]!] }])) as Record<CampaignSide, ComparisonChain>;
  const everyVenue = [...venues, ...three.venues, ...one.venues, ...sideVenues];

  onStep('API keys');
  // Through the accounts service, a few at a time (PGlite runs them one by one anyway).
  const jobs: (() => Promise<void>)[] = [];
  const addKeys = (venue: VenueSeed, count: number) => {
    for (let k = 0; k < count; k++) {
      jobs.push(async () => {
        const { secret } = await accounts.createApiKey(db, config.pepper, { venueId: venue.id, name: `bench ${k}`, livemode: true, by: SYSTEM });
        venue.keys.push(secret);
      });
    }
  };
  for (const venue of venues) addKeys(venue, config.keysPerVenue);
  for (const venue of three.venues) addKeys(venue, config.chainKeys / 3);
  addKeys(onlyVenue, config.chainKeys);
  for (const venue of sideVenues) addKeys(venue, config.chainKeys);
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));

  const uncapped = venues.filter((v) => !v.capped).map((v) => v.index);
  const historyVenue = Array.from({ length: config.historyMembers }, (_, h) => uncapped[h % uncapped.length]!);

  const checksPerMember = Math.max(1, Math.round(config.transactions / config.members));
  const populations: Population[] = [
    { name: 'members', serial: 'BS', cardPrefix: 'C', checkPrefix: 'P', count: config.members, checks: config.transactions, first: 0, venues: venues.length },
    ...[three, one].map((chain) => ({
      name: `members of the chain of ${chain.venues.length}`,
      serial: `BK${chain.venues.length}-`,
      cardPrefix: `K${chain.venues.length}-`,
      checkPrefix: `PK${chain.venues.length}-`,
      count: config.chainMembers,
      checks: config.chainMembers * checksPerMember,
      first: chain.venues[0]!.index,
      venues: chain.venues.length,
    })),
    ...CAMPAIGN_SIDES.map((side) => ({
      name: `members of the venue with campaigns: ${side}`,
      serial: `B${CAMPAIGN_PREFIX[side]}-`,
      cardPrefix: `${CAMPAIGN_PREFIX[side]}-`,
      checkPrefix: `P${CAMPAIGN_PREFIX[side]}-`,
      count: config.chainMembers,
      checks: config.chainMembers * checksPerMember,
      first: campaignSides[side].venues[0]!.index,
      venues: 1,
    })),
  ];

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
    // `pos`: the venue's number within its chain, of `of_chain` venues.
    await sql`create temp table bench_venues (idx int primary key, chain_id uuid not null, venue_id uuid not null, program_id uuid not null,
      pos int not null, of_chain int not null)`.execute(conn);
    const chainSize = (v: VenueSeed) => everyVenue.filter((w) => w.chainId === v.chainId).length;
    const posInChain = (v: VenueSeed) => everyVenue.filter((w) => w.chainId === v.chainId).indexOf(v);
    await sql`insert into bench_venues (idx, chain_id, venue_id, program_id, pos, of_chain) values ${sql.join(
      everyVenue.map((v) => sql`(${v.index}, ${v.chainId}::uuid, ${v.id}::uuid, ${programOf.get(v.chainId)}::uuid, ${posInChain(v)}, ${chainSize(v)})`),
    )}`.execute(conn);

    await run(
      'webhook endpoints',
      sql`insert into webhook_endpoints (chain_id, venue_id, id, url, description, events, status, secret, livemode)
        select chain_id, venue_id, gen_random_uuid(), 'https://hooks.bench.invalid/' || idx, 'bench: one delivery per event', '{*}', 'enabled',
          'whsec_bench_' || md5(idx::text), true
        from bench_venues`,
    );
    await run(
      'categories',
      sql`insert into catalog_categories (chain_id, id, external_id, name, earns_cashback, payable_with_cashback, cashback_percent_bp)
        select v.chain_id, gen_random_uuid(), c.external_id, c.name, c.earns, c.payable, c.bp
        from (select distinct chain_id from bench_venues) v cross join (values
          ('food', 'Food', true, true, null::int),
          ('drinks', 'Soft drinks', true, true, 200),
          ('desserts', 'Desserts', true, true, 1250),
          ('alcohol', 'Alcohol', false, false, null::int)) c(external_id, name, earns, payable, bp)`,
    );
    await run(
      'products',
      sql`insert into catalog_products (chain_id, id, sku, name, category, price)
        select v.chain_id, gen_random_uuid(), 'SKU-' || k, 'Product ' || k,
          (array['food', 'drinks', 'desserts', 'alcohol'])[k % 4 + 1], 200 + (k * 37) % 2000
        from (select distinct chain_id from bench_venues) v cross join generate_series(1, ${PRODUCTS_PER_CHAIN}) k`,
    );
    await run(
      'dishes',
      sql`insert into dishes (chain_id, venue_id, id, external_id, name, description, category, price, available)
        select v.chain_id, v.venue_id, gen_random_uuid(), 'D-' || n, 'Dish ' || n, 'A dish of the bench menu', 'Mains', 500 + (n * 53) % 2500, true
        from bench_venues v cross join generate_series(0, ${DISHES_PER_VENUE - 1}) n`,
    );

    await sql`create temp table bench_members (population text not null, idx int not null, chain_id uuid not null, id uuid not null,
      primary key (population, idx))`.execute(conn);
    for (const p of populations) {
      await run(
        p.name,
        sql`insert into members (chain_id, id, program_id, home_venue_id, serial, name, consented_at, livemode, created_at)
          select v.chain_id, pg_temp.bench_uuid7(t.at), v.program_id, v.venue_id, ${p.serial}::text || i, 'Guest ' || i, t.at, true, t.at
          from generate_series(0, ${p.count - 1}) i
          join bench_venues v on v.idx = ${p.first} + i % ${p.venues}
          cross join lateral (select now() - interval '400 days' + (i::float8 / ${p.count}) * interval '200 days' as at) t`,
      );
      await sql`insert into bench_members (population, idx, chain_id, id)
        select ${p.name}, substr(serial, ${p.serial.length + 1})::int, chain_id, id from members where serial like ${`${p.serial}%`}`.execute(conn);
      await sql`insert into member_cards (chain_id, card_number, member_id, created_at)
        select chain_id, ${p.cardPrefix}::text || idx, id, now() - interval '400 days' from bench_members where population = ${p.name}`.execute(conn);
    }

    // History members: old ones with a long ledger, new ones with none, in uncapped venues.
    await sql`create temp table bench_history (idx int primary key, chain_id uuid not null, venue_id uuid not null, program_id uuid not null)`.execute(conn);
    await sql`insert into bench_history (idx, chain_id, venue_id, program_id) values ${sql.join(
      historyVenue.map((v, h) => sql`(${h}, ${venues[v]!.chainId}::uuid, ${venues[v]!.id}::uuid, ${programOf.get(venues[v]!.chainId)}::uuid)`),
    )}`.execute(conn);
    await run(
      'history members',
      sql`insert into members (chain_id, id, program_id, home_venue_id, serial, name, consented_at, livemode, created_at)
        select h.chain_id, pg_temp.bench_uuid7(p.at), h.program_id, h.venue_id, p.prefix || h.idx, p.label || h.idx, p.at, true, p.at
        from bench_history h
        cross join (values ('BH', 'Old guest ', now() - interval '400 days'), ('BN', 'New guest ', now() - interval '1 hour')) p(prefix, label, at)`,
    );
    await sql`insert into member_cards (chain_id, card_number, member_id, created_at)
      select chain_id, case when serial like 'BH%' then 'H' else 'N' end || substr(serial, 3), id, created_at
      from members where serial like 'BH%' or serial like 'BN%'`.execute(conn);

    const K = Math.floor(config.historyEntries / 2);
    const insertChecks = (source: ReturnType<typeof sql>) => sql`
      insert into transactions (chain_id, venue_id, id, external_id, register_key, register_id, member_id, status, line_items, subtotal,
        discount_amount, redeemed, earned, earn_capped, stamps_earned, paid, refunded_amount, closed_at, hold_id, display,
        fingerprint, livemode, created_at, venue_day, earned_reversed, redeemed_returned)
      select s.chain_id, s.venue_id, pg_temp.bench_uuid7(s.at), s.ext, '', null, s.member_id, 'completed',
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
    for (const p of populations) {
      await run(
        `past checks of the ${p.name}`,
        insertChecks(sql`
          select m.chain_id, v.venue_id, m.id as member_id, ${p.checkPrefix}::text || j as ext,
            now() - interval '180 days' + (j::float8 / ${p.checks}) * interval '179 days' as at,
            (1500 + (j::bigint * 7919) % 6000)::bigint as subtotal, (case when j % 3 = 0 then 300 else 0 end)::bigint as redeemed
          from generate_series(0, ${p.checks - 1}) j
          join bench_members m on m.population = ${p.name} and m.idx = j % ${p.count}
          join bench_venues v on v.chain_id = m.chain_id and v.pos = (j / ${p.count}) % v.of_chain
          order by m.chain_id, m.id, j`),
      );
    }
    if (K > 0) {
      await run(
        'history transactions',
        insertChecks(sql`
          select m.chain_id, h.venue_id, m.id as member_id, 'PH' || h.idx || '-' || k as ext,
            now() - interval '360 days' + (k::float8 / ${K}) * interval '359 days' as at,
            (1500 + (k::bigint * 7919) % 6000)::bigint as subtotal, 0::bigint as redeemed
          from bench_history h join members m on m.chain_id = h.chain_id and m.serial = 'BH' || h.idx
          cross join generate_series(0, ${K - 1}) k`),
      );
    }
    await run(
      'ledger',
      sql`insert into ledger_entries (chain_id, venue_id, id, member_id, kind, cashback, spend, visits, stamps, reference, livemode, created_at)
        select t.chain_id, t.venue_id, pg_temp.bench_uuid7(t.created_at), t.member_id, e.kind, e.cashback, e.spend, e.visits, 0, t.external_id, true, t.created_at
        from transactions t
        cross join lateral (values ('redemption', -t.redeemed, 0::bigint, 0), ('earn', t.earned, 0::bigint, 0), ('check', 0::bigint, t.paid, 1)) e(kind, cashback, spend, visits)
        where (e.kind <> 'redemption' or t.redeemed > 0) and (e.kind <> 'earn' or t.earned > 0)
        order by t.chain_id, t.member_id, t.created_at`,
    );
    // An import: it happened at no venue.
    await run(
      'opening balances',
      sql`insert into ledger_entries (chain_id, venue_id, id, member_id, kind, cashback, reason, livemode, created_at)
        select m.chain_id, null, pg_temp.bench_uuid7(now() - interval '400 days'), m.id, 'import', ${OPENING_BALANCE}, 'bench opening balance', true,
          now() - interval '400 days'
        from bench_members m`,
    );
    await run(
      'member totals',
      sql`update members m set cashback = l.cashback, spend = l.spend, visits = l.visits, stamps = l.stamps
        from (select chain_id, member_id, sum(cashback) as cashback, sum(spend) as spend, sum(visits) as visits, sum(stamps) as stamps
              from ledger_entries group by chain_id, member_id) l
        where l.chain_id = m.chain_id and l.member_id = m.id`,
    );
    // Two bonuses that hold all the time at each venue with campaigns: 5 % without a budget, and 2 % without one or with
    // one that never runs out.
    await run(
      'campaigns',
      sql`insert into campaigns (chain_id, id, name, type, status, percent_bp, budget, livemode, created_at, updated_at)
        select c.chain_id, gen_random_uuid(), c.name, 'bonus', 'active', c.bp, c.budget, true, now(), now()
        from (values (${campaignSides.unlimited.chainId}::uuid, 'Happy hour', 500, null::bigint), (${campaignSides.unlimited.chainId}::uuid, 'Wine week', 200, null::bigint),
          (${campaignSides.budgeted.chainId}::uuid, 'Happy hour', 500, null::bigint), (${campaignSides.budgeted.chainId}::uuid, 'Launch budget', 200, 1000000000000::bigint))
          c(chain_id, name, bp, budget)`,
    );
    await sql`reset session_replication_role`.execute(conn);
    await sql`drop table bench_venues, bench_members, bench_history`.execute(conn);
    await sql`drop function pg_temp.bench_uuid7(timestamptz)`.execute(conn);
  });

  onStep('vacuum analyze');
  await sql`vacuum analyze`.execute(db);
  await sql`checkpoint`.execute(db);

  const counts: Record<string, number> = {};
  for (const table of ['chains', 'venues', 'api_keys', 'members', 'transactions', 'ledger_entries', 'dishes', 'catalog_products']) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db as Kysely<any>);
    counts[table] = Number(rows[0]!.n);
  }
  return { seconds: (Date.now() - started) / 1000, venues, historyVenue, chains: { three, one }, campaignSides, counts };
}
