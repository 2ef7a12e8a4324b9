// The world of one sequence of the model-based test (test/modules/checks/model.test.ts): two chains of venues with
// their programs, categories, keys, campaigns and members, made through the app's own services and API, and the same
// world as the reference model (test/support/money-model.ts) sees it; reading the members back and comparing them.
import { SYSTEM } from '../../src/modules/audit/service.js';
import fc from 'fast-check';
import { sql } from 'kysely';
import { placeOf, type Venue } from '../../src/modules/accounts/service.js';
import * as campaigns from '../../src/modules/campaigns/service.js';
import * as catalogue from '../../src/modules/catalogue/service.js';
import type { TestApp } from './app.js';
import { createChainKey, createKey, createProgram, createVenue, newCardNumber, seedLedger } from './factories.js';
import { client, type Response } from './http.js';
import { MoneyModel, type ModelCampaign, type CategoryRule, type ChainConfig, type KeyConfig, type MemberView, type ModelCheckBody, type ModelRequest, type RuleValues, type VenueConfig, type WorldConfig } from './money-model.js';
import { Tally } from './money-model-tally.js';

export const BASE_TIME = Date.parse('2027-02-01T00:00:00.000Z');

/** A key's own register rules; null: not set (the venue's apply). */
export interface KeyGen {
  perCheck: number | null;
  perDay: number | null;
  maxAge: number | null;
  viaHolds: boolean;
}

/** A venue's register rules, every key's defaults there; null: not set. */
export interface VenueGen {
  perCheck: number | null;
  perDay: number | null;
  holdTtl: number | null;
}

export interface SequenceConfig {
  /** The time zones of venues A, B, C (chain c1) and D (chain c2). */
  timezones: string[];
  /** Minutes after BASE_TIME (UTC) at which the sequence starts: venue days begin at different moments. */
  startMinute: number;
  /** Of chain c1's cashback program, then c2's. */
  maxRedeemPercent: number[];
  venues: VenueGen[];
  /** A.K0, A.K1, B.K0, B.K1, C.K0, C.K1, D.K0, D.K1, then c1's chain key. */
  keys: KeyGen[];
  /** Opening cashback balance and spend of the cashback members m0, m1 (c1) and x (c2). */
  balances: number[];
  spends: number[];
  /** Campaigns of the chains (D22), made in this order: the bonuses, then the referrals. */
  campaigns: CampaignGen[];
  referrals: ReferralGen[];
}

/** A bonus campaign: a percent (cashback) or a stamps multiplier, with a weekly window from `from` for `length` minutes. */
export interface CampaignGen {
  chain: 'c1' | 'c2';
  percentBp: number | null;
  multiplier: number | null;
  schedule: { days: number[]; from: number; length: number } | null;
  categories: string[] | null;
  minCheck: number | null;
  budget: number | null;
  maxPerMember: number | null;
}

/** A referral campaign; a live one (c1's, made with its live key) must never credit the test-mode members here. */
export interface ReferralGen {
  chain: 'c1' | 'c2';
  live: boolean;
  referee: number;
  referrer: number;
  minCheck: number | null;
  budget: number | null;
  maxPerMember: number | null;
}

/** Venues: A, B, C of chain c1 (far apart in time), D alone in chain c2. */
export const VENUES = ['A', 'B', 'C', 'D'] as const;
const CHAIN_OF: Record<string, string> = { A: 'c1', B: 'c1', C: 'c1', D: 'c2' };
/** Key indexes: two venue keys per venue (2·venue + 0|1), then c1's chain key, then c1's live chain key. */
export const CHAIN_KEY = 8;
export const LIVE_KEY = 9;

/**
 * Members and where they enrolled: m0, m1 (cashback) and s (stamps) of c1; x (cashback) of c2; ghost does not exist.
 * Commands name them by their index here.
 */
export const MEMBERS = ['m0', 'm1', 's', 'ghost', 'x'] as const;
const HOMES: Record<string, string> = { m0: 'A', m1: 'B', s: 'C', x: 'D' };
export const REAL_MEMBERS = ['m0', 'm1', 's', 'x'];
/** The cashback members made with the world, whose balances the tally follows (and those of friends enrolled later). */
export const CASHBACK_MEMBERS = ['m0', 'm1', 'x'];
/**
 * Members enrolled with a referral code during a run (f<n>) join those; at most this many succeed, so that reading
 * every member stays one list per chain and cheap.
 */
export const MAX_FRIENDS = 4;
const GHOST_MEMBER = '01900000-0000-7000-8000-00000000beef';
const GHOST_HOLD = '01900000-0000-7000-8000-00000000dead';
const GHOST_CARD = 'CNOSUCHCARD';

const LEVELS = [
  { name: 'Bronze', min_spend: 0, percent: 3 },
  { name: 'Silver', min_spend: 5_000, percent: 5 },
  { name: 'Gold', min_spend: 15_000, percent: 7.5 },
];
/** c1's categories; c2 has none, so the same names take the defaults there. */
const CATEGORIES: Record<string, CategoryRule> = {
  tobacco: { earns: false, payable: true, bp: null },
  alcohol: { earns: true, payable: false, bp: null },
  desserts: { earns: true, payable: true, bp: 1250 },
};
/** Venues' own rules for c1's categories (D21): tobacco earns 1 % at B, desserts earn 20 % but are not payable at C. */
const VENUE_CATEGORIES: Record<string, Record<string, CategoryRule>> = {
  A: {},
  B: { tobacco: { earns: true, payable: true, bp: 100 } },
  C: { desserts: { earns: true, payable: false, bp: 2000 } },
  D: {},
};
const STAMPS = { required: 5, perVisit: 2, minCheckAmount: 500 };

const keyArb: fc.Arbitrary<KeyGen> = fc.record({
  perCheck: fc.option(fc.integer({ min: 15, max: 150 }), { freq: 2 }),
  perDay: fc.option(fc.integer({ min: 20, max: 300 }), { freq: 2 }),
  maxAge: fc.option(fc.constantFrom(60, 600, 3600, 4 * 3600), { freq: 2 }),
  viaHolds: fc.constantFrom(false, false, false, false, false, true),
});

/** Mostly unset: a venue's rule shows where a key has none of its own. */
const venueArb: fc.Arbitrary<VenueGen> = fc.record({
  perCheck: fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: fc.integer({ min: 20, max: 150 }), weight: 1 }),
  perDay: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.integer({ min: 30, max: 300 }), weight: 1 }),
  holdTtl: fc.constantFrom(null, null, null, null, 300, 1800),
});

const campaignArb: fc.Arbitrary<CampaignGen> = fc
  .record({
    chain: fc.constantFrom('c1' as const, 'c1' as const, 'c2' as const),
    stamps: fc.constantFrom(false, false, true),
    percentBp: fc.constantFrom(100, 250, 729, 1000),
    multiplier: fc.constantFrom(2, 3),
    schedule: fc.option(
      fc.record({
        days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
        from: fc.constantFrom(0, 390, 720, 1080, 1320),
        length: fc.constantFrom(60, 240, 600, 1200),
      }),
      { freq: 2 },
    ),
    categories: fc.option(fc.constantFrom(['desserts'], ['alcohol', 'tobacco'], ['misc']), { freq: 3 }),
    minCheck: fc.option(fc.constantFrom(500, 2_000), { freq: 3 }),
    budget: fc.option(fc.constantFrom(40, 150, 600), { freq: 2 }),
    maxPerMember: fc.option(fc.constantFrom(1, 2), { freq: 3 }),
  })
  .map(({ stamps, percentBp, multiplier, categories, ...rest }) => ({
    ...rest,
    percentBp: stamps ? null : percentBp,
    multiplier: stamps ? multiplier : null,
    categories: stamps || categories === null ? null : [...categories],
  }));

// Most worlds have a referral for c1's test-mode members; amounts and a budget that let the budget cut either side.
const referralArb: fc.Arbitrary<ReferralGen> = fc
  .record({
    chain: fc.constantFrom('c1' as const, 'c1' as const, 'c1' as const, 'c1' as const, 'c2' as const),
    live: fc.constantFrom(false, false, false, false, false, false, false, true),
    referee: fc.constantFrom(0, 100, 300, 300),
    referrer: fc.constantFrom(0, 150, 500, 500),
    minCheck: fc.option(fc.constantFrom(500, 2_000), { freq: 3 }),
    budget: fc.option(fc.constantFrom(250, 700, 1_500), { freq: 2 }),
    maxPerMember: fc.option(fc.constantFrom(1, 2), { freq: 3 }),
  })
  .filter((r) => r.referee + r.referrer > 0)
  // Only c1 has a live key.
  .map((r) => (r.live ? { ...r, chain: 'c1' as const } : r));

export const configArb: fc.Arbitrary<SequenceConfig> = fc.record({
  timezones: fc.tuple(
    fc.constantFrom('UTC', 'Europe/Dublin'),
    fc.constantFrom('America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu'),
    fc.constantFrom('Asia/Tokyo', 'Pacific/Auckland', 'Australia/Adelaide'),
    fc.constantFrom('Pacific/Auckland', 'America/New_York'),
  ),
  startMinute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  maxRedeemPercent: fc.tuple(fc.constantFrom(50, 75, 100), fc.constantFrom(50, 100)),
  venues: fc.tuple(venueArb, venueArb, venueArb, venueArb),
  keys: fc.tuple(keyArb, keyArb, keyArb, keyArb, keyArb, keyArb, keyArb, keyArb, keyArb),
  balances: fc.tuple(fc.constantFrom(0, 60, 300, 1500), fc.constantFrom(150, 800), fc.constantFrom(0, 400)),
  spends: fc.tuple(fc.constantFrom(0, 0, 4_500, 14_000), fc.constantFrom(0, 4_800), fc.constantFrom(0, 6_000)),
  campaigns: fc.array(campaignArb, { minLength: 1, maxLength: 3 }),
  referrals: fc.array(referralArb, { minLength: 1, maxLength: 2 }),
});

type Api = ReturnType<typeof client>;

export interface World {
  t: TestApp;
  /** The ids of chains c1 and c2. */
  chainIds: string[];
  cfg: SequenceConfig;
  model: MoneyModel;
  /** One client per key of the model's configuration. */
  apis: Api[];
  /** local id → the app's id (members, holds, venues A–D). */
  ids: Map<string, string>;
  local: Map<string, string>;
  /** Each member's card number, barcode value (a c2 member's barcode carries their serial) and referral code. */
  cards: Map<string, string>;
  barcodes: Map<string, string>;
  codes: Map<string, string>;
  /** c1's stamps program, which a friend may enrol in. */
  stampsProgramId: string;
  /** The bodies of checks applied, by their key in the model (venue and external_id), for replays. */
  bodies: Map<string, ModelCheckBody>;
  n: number;
  tally: Tally;
  /** The members as last read from the app. */
  seen: Map<string, Record<string, any>>;
  trace: string[];
}

/** Sets the app's clock to `ms` (the ManualClock moves backwards too: every sequence has its own fresh chains). */
function setClock(t: TestApp, ms: number) {
  t.clock.advance(ms - t.clock.now().getTime());
}

function ruleValues(k: { perCheck: number | null; perDay: number | null; maxAge?: number | null; viaHolds?: boolean; holdTtl?: number | null }): RuleValues {
  return { perCheck: k.perCheck, perDay: k.perDay, maxAgeSeconds: k.maxAge ?? null, viaHolds: k.viaHolds ? true : null, holdTtlSeconds: k.holdTtl ?? null };
}

/** The settings a venue or a key sends for its rules: only those set. */
function ruleSettings(r: RuleValues): Record<string, unknown> {
  return {
    ...(r.perCheck === null ? {} : { max_cashback_per_check: r.perCheck }),
    ...(r.perDay === null ? {} : { max_cashback_per_day: r.perDay }),
    ...(r.maxAgeSeconds === null ? {} : { max_check_age_seconds: r.maxAgeSeconds }),
    ...(r.viaHolds === null ? {} : { redeem_only_via_holds: r.viaHolds }),
    ...(r.holdTtlSeconds === null ? {} : { hold_ttl_seconds: r.holdTtlSeconds }),
  };
}

function worldConfig(cfg: SequenceConfig): WorldConfig {
  const levels = LEVELS.map((l) => ({ name: l.name, minSpend: l.min_spend, bp: Math.round(l.percent * 100) }));
  const chain = (maxRedeemPercent: number, categories: Record<string, CategoryRule>): ChainConfig => ({
    levels,
    maxRedeemBp: maxRedeemPercent * 100,
    categories,
    stamps: STAMPS,
  });
  const venues = Object.fromEntries(
    VENUES.map((v, i): [string, VenueConfig] => [v, { chain: CHAIN_OF[v]!, timezone: cfg.timezones[i]!, categories: VENUE_CATEGORIES[v]!, rules: ruleValues(cfg.venues[i]!) }]),
  );
  const keys = cfg.keys.map(
    (k, i): KeyConfig =>
      i === CHAIN_KEY
        ? { chain: 'c1', venue: null, rules: ruleValues(k), livemode: false }
        : { chain: CHAIN_OF[VENUES[i >> 1]!]!, venue: VENUES[i >> 1]!, rules: ruleValues(k), livemode: false },
  );
  keys.push({ chain: 'c1', venue: null, rules: ruleValues({ perCheck: null, perDay: null }), livemode: true });
  const bonuses = cfg.campaigns.map(({ schedule, ...c }, i): ModelCampaign => ({
    ...c,
    id: `k${i}`,
    livemode: false,
    referral: null,
    schedule: schedule && { days: schedule.days, from: schedule.from, to: (schedule.from + schedule.length) % 1440 },
  }));
  const referrals = cfg.referrals.map(({ live, referee, referrer, ...r }, i): ModelCampaign => ({
    ...r,
    id: `k${bonuses.length + i}`,
    livemode: live,
    referral: { referee, referrer },
    percentBp: null,
    multiplier: null,
    schedule: null,
    categories: null,
  }));
  const campaigns = [...bonuses, ...referrals];
  return { chains: { c1: chain(cfg.maxRedeemPercent[0]!, CATEGORIES), c2: chain(cfg.maxRedeemPercent[1]!, {}) }, venues, keys, campaigns };
}

export async function setUpWorld(t: TestApp, cfg: SequenceConfig): Promise<World> {
  setClock(t, BASE_TIME + cfg.startMinute * 60_000);
  const config = worldConfig(cfg);
  // Independent steps run at once (on PostgreSQL they overlap; PGlite runs them one after another anyway); so the
  // default program is named, not left to whichever program is made first.
  const venue = (v: string, chainId?: string) =>
    createVenue(t, {
      timezone: config.venues[v]!.timezone,
      settings: { manual_adjustments_allowed: true, ...ruleSettings(config.venues[v]!.rules) },
      ...(chainId ? { chainId } : {}),
    });
  const [a, d] = await Promise.all([venue('A'), venue('D')]);
  const venueRows: Venue[] = [a, ...(await Promise.all([venue('B', a.chainId), venue('C', a.chainId)])), d];
  const [, stamps] = await Promise.all([
    createProgram(t, a, 'cashback', { settings: { levels: LEVELS, max_redeem_percent: cfg.maxRedeemPercent[0] }, isDefault: true }),
    createProgram(t, a, 'stamps', {
      settings: { stamps_required: STAMPS.required, reward_name: 'Coffee', stamps_per_visit: STAMPS.perVisit, min_check_amount: STAMPS.minCheckAmount },
      isDefault: false,
    }),
    createProgram(t, d, 'cashback', { settings: { levels: LEVELS, max_redeem_percent: cfg.maxRedeemPercent[1] }, barcodeFormat: 'qr_serial', isDefault: true }),
  ]);
  const apis: Api[] = await Promise.all(
    config.keys.map(async (k) => {
      const rules = ruleSettings(k.rules);
      const made =
        k.venue === null
          ? await createChainKey(t, a.chainId, { rules, livemode: k.livemode })
          : await createKey(t, venueRows[VENUES.indexOf(k.venue as 'A')]!, { rules, livemode: k.livemode });
      return client(t, made.secret);
    }),
  );
  await Promise.all(
    Object.entries(CATEGORIES).map(async ([category, rule]) => {
      const put = await apis[0]!.put(`/api/v1/catalog/categories/${category}`, { name: category });
      if (put.status !== 201 && put.status !== 200) throw new Error(`fixture: category ${category}: ${put.status} ${JSON.stringify(put.body)}`);
      await catalogue.setCategoryRules(t.db, a.chainId, category, ruleInput(rule), SYSTEM);
      for (const [i, v] of VENUES.entries()) {
        const own = VENUE_CATEGORIES[v]![category];
        if (own) await catalogue.setVenueCategoryRules(t.db, placeOf(venueRows[i]!), category, ruleInput(own), SYSTEM);
      }
    }),
  );
  const ids = new Map<string, string>([['ghost', GHOST_MEMBER], ['hX', GHOST_HOLD]]);
  // One after another: the app orders a check's campaigns as they were made.
  for (const c of config.campaigns) {
    const res = await apis[campaignKey(c)]!.post('/api/v1/campaigns', campaignBody(c));
    if (res.status !== 201) throw new Error(`fixture: campaign ${c.id}: ${res.status} ${JSON.stringify(res.body)}`);
    ids.set(c.id, res.body.id);
  }
  VENUES.forEach((v, i) => ids.set(v, venueRows[i]!.id));
  const cards = new Map<string, string>([['ghost', GHOST_CARD]]);
  const barcodes = new Map<string, string>([['ghost', GHOST_CARD]]);
  const codes = new Map<string, string>();
  await Promise.all(
    REAL_MEMBERS.map(async (local) => {
      const home = venueRows[VENUES.indexOf(HOMES[local] as 'A')]!;
      const res = await apis[2 * VENUES.indexOf(HOMES[local] as 'A')]!.post('/api/v1/members', {
        card_number: newCardNumber(),
        consent: true,
        ...(local === 's' ? { program_id: stamps.id } : {}),
      });
      if (res.status !== 201) throw new Error(`fixture: member ${local}: ${res.status} ${JSON.stringify(res.body)}`);
      ids.set(local, res.body.id);
      cards.set(local, res.body.card_numbers[0]);
      barcodes.set(local, res.body.barcode.value);
      codes.set(local, res.body.referral_code);
      const i = CASHBACK_MEMBERS.indexOf(local);
      if (i >= 0 && (cfg.balances[i] || cfg.spends[i])) {
        await seedLedger(t, home, { memberId: res.body.id, kind: 'import', cashback: cfg.balances[i]!, spend: cfg.spends[i]! });
      }
    }),
  );
  if (barcodes.get('x') === cards.get('x')) throw new Error('fixture: x should have a serial barcode');
  const model = MoneyModel.create(
    config,
    t.clock.now().getTime(),
    REAL_MEMBERS.map((id) => {
      const i = CASHBACK_MEMBERS.indexOf(id);
      return { id, home: HOMES[id]!, program: id === 's' ? ('stamps' as const) : ('cashback' as const), balance: cfg.balances[i] ?? 0, spend: cfg.spends[i] ?? 0 };
    }),
  );
  const world: World = {
    t,
    chainIds: [a.chainId, d.chainId],
    cfg,
    model,
    apis,
    ids,
    local: new Map([...ids].map(([l, s]) => [s, l])),
    cards,
    barcodes,
    codes,
    stampsProgramId: stamps.id,
    bodies: new Map(),
    n: 0,
    tally: new Tally(Object.fromEntries(CASHBACK_MEMBERS.map((m, i) => [m, cfg.balances[i]!]))),
    seen: new Map(),
    trace: [],
  };
  const problems = await checkMembers(world, []);
  if (problems.length) throw new Error(`fixture: members differ from the model before any command:\n${problems.join('\n')}`);
  return world;
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** The key a campaign is made (and read) with: its chain's (D's own key for c2), or c1's live key for a live one. */
const campaignKey = (c: ModelCampaign) => (c.livemode ? LIVE_KEY : c.chain === 'c1' ? CHAIN_KEY : 6);

function campaignBody(c: ModelCampaign): Record<string, unknown> {
  return {
    name: `Campaign ${c.id}`,
    ...(c.referral
      ? { type: 'referral', referee_amount: c.referral.referee, referrer_amount: c.referral.referrer }
      : { type: 'bonus', ...(c.percentBp === null ? { stamps_multiplier: c.multiplier } : { percent: c.percentBp / 100 }) }),
    ...(c.schedule ? { schedule: { days_of_week: c.schedule.days, from: hhmm(c.schedule.from), to: hhmm(c.schedule.to) } } : {}),
    ...(c.categories ? { categories: c.categories } : {}),
    ...(c.minCheck === null ? {} : { min_check_amount: c.minCheck }),
    ...(c.budget === null ? {} : { budget: c.budget }),
    ...(c.maxPerMember === null ? {} : { max_per_member: c.maxPerMember }),
  };
}

const ruleInput = (rule: CategoryRule) => ({
  earns_cashback: rule.earns,
  payable_with_cashback: rule.payable,
  ...(rule.bp === null ? {} : { cashback_percent: rule.bp / 100 }),
});

// ---------------------------------------------------------------- keys and venues

/** The venue key `sel` (0, 1) of a venue, or with `sel` 2 its chain's key where the chain has one. */
export function keyAt(world: World, venue: string, sel: number): number {
  const i = VENUES.indexOf(venue as 'A');
  return sel === 2 && world.model.chainOf(venue) === 'c1' ? CHAIN_KEY : 2 * i + (sel === 1 ? 1 : 0);
}

export const keyName = (ix: number): string => (ix === CHAIN_KEY ? 'c1-key' : ix === LIVE_KEY ? 'c1-live-key' : `${VENUES[ix >> 1]}.K${ix & 1}`);

/** The app's id of a local one; a hold that was never created stands for one that does not exist. */
export const sid = (world: World, local: string): string => {
  const id = world.ids.get(local) ?? (/^h\d+$/.test(local) ? GHOST_HOLD : undefined);
  if (!id) throw new Error(`harness: no app id for ${local}`);
  return id;
};

/** A key of each chain, to read its members with. */
const readerOf = (world: World, local: string) => world.apis[world.model.memberChain(local) === 'c2' ? 6 : 0]!;

// ---------------------------------------------------------------- members

function compareMember(out: string[], world: World | null, local: string, v: MemberView, m: any) {
  const p = `member ${local}.`;
  const diff = (what: string, expected: unknown, actual: unknown) => {
    if (expected !== actual) out.push(`${p}${what}: model ${JSON.stringify(expected)}, app ${JSON.stringify(actual)}`);
  };
  if (world) diff('home_venue_id', world.ids.get(v.home), m.home_venue_id);
  diff('balance', v.balance, m.balance);
  diff('held', v.held, m.held);
  diff('available', v.available, m.available);
  diff('total_spend', v.totalSpend, m.total_spend);
  diff('visits', v.visits, m.visits);
  diff('level', v.level, m.level?.name ?? null);
  diff('stamps.count', v.stamps?.count ?? null, m.stamps?.count ?? null);
  diff('stamps.rewards_available', v.stamps?.rewardsAvailable ?? null, m.stamps?.rewards_available ?? null);
}

/** Where a member the app answered with differs from the model's view of them. */
export function compareMemberView(local: string, v: MemberView, m: any, world: World | null = null): string[] {
  const out: string[] = [];
  compareMember(out, world, local, v, m);
  return out;
}

/** Reads members from the app: `only` one by one (with a key of each one's chain), else every member, a list per chain. */
export async function readMembers(world: World, only?: string[]): Promise<Map<string, any>> {
  const out = new Map<string, any>();
  if (only && only.length < 3) {
    const read = await Promise.all(only.map((local) => readerOf(world, local).get(`/api/v1/members/${sid(world, local)}`)));
    only.forEach((local, i) => {
      if (read[i]!.status !== 200) throw new Error(`GET member ${local}: ${read[i]!.status} ${JSON.stringify(read[i]!.body)}`);
      out.set(local, read[i]!.body);
    });
    return out;
  }
  const lists = await Promise.all([world.apis[0]!.get('/api/v1/members?limit=10'), world.apis[6]!.get('/api/v1/members?limit=10')]);
  for (const list of lists) if (list.status !== 200) throw new Error(`GET members: ${list.status} ${JSON.stringify(list.body)}`);
  for (const local of Object.keys(world.model.state.members)) {
    const [mine, other] = world.model.memberChain(local) === 'c2' ? [lists[1]!, lists[0]!] : [lists[0]!, lists[1]!];
    const m = mine.body.data.find((x: any) => x.id === sid(world, local));
    if (!m) throw new Error(`GET members: ${local} missing`);
    if (other.body.data.some((x: any) => x.id === sid(world, local))) throw new Error(`GET members: ${local} is listed by a key of another chain`);
    out.set(local, m);
  }
  return out;
}

export function membersText(members: Map<string, any>): string {
  return [...members]
    .map(([local, m]) =>
      m.program_type === 'cashback'
        ? `${local}: balance=${m.balance} held=${m.held} available=${m.available} spend=${m.total_spend} visits=${m.visits} level=${m.level?.name}`
        : `${local}: stamps=${m.stamps?.count} rewards=${m.stamps?.rewards_available} spend=${m.total_spend} visits=${m.visits}`,
    )
    .join('; ');
}

/** Compares the members with a model, without the independent invariants. */
export function compareMembers(model: MoneyModel, members: Map<string, any>, world: World | null = null): string[] {
  const out: string[] = [];
  for (const [local, m] of members) compareMember(out, world, local, model.memberView(local), m);
  return out;
}

/**
 * Reads members (all, or `only`), compares them with the model and checks the invariants of the tally (from the
 * answers of `done`, the requests since the last read); remembers what it read.
 */
export async function checkMembers(world: World, done: { req: ModelRequest; res: Response }[], only?: string[]): Promise<string[]> {
  const members = await readMembers(world, only);
  const out = compareMembers(world.model, members, world);
  out.push(...world.tally.check(world, members, done));
  for (const [local, m] of members) world.seen.set(local, m);
  return out;
}

/**
 * D19: every member's cashback, spend and stamps equal the sums of their ledger entries (and the model's); every
 * referral credit is an entry `referral-<referee>` of its campaign (D22).
 */
export async function checkLedger(world: World): Promise<string[]> {
  const members = Object.keys(world.model.state.members);
  const { rows } = await sql<{ member_id: string; cashback: string | number; spend: string | number; stamps: string | number }>`
    select member_id, coalesce(sum(cashback), 0) as cashback, coalesce(sum(spend), 0) as spend, coalesce(sum(stamps), 0) as stamps
    from ledger_entries where member_id in (${sql.join(members.map((m) => sid(world, m)))}) group by member_id`.execute(world.t.db);
  const out: string[] = [];
  for (const local of members) {
    const want = world.model.ledgerOf(local);
    const row = rows.find((r) => r.member_id === sid(world, local));
    const [cashback, spend, stamps] = row ? [Number(row.cashback), Number(row.spend), Number(row.stamps)] : [0, 0, 0];
    const seen = world.seen.get(local);
    if (cashback !== want.cashback) out.push(`ledger: Σ cashback of ${local} is ${cashback}, the model's balance ${want.cashback}`);
    if (seen && seen.balance !== null && seen.balance !== cashback) out.push(`ledger: ${local}.balance ${seen.balance} ≠ Σ cashback of the ledger ${cashback}`);
    if (spend !== want.spend) out.push(`ledger: Σ spend of ${local} is ${spend}, the model's ${want.spend}`);
    if (stamps !== want.stamps) out.push(`ledger: Σ stamps of ${local} is ${stamps}, the model's ${want.stamps}`);
  }
  // Every campaign's spent: the model's, and what its ledger entries add up to (ledger verify's check).
  for (const c of world.model.config.campaigns) {
    const res = await world.apis[campaignKey(c)]!.get(`/api/v1/campaigns/${sid(world, c.id)}`);
    if (res.body?.spent !== world.model.campaignSpent(c.id)) out.push(`campaign ${c.id}: spent ${res.body?.spent}, the model's ${world.model.campaignSpent(c.id)}`);
  }
  out.push(...compareReferralCredits(world.model, await readReferralCredits(world)));
  const spent = (await Promise.all(world.chainIds.map((id) => campaigns.verifySpent(world.t.db, id)))).flat();
  for (const d of spent) out.push(`ledger verify: campaign ${d.campaign_id} spent ${d.stored}, its ledger entries ${d.ledger}`);
  return out;
}

/**
 * The referral credits of the ledger (D22): an entry above 0 of a referral campaign whose reference is
 * `referral-<referee>`, for each side; as `member campaign referee amount`, sorted. A void's reversal is not one.
 * Then which check credited each referrer, as its record keeps it for a void to take back (`venue/check referrer
 * campaign amount`): two checks of one referee at once both qualify, and only the record says which one won.
 */
export async function readReferralCredits(world: World): Promise<string[]> {
  const { rows } = await sql<{ member_id: string; campaign_id: string; reference: string; cashback: string | number }>`
    select member_id, campaign_id, reference, cashback from ledger_entries
    where member_id in (${sql.join(Object.keys(world.model.state.members).map((m) => sid(world, m)))})
      and kind = 'campaign' and cashback > 0 and reference like 'referral-%'`.execute(world.t.db);
  const local = (id: string) => world.local.get(id) ?? id;
  const credits = rows.map((r) => `${local(r.member_id)} ${local(r.campaign_id)} ${local(r.reference.slice('referral-'.length))} ${Number(r.cashback)}`);
  const checks = await world.t.db
    .selectFrom('transactions')
    .select(['venue_id', 'external_id', 'campaigns'])
    .where('chain_id', 'in', world.chainIds)
    .execute();
  const byCheck = checks.flatMap((t) =>
    t.campaigns.flatMap((c) => (c.referrer?.amount ? [`${local(t.venue_id)}/${t.external_id} ${local(c.referrer.member_id)} ${local(c.campaign_id)} ${c.referrer.amount}`] : [])),
  );
  return [...credits.sort(), ...byCheck.sort()];
}

/**
 * The model's referral credits against the app's: which referee's check credited a referrer shows in no answer,
 * and a later void takes back that check's credits (the concurrent test must choose the order that gave them).
 */
export function compareReferralCredits(model: MoneyModel, app: string[]): string[] {
  const credits = model.referralCredits();
  const want = [
    ...credits.map((c) => `${c.member} ${c.campaign} ${c.referee} ${c.amount}`).sort(),
    ...credits.filter((c) => c.member !== c.referee).map((c) => `${c.check} ${c.member} ${c.campaign} ${c.amount}`).sort(),
  ];
  return app.join('; ') === want.join('; ') ? [] : [`referral credits (member campaign referee amount; check referrer campaign amount) are [${app.join('; ')}], the model's [${want.join('; ')}]`];
}

// ---------------------------------------------------------------- text

export function dayOf(world: World, venue: string, ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: world.model.config.venues[venue]!.timezone, dateStyle: 'short' }).format(new Date(ms));
}

export function nowText(world: World): string {
  const ms = world.t.clock.now().getTime();
  const local = VENUES.map((v) => {
    const tz = world.model.config.venues[v]!.timezone;
    return `${v} ${new Intl.DateTimeFormat('en-GB', { timeZone: tz, dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms))}`;
  });
  return `${new Date(ms).toISOString()} = ${local.join(', ')}`;
}

export function configText(cfg: SequenceConfig): string {
  const rules = (r: { perCheck: number | null; perDay: number | null; maxAge?: number | null; viaHolds?: boolean; holdTtl?: number | null }) =>
    [
      r.perCheck === null ? '' : `max_cashback_per_check=${r.perCheck}`,
      r.perDay === null ? '' : `max_cashback_per_day=${r.perDay}`,
      r.maxAge ? `max_check_age_seconds=${r.maxAge}` : '',
      r.viaHolds ? 'redeem_only_via_holds' : '',
      r.holdTtl ? `hold_ttl_seconds=${r.holdTtl}` : '',
    ]
      .filter(Boolean)
      .join(' ');
  const venues = VENUES.map((v, i) => `${v} (${CHAIN_OF[v]}, ${cfg.timezones[i]}){${rules(cfg.venues[i]!)}}`).join(', ');
  const keys = cfg.keys.map((k, i) => `${keyName(i)}{${rules(k)}}`).join(' ');
  return (
    `venues ${venues}; max_redeem_percent c1 ${cfg.maxRedeemPercent[0]}, c2 ${cfg.maxRedeemPercent[1]}; ` +
    `levels Bronze 0 3% / Silver 5000 5% / Gold 15000 7.5%; c1 categories tobacco (earns no cashback; at B: 1%), ` +
    `alcohol (not payable with cashback), desserts 12.5% (at C: 20%, not payable), misc (no rules); c2 no categories; ` +
    `c1 stamps: 5 required, 2 per visit, min_check_amount 500; keys ${keys}; ` +
    `opening ${CASHBACK_MEMBERS.map((m, i) => `${m}@${HOMES[m]} balance=${cfg.balances[i]} spend=${cfg.spends[i]}`).join(', ')}, s@C; ` +
    `campaigns ${cfg.campaigns.length ? worldConfig(cfg).campaigns.map((c) => `${c.id} ${c.chain}${c.livemode ? ' live' : ''} ${JSON.stringify(campaignBody(c))}`).join(', ') : 'none'}`
  );
}
