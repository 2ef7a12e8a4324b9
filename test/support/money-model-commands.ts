// The harness of the model-based test (test/modules/checks/model.test.ts): generated commands, their resolution
// into concrete requests against the model's state, the HTTP calls, the comparison of every answer with the model,
// and a tally of the figures the test itself received (independent of the model and of the code under test).
import fc from 'fast-check';
import * as catalogue from '../../src/modules/catalogue/service.js';
import type { TestApp } from './app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from './factories.js';
import { client, type Response } from './http.js';
import { MoneyModel, type Expected, type KeyRules, type MemberView, type ModelCheckBody, type ModelLine, type ModelRequest, type TxView, type VenueConfig } from './money-model.js';

// ---------------------------------------------------------------- the venue of one sequence

export const BASE_TIME = Date.parse('2027-02-01T00:00:00.000Z');

export interface KeyGen {
  perCheck: number | null;
  perDay: number | null;
  maxAge: number | null;
  viaHolds: boolean;
}

export interface SequenceConfig {
  timezone: string;
  /** Minutes after BASE_TIME (UTC) at which the sequence starts: venue days begin at different moments. */
  startMinute: number;
  maxRedeemPercent: number;
  keys: KeyGen[];
  /** Opening cashback balance and spend of the two cashback members. */
  balances: number[];
  spends: number[];
}

const LEVELS = [
  { name: 'Bronze', min_spend: 0, percent: 3 },
  { name: 'Silver', min_spend: 5_000, percent: 5 },
  { name: 'Gold', min_spend: 15_000, percent: 7.5 },
];
const CATEGORIES = {
  tobacco: { earns: false, payable: true, bp: null },
  alcohol: { earns: true, payable: false, bp: null },
  desserts: { earns: true, payable: true, bp: 1250 },
};
const STAMPS = { required: 5, perVisit: 2, minCheckAmount: 500 };
const HOLD_TTL = 900;

const keyArb: fc.Arbitrary<KeyGen> = fc.record({
  perCheck: fc.option(fc.integer({ min: 15, max: 150 }), { freq: 2 }),
  perDay: fc.option(fc.integer({ min: 20, max: 300 }), { freq: 2 }),
  maxAge: fc.option(fc.constantFrom(60, 600, 3600, 4 * 3600), { freq: 2 }),
  viaHolds: fc.constantFrom(false, false, false, false, false, true),
});

export const configArb: fc.Arbitrary<SequenceConfig> = fc.record({
  timezone: fc.constantFrom('Pacific/Auckland', 'America/New_York', 'Australia/Adelaide'),
  startMinute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  maxRedeemPercent: fc.constantFrom(50, 75, 100),
  keys: fc.tuple(keyArb, keyArb),
  balances: fc.tuple(fc.constantFrom(0, 60, 300, 1500), fc.constantFrom(150, 800)),
  spends: fc.tuple(fc.constantFrom(0, 0, 4_500, 14_000), fc.constantFrom(0, 4_800)),
});

/** Local ids: the model and the commands name members and holds by these; `ids` maps them to the app's. */
export const MEMBERS = ['m0', 'm1', 's', 'ghost'] as const;
const GHOST_MEMBER = '01900000-0000-7000-8000-00000000beef';
const GHOST_HOLD = '01900000-0000-7000-8000-00000000dead';

export interface World {
  t: TestApp;
  cfg: SequenceConfig;
  model: MoneyModel;
  apis: ReturnType<typeof client>[];
  /** local id → the app's id (members, holds). */
  ids: Map<string, string>;
  local: Map<string, string>;
  /** The bodies of checks sent, by external_id, for replays. */
  bodies: Map<string, ModelCheckBody>;
  n: number;
  tally: Tally;
  /** The members as last read from the app. */
  seen: Map<string, Record<string, any>>;
  trace: string[];
}

/** Sets the app's clock to `ms` (the ManualClock moves backwards too: every sequence has its own fresh venue). */
function setClock(t: TestApp, ms: number) {
  t.clock.advance(ms - t.clock.now().getTime());
}

export async function setUpWorld(t: TestApp, cfg: SequenceConfig): Promise<World> {
  setClock(t, BASE_TIME + cfg.startMinute * 60_000);
  const venue = await createVenue(t, { timezone: cfg.timezone, settings: { manual_adjustments_allowed: true } });
  await createProgram(t, venue, 'cashback', { settings: { levels: LEVELS, max_redeem_percent: cfg.maxRedeemPercent } });
  const stamps = await createProgram(t, venue, 'stamps', {
    settings: { stamps_required: STAMPS.required, reward_name: 'Coffee', stamps_per_visit: STAMPS.perVisit, min_check_amount: STAMPS.minCheckAmount },
    isDefault: false,
  });
  const apis = [];
  for (const k of cfg.keys) {
    const rules: Record<string, unknown> = {};
    if (k.perCheck !== null) rules.max_cashback_per_check = k.perCheck;
    if (k.perDay !== null) rules.max_cashback_per_day = k.perDay;
    if (k.maxAge !== null) rules.max_check_age_seconds = k.maxAge;
    if (k.viaHolds) rules.redeem_only_via_holds = true;
    apis.push(client(t, (await createKey(t, venue, { rules })).secret));
  }
  const owner = apis[0]!;
  for (const [category, rule] of Object.entries(CATEGORIES)) {
    const put = await owner.put(`/api/v1/catalog/categories/${category}`, { name: category });
    if (put.status !== 201 && put.status !== 200) throw new Error(`fixture: category ${category}: ${put.status} ${JSON.stringify(put.body)}`);
    await catalogue.setCategoryRules(t.db, venue.chainId, category, {
      earns_cashback: rule.earns,
      payable_with_cashback: rule.payable,
      ...(rule.bp === null ? {} : { cashback_percent: rule.bp / 100 }),
    });
  }
  const ids = new Map<string, string>([['ghost', GHOST_MEMBER], ['hX', GHOST_HOLD]]);
  for (const [i, local] of ['m0', 'm1', 's'].entries()) {
    const res = await owner.post('/api/v1/members', { card_number: newCardNumber(), consent: true, ...(local === 's' ? { program_id: stamps.id } : {}) });
    if (res.status !== 201) throw new Error(`fixture: member ${local}: ${res.status} ${JSON.stringify(res.body)}`);
    ids.set(local, res.body.id);
    if (i < 2 && (cfg.balances[i] || cfg.spends[i])) {
      await seedLedger(t, venue, { memberId: res.body.id, kind: 'import', cashback: cfg.balances[i]!, spend: cfg.spends[i]! });
    }
  }
  const config: VenueConfig = {
    timezone: cfg.timezone,
    levels: LEVELS.map((l) => ({ name: l.name, minSpend: l.min_spend, bp: Math.round(l.percent * 100) })),
    maxRedeemBp: cfg.maxRedeemPercent * 100,
    categories: CATEGORIES,
    stamps: STAMPS,
    keys: cfg.keys.map((k): KeyRules => ({ perCheck: k.perCheck, perDay: k.perDay, maxAgeSeconds: k.maxAge, viaHolds: k.viaHolds, holdTtlSeconds: HOLD_TTL })),
  };
  const model = MoneyModel.create(config, t.clock.now().getTime(), [
    { id: 'm0', program: 'cashback', balance: cfg.balances[0], spend: cfg.spends[0] },
    { id: 'm1', program: 'cashback', balance: cfg.balances[1], spend: cfg.spends[1] },
    { id: 's', program: 'stamps' },
  ]);
  const world: World = {
    t,
    cfg,
    model,
    apis,
    ids,
    local: new Map([...ids].map(([l, s]) => [s, l])),
    bodies: new Map(),
    n: 0,
    tally: new Tally({ m0: cfg.balances[0]!, m1: cfg.balances[1]! }),
    seen: new Map(),
    trace: [],
  };
  const problems = await checkMembers(world, []);
  if (problems.length) throw new Error(`fixture: members differ from the model before any command:\n${problems.join('\n')}`);
  return world;
}

// ---------------------------------------------------------------- commands

/** How a generated amount is chosen: a number, or relative to what the model says now (to hit limits exactly). */
export type Amount = { k: 'abs'; v: number } | { k: 'max' } | { k: 'max+1' } | { k: 'avail' } | { k: 'avail+1' } | { k: 'none' } | { k: 'part'; pct: number };
export type RefundAmount = { k: 'abs'; v: number } | { k: 'rest' } | { k: 'rest+1' } | { k: 'half' };
export type AdjustAmount = { k: 'abs'; v: number } | { k: '-avail' } | { k: '-avail-1' };
export type CaptureAmount = { k: 'none' } | { k: 'abs'; v: number } | { k: 'hold-1' } | { k: 'hold+1' };
export type Advance = { k: 'sec'; v: number } | { k: 'toExpiry' } | { k: 'day'; v: number };

export interface LineGen {
  price: number;
  qty: number;
  cat?: string;
}

export type Cmd =
  | { c: 'check'; key: number; who: number; lines: LineGen[]; redeem: Amount; closedAgo: number | null; hold: number | null; omitMember: boolean }
  | { c: 'calc'; key: number; who: number; lines: LineGen[]; redeem: Amount; closedAgo: number | null; hold: number | null; withId: boolean }
  | { c: 'replay'; key: number; pick: number }
  | { c: 'reuse'; key: number; pick: number; delta: number }
  | { c: 'void'; key: number; pick: number }
  | { c: 'refund'; key: number; pick: number; amount: RefundAmount }
  | { c: 'refundAgain'; key: number; pick: number; same: boolean }
  | { c: 'hold'; key: number; who: number; amount: Amount; expiresIn: number | null }
  | { c: 'release'; key: number; pick: number }
  | { c: 'capture'; key: number; holdPick: number; txPick: number; redeem: CaptureAmount }
  /** Two requests: a hold of pct % of what is available, then its capture into an applied check of that member. */
  | { c: 'holdCapture'; key: number; who: number; pct: number; txPick: number; redeem: CaptureAmount }
  | { c: 'adjust'; key: number; who: number; amount: AdjustAmount }
  | { c: 'visit'; key: number; who: number; ext: 'none' | 'new' | 'replay'; pick: number }
  | { c: 'advance'; by: Advance };

const amountText = (a: { k: string; v?: number }) => (a.k === 'abs' ? String(a.v) : a.k);
const linesText = (lines: LineGen[]) =>
  lines.map((l) => `${l.qty === 1 ? '' : `${l.qty}×`}${l.price}${l.cat ? ` ${l.cat}` : ''}`).join(', ');

export function cmdText(c: Cmd): string {
  switch (c.c) {
    case 'check':
      return `check K${c.key} ${MEMBERS[c.who]}${c.omitMember ? '(via hold)' : ''} [${linesText(c.lines)}] redeem=${amountText(c.redeem)}${c.hold === null ? '' : ` hold#${c.hold}`}${c.closedAgo === null ? '' : ` closed ${c.closedAgo}s ago`}`;
    case 'calc':
      return `calculate K${c.key} ${MEMBERS[c.who]} [${linesText(c.lines)}] redeem=${amountText(c.redeem)}${c.hold === null ? '' : ` hold#${c.hold}`}${c.closedAgo === null ? '' : ` closed ${c.closedAgo}s ago`}${c.withId ? '' : ' (no external_id)'}`;
    case 'replay':
      return `replay check#${c.pick} K${c.key}`;
    case 'reuse':
      return `reuse external_id of check#${c.pick} with price +${c.delta} K${c.key}`;
    case 'void':
      return `void check#${c.pick} K${c.key}`;
    case 'refund':
      return `refund check#${c.pick} amount=${amountText(c.amount)} K${c.key}`;
    case 'refundAgain':
      return `resend refund#${c.pick} ${c.same ? 'same amount' : 'other amount'} K${c.key}`;
    case 'hold':
      return `hold K${c.key} ${MEMBERS[c.who]} amount=${amountText(c.amount)}${c.expiresIn === null ? '' : ` expires_in=${c.expiresIn}`}`;
    case 'release':
      return `release hold#${c.pick} K${c.key}`;
    case 'capture':
      return `capture hold#${c.holdPick} into check#${c.txPick} redeem=${amountText(c.redeem)} K${c.key}`;
    case 'holdCapture':
      return `hold ${c.pct}% of available of ${MEMBERS[c.who]} (else ${MEMBERS[1 - c.who]}) and capture it into their check#${c.txPick} redeem=${amountText(c.redeem)} K${c.key}`;
    case 'adjust':
      return `adjust K${c.key} ${MEMBERS[c.who]} ${amountText(c.amount)}`;
    case 'visit':
      return `visit K${c.key} ${MEMBERS[c.who]} external_id=${c.ext}${c.ext === 'replay' ? `#${c.pick}` : ''}`;
    case 'advance':
      return `advance ${c.by.k === 'sec' ? `${c.by.v}s` : c.by.k === 'day' ? `${c.by.v}s (day)` : 'to the next hold expiry'}`;
  }
}

/** Commands print as one readable line each in fast-check's counter-examples. */
const readable = <T extends Cmd>(c: T): T => Object.assign(c, { [fc.toStringMethod]: () => cmdText(c) });

const key = fc.constantFrom(0, 0, 1);
const pick = fc.nat({ max: 50 });
const lineArb: fc.Arbitrary<LineGen> = fc.record(
  {
    price: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 400, max: 3000 })),
    qty: fc.constantFrom(1, 1, 1, 1, 2, 3, 0.5, 0.333, 1.25),
    cat: fc.constantFrom('tobacco', 'alcohol', 'desserts', 'misc'),
  },
  { requiredKeys: ['price', 'qty'] },
);
const linesArb = fc.array(lineArb, { minLength: 1, maxLength: 3 });
const redeemArb: fc.Arbitrary<Amount> = fc.oneof(
  { arbitrary: fc.constant({ k: 'none' as const }), weight: 6 },
  { arbitrary: fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 0, max: 250 }) }), weight: 3 },
  { arbitrary: fc.constantFrom<Amount>({ k: 'max' }, { k: 'max+1' }, { k: 'avail' }, { k: 'avail+1' }), weight: 3 },
);
const closedAgoArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 6 },
  { arbitrary: fc.integer({ min: 1, max: 120 }), weight: 1 },
  { arbitrary: fc.integer({ min: 120, max: 48 * 3600 }), weight: 2 },
);
const whoArb = fc.constantFrom(0, 0, 0, 1, 1, 1, 2, 2, 3);
const cashbackWho = fc.constantFrom(0, 0, 0, 1, 1, 1, 3);

const checkArb = fc.record({
  c: fc.constant('check' as const),
  key,
  who: whoArb,
  lines: linesArb,
  redeem: redeemArb,
  closedAgo: closedAgoArb,
  hold: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: pick, weight: 1 }),
  omitMember: fc.boolean(),
});

const commandArbs = {
  check: checkArb,
  calc: fc.record({
    c: fc.constant('calc' as const),
    key,
    who: whoArb,
    lines: linesArb,
    redeem: redeemArb,
    closedAgo: closedAgoArb,
    hold: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: pick, weight: 1 }),
    withId: fc.boolean(),
  }),
  replay: fc.record({ c: fc.constant('replay' as const), key, pick }),
  reuse: fc.record({ c: fc.constant('reuse' as const), key, pick, delta: fc.integer({ min: 1, max: 50 }) }),
  void: fc.record({ c: fc.constant('void' as const), key, pick }),
  refund: fc.record({
    c: fc.constant('refund' as const),
    key,
    pick,
    amount: fc.oneof(
      fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 1, max: 600 }) }),
      fc.constantFrom<RefundAmount>({ k: 'rest' }, { k: 'rest+1' }, { k: 'half' }),
    ),
  }),
  refundAgain: fc.record({ c: fc.constant('refundAgain' as const), key, pick, same: fc.constantFrom(true, true, false) }),
  hold: fc.record({
    c: fc.constant('hold' as const),
    key,
    who: cashbackWho,
    amount: fc.oneof(
      { arbitrary: fc.record({ k: fc.constant('part' as const), pct: fc.integer({ min: 5, max: 100 }) }), weight: 4 },
      { arbitrary: fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 1, max: 300 }) }), weight: 1 },
      { arbitrary: fc.constantFrom<Amount>({ k: 'avail' }, { k: 'avail+1' }), weight: 1 },
    ),
    expiresIn: fc.option(fc.integer({ min: 30, max: 1800 }), { freq: 2 }),
  }),
  release: fc.record({ c: fc.constant('release' as const), key, pick }),
  capture: fc.record({
    c: fc.constant('capture' as const),
    key,
    holdPick: pick,
    txPick: pick,
    redeem: fc.oneof(
      { arbitrary: fc.constant<CaptureAmount>({ k: 'none' }), weight: 3 },
      { arbitrary: fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 1, max: 300 }) }), weight: 2 },
      { arbitrary: fc.constantFrom<CaptureAmount>({ k: 'hold-1' }, { k: 'hold+1' }), weight: 1 },
    ),
  }),
  holdCapture: fc.record({
    c: fc.constant('holdCapture' as const),
    key,
    who: fc.constantFrom(0, 1),
    pct: fc.oneof(fc.constant(100), fc.integer({ min: 10, max: 100 })),
    txPick: pick,
    redeem: fc.oneof(
      { arbitrary: fc.constant<CaptureAmount>({ k: 'none' }), weight: 3 },
      { arbitrary: fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 1, max: 200 }) }), weight: 1 },
      { arbitrary: fc.constantFrom<CaptureAmount>({ k: 'hold-1' }, { k: 'hold+1' }), weight: 1 },
    ),
  }),
  adjust: fc.record({
    c: fc.constant('adjust' as const),
    key,
    who: cashbackWho,
    amount: fc.oneof(
      fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: -300, max: 500 }).filter((v) => v !== 0) }),
      fc.constantFrom<AdjustAmount>({ k: '-avail' }, { k: '-avail-1' }),
    ),
  }),
  visit: fc.record({
    c: fc.constant('visit' as const),
    key,
    who: fc.constantFrom(2, 2, 2, 2, 0, 3),
    ext: fc.constantFrom('none' as const, 'new' as const, 'new' as const, 'replay' as const),
    pick,
  }),
  advance: fc.record({
    c: fc.constant('advance' as const),
    by: fc.oneof(
      fc.record({ k: fc.constant('sec' as const), v: fc.integer({ min: 1, max: 1000 }) }),
      fc.constant<Advance>({ k: 'toExpiry' }),
      fc.record({ k: fc.constant('day' as const), v: fc.integer({ min: 3600, max: 30 * 3600 }) }),
    ),
  }),
};

type Weights = Partial<Record<keyof typeof commandArbs, number>>;
const WEIGHTS: Weights = {
  check: 28,
  calc: 7,
  replay: 6,
  reuse: 2,
  void: 6,
  refund: 9,
  refundAgain: 3,
  hold: 12,
  release: 3,
  capture: 5,
  holdCapture: 6,
  adjust: 5,
  visit: 4,
  advance: 6,
};

export function commandArb(weights: Weights = WEIGHTS): fc.Arbitrary<Cmd> {
  const entries = Object.entries(weights).filter(([, w]) => w! > 0) as [keyof typeof commandArbs, number][];
  return fc.oneof(...entries.map(([name, weight]) => ({ arbitrary: (commandArbs[name] as fc.Arbitrary<Cmd>).map(readable), weight })));
}

/**
 * A list of `min`–`max` items that shrinks below `min`: runs are long, counter-examples short (the items after
 * the failing one, and those it does not need, go). The shrinker is an array of the same items and maxLength,
 * so it reads the generator's shrink context.
 */
export function sequenceOf<T>(item: fc.Arbitrary<T>, min: number, max: number): fc.Arbitrary<T[]> {
  const generator = fc.array(item, { minLength: min, maxLength: max });
  const shrinker = fc.array(item, { minLength: 1, maxLength: max });
  return new (class extends fc.Arbitrary<T[]> {
    generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T[]> {
      return generator.generate(mrng, biasFactor);
    }
    canShrinkWithoutContext(value: unknown): value is T[] {
      return shrinker.canShrinkWithoutContext(value);
    }
    shrink(value: T[], context: unknown): fc.Stream<fc.Value<T[]>> {
      return shrinker.shrink(value, context);
    }
  })();
}

// ---------------------------------------------------------------- resolution: command → concrete request

const at = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

function resolveAmount(world: World, a: Amount, key: number, body: ModelCheckBody): number | undefined {
  const { model } = world;
  const member = body.memberId ?? (body.holdId ? model.hold(body.holdId)?.memberId : undefined);
  const available = member && model.state.members[member]?.program === 'cashback' ? model.available(member) : 0;
  switch (a.k) {
    case 'none':
      return undefined;
    case 'abs':
      return a.v;
    case 'max':
    case 'max+1': {
      const max = model.maxRedeemFor(key, body) ?? 0;
      return a.k === 'max' ? max : max + 1;
    }
    case 'avail':
      return Math.max(0, available);
    case 'avail+1':
      return Math.max(0, available) + 1;
    case 'part':
      return Math.floor((Math.max(0, available) * a.pct) / 100);
  }
}

/**
 * A hold for a check or capture: picks ≡ 0, 1 (mod 4) prefer active holds (of the member, when one is named),
 * 2 any hold, 3 one that does not exist.
 */
function pickHold(world: World, p: number, member: string | undefined): string {
  const { model } = world;
  if (p % 4 === 3) return 'hX';
  const all = model.holdIds();
  const active = all.filter((h) => (member === undefined || model.hold(h)!.memberId === member) && model.holdStatus(h) === 'active');
  return at(p % 4 < 2 && active.length ? active : all, p >> 2) ?? 'hX';
}

function lineBodies(lines: LineGen[]): ModelLine[] {
  return lines.map((l, i) => ({ name: `Item ${i + 1}`, quantity: l.qty, unitPrice: l.price, ...(l.cat ? { category: l.cat } : {}) }));
}

/** The concrete requests of a command, against the model's state now; none when there is nothing to act on. */
export function resolve(world: World, cmd: Cmd): ModelRequest[] {
  if (cmd.c === 'holdCapture') return resolveHoldCapture(world, cmd);
  const req = resolveOne(world, cmd);
  return req ? [req] : [];
}

function resolveHoldCapture(world: World, cmd: Extract<Cmd, { c: 'holdCapture' }>): ModelRequest[] {
  const { model } = world;
  const fittingOf = (member: string) =>
    model.checkIds().filter((id) => {
      const tx = model.tx(id)!;
      return model.txMember(id) === member && tx.status === 'completed' && tx.redeemed === 0 && tx.refundedAmount === 0;
    });
  // The member named, else the other one, if they have a check the hold can go into.
  const member = [MEMBERS[cmd.who]!, MEMBERS[1 - cmd.who]!].find((m) => fittingOf(m).length > 0);
  if (!member) return [];
  const externalId = at(fittingOf(member), cmd.txPick)!;
  const amount = Math.max(1, Math.floor((model.available(member) * cmd.pct) / 100));
  const holdId = `h${++world.n}`;
  const r = cmd.redeem;
  const redeem = r.k === 'none' ? undefined : r.k === 'abs' ? r.v : r.k === 'hold-1' ? Math.max(1, amount - 1) : amount + 1;
  return [
    { op: 'createHold', key: cmd.key, holdId, memberId: member, amount },
    { op: 'capture', key: cmd.key, holdId, externalId, ...(redeem === undefined ? {} : { redeemAmount: redeem }) },
  ];
}

function resolveOne(world: World, cmd: Exclude<Cmd, { c: 'holdCapture' }>): ModelRequest | null {
  const { model } = world;
  const now = model.state.now;
  switch (cmd.c) {
    case 'check':
    case 'calc': {
      const member = MEMBERS[cmd.who]!;
      const body: ModelCheckBody = { lines: lineBodies(cmd.lines) };
      if (cmd.c === 'check') body.externalId = `C${++world.n}`;
      else if (cmd.withId) body.externalId = `C${world.n + 1}`;
      if (cmd.hold !== null && (model.holdIds().length || cmd.hold % 4 === 3)) body.holdId = pickHold(world, cmd.hold, member);
      if (!(cmd.c === 'check' && cmd.omitMember && body.holdId)) body.memberId = member;
      if (cmd.closedAgo !== null) body.closedAt = now - cmd.closedAgo * 1000;
      const redeem = resolveAmount(world, cmd.redeem, cmd.key, body);
      if (redeem !== undefined) body.redeemAmount = redeem;
      if (cmd.c === 'check') world.bodies.set(body.externalId!, body);
      return { op: cmd.c === 'check' ? 'check' : 'calculate', key: cmd.key, body };
    }
    case 'replay': {
      const id = at(model.checkIds(), cmd.pick);
      return id ? { op: 'check', key: cmd.key, body: world.bodies.get(id)! } : null;
    }
    case 'reuse': {
      const id = at(model.checkIds(), cmd.pick);
      if (!id) return null;
      const original = world.bodies.get(id)!;
      const [first, ...rest] = original.lines;
      return { op: 'check', key: cmd.key, body: { ...original, lines: [{ ...first!, unitPrice: first!.unitPrice + cmd.delta }, ...rest] } };
    }
    case 'void':
      return { op: 'void', key: cmd.key, externalId: at(model.checkIds(), cmd.pick) ?? 'NOPE' };
    case 'refund': {
      const id = at(model.checkIds(), cmd.pick) ?? 'NOPE';
      const tx = model.tx(id);
      const refundable = tx?.refundable ?? 0;
      const amount =
        cmd.amount.k === 'abs' ? cmd.amount.v : cmd.amount.k === 'rest' ? refundable : cmd.amount.k === 'rest+1' ? refundable + 1 : Math.floor(refundable / 2);
      return { op: 'refund', key: cmd.key, externalId: id, refundId: `R${++world.n}`, amount: Math.max(1, amount) };
    }
    case 'refundAgain': {
      const r = at(model.refunds(), cmd.pick);
      return r ? { op: 'refund', key: cmd.key, externalId: r[0], refundId: r[1], amount: cmd.same ? r[2] : r[2] + 1 } : null;
    }
    case 'hold': {
      const member = MEMBERS[cmd.who]!;
      const available = model.state.members[member] ? model.available(member) : 0;
      const amount =
        cmd.amount.k === 'abs' ? cmd.amount.v : cmd.amount.k === 'part' ? Math.floor((available * cmd.amount.pct) / 100) : cmd.amount.k === 'avail' ? available : available + 1;
      return {
        op: 'createHold',
        key: cmd.key,
        holdId: `h${++world.n}`,
        memberId: member,
        amount: Math.max(1, amount),
        ...(cmd.expiresIn === null ? {} : { expiresIn: cmd.expiresIn }),
      };
    }
    case 'release':
      return { op: 'release', key: cmd.key, holdId: at(model.holdIds(), cmd.pick) ?? 'hX' };
    case 'capture': {
      // Picks ≡ 0, 1 (mod 4) look for an active hold and a check it can go into (the hold's member's, completed,
      // nothing redeemed or refunded); 2 any hold and any check; 3 a hold that does not exist.
      const fits = (holdMember: string | undefined) =>
        model.checkIds().filter((id) => {
          const tx = model.tx(id)!;
          return model.txMember(id) === holdMember && tx.status === 'completed' && tx.redeemed === 0 && tx.refundedAmount === 0;
        });
      const usable = model.holdIds().filter((h) => model.holdStatus(h) === 'active' && fits(model.hold(h)!.memberId).length > 0);
      const aim = cmd.holdPick % 4 < 2 && usable.length > 0;
      const holdId = aim ? at(usable, cmd.holdPick >> 2)! : pickHold(world, cmd.holdPick, undefined);
      const hold = model.hold(holdId);
      const externalId = at(aim ? fits(hold!.memberId) : model.checkIds(), cmd.txPick) ?? 'NOPE';
      const amount = hold?.amount ?? 100;
      const redeem =
        cmd.redeem.k === 'none' ? undefined : cmd.redeem.k === 'abs' ? cmd.redeem.v : cmd.redeem.k === 'hold-1' ? Math.max(1, amount - 1) : amount + 1;
      return { op: 'capture', key: cmd.key, holdId, externalId, ...(redeem === undefined ? {} : { redeemAmount: redeem }) };
    }
    case 'adjust': {
      const member = MEMBERS[cmd.who]!;
      const available = model.state.members[member] ? model.available(member) : 0;
      const amount = cmd.amount.k === 'abs' ? cmd.amount.v : cmd.amount.k === '-avail' ? -available : -available - 1;
      return { op: 'adjust', key: cmd.key, memberId: member, amount: amount === 0 ? -1 : amount };
    }
    case 'visit': {
      const member = MEMBERS[cmd.who]!;
      const externalId = cmd.ext === 'none' ? undefined : cmd.ext === 'replay' ? (at(model.visitIds(), cmd.pick) ?? `V${++world.n}`) : `V${++world.n}`;
      return { op: 'visit', key: cmd.key, memberId: member, ...(externalId === undefined ? {} : { externalId }) };
    }
    case 'advance': {
      if (cmd.by.k === 'sec') return { op: 'advance', ms: cmd.by.v * 1000 };
      if (cmd.by.k === 'day') return { op: 'advance', ms: cmd.by.v * 1000 };
      const next = model
        .holdIds()
        .filter((h) => model.holdStatus(h) === 'active')
        .map((h) => model.hold(h)!.expiresAt - now)
        .sort((a, b) => a - b)[0];
      return { op: 'advance', ms: next ?? 60_000 };
    }
  }
}

// ---------------------------------------------------------------- HTTP

/** The app's id of a local one; a hold that was never created stands for one that does not exist. */
const sid = (world: World, local: string): string => {
  const id = world.ids.get(local) ?? (/^h\d+$/.test(local) ? GHOST_HOLD : undefined);
  if (!id) throw new Error(`harness: no app id for ${local}`);
  return id;
};

/** The JSON a till sends for a model body: the same model body always gives the same JSON (replays). */
export function httpCheckBody(world: World, b: ModelCheckBody): Record<string, unknown> {
  return {
    ...(b.externalId === undefined ? {} : { external_id: b.externalId }),
    ...(b.memberId === undefined ? {} : { member_id: sid(world, b.memberId) }),
    line_items: b.lines.map((l) => ({ name: l.name, quantity: l.quantity, unit_price: l.unitPrice, ...(l.category ? { category: l.category } : {}) })),
    ...(b.redeemAmount === undefined ? {} : { redeem_amount: b.redeemAmount }),
    ...(b.holdId === undefined ? {} : { hold_id: sid(world, b.holdId) }),
    ...(b.closedAt === undefined ? {} : { closed_at: new Date(b.closedAt).toISOString() }),
  };
}

const ADVANCED: Response = { status: 0, headers: {}, body: null };

export async function send(world: World, req: ModelRequest): Promise<Response> {
  if (req.op === 'advance') {
    world.t.clock.advance(req.ms);
    return ADVANCED;
  }
  const api = world.apis[req.key]!;
  const path = encodeURIComponent;
  switch (req.op) {
    case 'check':
      return api.post('/api/v1/checks', httpCheckBody(world, req.body));
    case 'calculate':
      return api.post('/api/v1/checks/calculate', httpCheckBody(world, req.body));
    case 'void':
      return api.post(`/api/v1/transactions/${path(req.externalId)}/void`);
    case 'refund':
      return api.post(`/api/v1/transactions/${path(req.externalId)}/refunds`, { external_id: req.refundId, amount: req.amount });
    case 'createHold': {
      const res = await api.post('/api/v1/holds', { member_id: sid(world, req.memberId), amount: req.amount, ...(req.expiresIn === undefined ? {} : { expires_in: req.expiresIn }) });
      if (res.status === 201 && typeof res.body?.id === 'string') {
        world.ids.set(req.holdId, res.body.id);
        world.local.set(res.body.id, req.holdId);
      }
      return res;
    }
    case 'release':
      return api.post(`/api/v1/holds/${sid(world, req.holdId)}/release`);
    case 'capture':
      return api.post(`/api/v1/holds/${sid(world, req.holdId)}/capture`, {
        external_id: req.externalId,
        ...(req.redeemAmount === undefined ? {} : { redeem_amount: req.redeemAmount }),
      });
    case 'adjust':
      return api.post(`/api/v1/members/${sid(world, req.memberId)}/adjustments`, { amount: req.amount, reason: 'model test' });
    case 'visit':
      return api.post('/api/v1/visits', { member_id: sid(world, req.memberId), ...(req.externalId === undefined ? {} : { external_id: req.externalId }) });
  }
}

// ---------------------------------------------------------------- text for traces

const linesOf = (lines: ModelLine[]) =>
  lines.map((l) => `${l.quantity === 1 ? '' : `${l.quantity}×`}${l.unitPrice}${l.category ? ` ${l.category}` : ''}`).join(', ');

export function reqText(world: World, req: ModelRequest): string {
  const clock = (ms: number) => {
    const ago = (world.model.state.now - ms) / 1000;
    return `${new Date(ms).toISOString()} (${ago}s ago, venue day ${dayOf(world, ms)})`;
  };
  switch (req.op) {
    case 'check':
    case 'calculate': {
      const b = req.body;
      return (
        `${req.op === 'check' ? 'POST /checks' : 'POST /checks/calculate'} K${req.key} ${b.externalId ?? '(no external_id)'} ` +
        `member=${b.memberId ?? '-'} [${linesOf(b.lines)}]` +
        `${b.redeemAmount === undefined ? '' : ` redeem_amount=${b.redeemAmount}`}${b.holdId ? ` hold=${b.holdId}` : ''}` +
        `${b.closedAt === undefined ? '' : ` closed_at=${clock(b.closedAt)}`}`
      );
    }
    case 'void':
      return `POST /transactions/${req.externalId}/void K${req.key}`;
    case 'refund':
      return `POST /transactions/${req.externalId}/refunds K${req.key} {external_id: ${req.refundId}, amount: ${req.amount}}`;
    case 'createHold':
      return `POST /holds K${req.key} ${req.holdId} member=${req.memberId} amount=${req.amount}${req.expiresIn === undefined ? '' : ` expires_in=${req.expiresIn}`}`;
    case 'release':
      return `POST /holds/${req.holdId}/release K${req.key}`;
    case 'capture':
      return `POST /holds/${req.holdId}/capture K${req.key} {external_id: ${req.externalId}${req.redeemAmount === undefined ? '' : `, redeem_amount: ${req.redeemAmount}`}}`;
    case 'adjust':
      return `POST /members/${req.memberId}/adjustments K${req.key} amount=${req.amount}`;
    case 'visit':
      return `POST /visits K${req.key} member=${req.memberId}${req.externalId ? ` external_id=${req.externalId}` : ''}`;
    case 'advance':
      return `clock +${req.ms / 1000}s`;
  }
}

function dayOf(world: World, ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: world.cfg.timezone, dateStyle: 'short' }).format(new Date(ms));
}

export function nowText(world: World): string {
  const ms = world.t.clock.now().getTime();
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: world.cfg.timezone, dateStyle: 'short', timeStyle: 'medium' }).format(new Date(ms));
  return `${new Date(ms).toISOString()} = ${local} ${world.cfg.timezone}`;
}

export function resText(res: Response): string {
  if (res === ADVANCED) return 'ok';
  const b = res.body;
  const replayed = res.headers['idempotent-replayed'] === 'true' ? ' (replayed)' : '';
  if (b?.error) {
    const extra = ['available', 'max_redeem', 'refundable'].filter((k) => b.error[k] !== undefined).map((k) => ` ${k}=${b.error[k]}`).join('');
    return `${res.status} ${b.error.code}${extra}${b.error.param ? ` param=${b.error.param}` : ''}`;
  }
  switch (b?.object) {
    case 'transaction':
      return `${res.status}${replayed} ${txText(b)}`;
    case 'check_calculation':
      return `${res.status} max_redeem=${b.max_redeem} redeemed=${b.redeemed} earned=${b.earned}${b.earn_capped ? ' (capped)' : ''} stamps=${b.stamps_earned} paid=${b.paid} balance_after=${b.balance_after} available_after=${b.available_after}`;
    case 'refund':
      return `${res.status}${replayed} refund ${b.amount}: earned_reversed=${b.earned_reversed} redeemed_returned=${b.redeemed_returned}; check ${txText(b.transaction)}`;
    case 'hold':
      return `${res.status} hold ${b.amount} ${b.status} expires_at=${b.expires_at}`;
    case 'adjustment':
      return `${res.status} adjustment ${b.amount}: balance=${b.balance} available=${b.available}`;
    case 'visit':
      return `${res.status}${replayed} visit stamps_earned=${b.stamps_earned} (stamps ${b.member?.stamps?.count})`;
    default:
      return `${res.status} ${JSON.stringify(b).slice(0, 300)}`;
  }
}

const txText = (b: any) =>
  `${b.external_id} ${b.status} subtotal=${b.subtotal} redeemed=${b.redeemed} earned=${b.earned}${b.earn_capped ? ' (capped)' : ''} paid=${b.paid} refunded=${b.refunded_amount} refundable=${b.refundable}${b.stamps_earned ? ` stamps=${b.stamps_earned}` : ''}` +
  ` lines=[${(b.line_items ?? []).map((l: any) => `${l.amount}@${l.cashback_percent}%:-${l.redeemed}/+${l.earned}`).join(' ')}]`;

const txViewText = (v: TxView) =>
  `${v.status} subtotal=${v.subtotal} redeemed=${v.redeemed} earned=${v.earned}${v.earnCapped ? ' (capped)' : ''} paid=${v.paid} refunded=${v.refundedAmount} refundable=${v.refundable}${v.stampsEarned ? ` stamps=${v.stampsEarned}` : ''}` +
  ` lines=[${v.lines.map((l) => `${l.amount}@${l.bp / 100}%:-${l.redeemed}/+${l.earned}`).join(' ')}]`;

export function expectedText(e: Expected): string {
  switch (e.kind) {
    case 'error':
      return `${e.status} ${e.code}${Object.entries(e.details ?? {}).map(([k, v]) => ` ${k}=${v}`).join('')}${(e.or ?? []).map((o) => ` (or ${o.status} ${o.code})`).join('')}`;
    case 'transaction':
      return `${e.status}${e.replayed ? ' (replayed)' : ''} ${txViewText(e.tx)}`;
    case 'calculation': {
      const c = e.calc;
      return `200 max_redeem=${c.maxRedeem} redeemed=${c.redeemed} earned=${c.earned}${c.earnCapped ? ' (capped)' : ''} stamps=${c.stampsEarned} paid=${c.paid} balance_after=${c.balanceAfter} available_after=${c.availableAfter}`;
    }
    case 'refund':
      return `${e.status}${e.replayed ? ' (replayed)' : ''} refund ${e.amount}: earned_reversed=${e.earnedReversed} redeemed_returned=${e.redeemedReturned}; check ${txViewText(e.tx)}`;
    case 'hold':
      return `${e.status} hold ${e.amount} ${e.holdStatus} expires_at=${new Date(e.expiresAt).toISOString()}`;
    case 'adjustment':
      return `201 adjustment ${e.amount}: balance=${e.balance} available=${e.available}`;
    case 'visit':
      return `${e.status}${e.replayed ? ' (replayed)' : ''} visit stamps_earned=${e.stampsEarned} (stamps ${e.stampsCount})`;
    case 'advanced':
      return 'ok';
  }
}

// ---------------------------------------------------------------- comparing an answer with the model

function diff(out: string[], what: string, expected: unknown, actual: unknown) {
  if (expected !== actual) out.push(`${what}: model ${JSON.stringify(expected)}, app ${JSON.stringify(actual)}`);
}

function compareTx(out: string[], prefix: string, v: TxView, b: any) {
  if (!b || b.object !== 'transaction') {
    out.push(`${prefix}: not a transaction: ${JSON.stringify(b).slice(0, 200)}`);
    return;
  }
  diff(out, `${prefix}status`, v.status, b.status);
  diff(out, `${prefix}subtotal`, v.subtotal, b.subtotal);
  diff(out, `${prefix}redeemed`, v.redeemed, b.redeemed);
  diff(out, `${prefix}earned`, v.earned, b.earned);
  diff(out, `${prefix}earn_capped`, v.earnCapped, b.earn_capped);
  diff(out, `${prefix}stamps_earned`, v.stampsEarned, b.stamps_earned);
  diff(out, `${prefix}paid`, v.paid, b.paid);
  diff(out, `${prefix}refunded_amount`, v.refundedAmount, b.refunded_amount);
  diff(out, `${prefix}refundable`, v.refundable, b.refundable);
  compareLines(out, prefix, v.lines, b.line_items);
}

function compareLines(out: string[], prefix: string, lines: TxView['lines'], actual: any[] | undefined) {
  if (!Array.isArray(actual) || actual.length !== lines.length) {
    out.push(`${prefix}line_items: expected ${lines.length} lines, got ${JSON.stringify(actual)?.slice(0, 200)}`);
    return;
  }
  lines.forEach((l, i) => {
    const a = actual[i];
    diff(out, `${prefix}line_items[${i}].amount`, l.amount, a.amount);
    diff(out, `${prefix}line_items[${i}].redeemed`, l.redeemed, a.redeemed);
    diff(out, `${prefix}line_items[${i}].earned`, l.earned, a.earned);
    diff(out, `${prefix}line_items[${i}].cashback_percent`, l.bp / 100, a.cashback_percent);
  });
}

/** Where the app's answer differs from the model's: an empty list when they agree. */
export function compare(e: Expected, res: Response): string[] {
  const out: string[] = [];
  if (e.kind === 'advanced') return out;
  const b = res.body;
  if (e.kind === 'error') {
    if (e.or?.some((alt) => res.status === alt.status && b?.error?.code === alt.code)) return out;
    if (res.status !== e.status || b?.error?.code !== e.code) return [`answer: model ${expectedText(e)}, app ${resText(res)}`];
    for (const [k, v] of Object.entries(e.details ?? {})) diff(out, `error.${k}`, v, b.error[k]);
    return out;
  }
  if (res.status !== e.status) return [`answer: model ${expectedText(e)}, app ${resText(res)}`];
  const replayed = res.headers['idempotent-replayed'] === 'true';
  switch (e.kind) {
    case 'transaction':
      if (e.status === 201 || e.replayed) diff(out, 'Idempotent-Replayed', e.replayed, replayed);
      compareTx(out, '', e.tx, b);
      break;
    case 'calculation': {
      const c = e.calc;
      diff(out, 'subtotal', c.subtotal, b.subtotal);
      diff(out, 'payable_base', c.payableBase, b.payable_base);
      diff(out, 'max_redeem', c.maxRedeem, b.max_redeem);
      diff(out, 'redeemed', c.redeemed, b.redeemed);
      diff(out, 'earned', c.earned, b.earned);
      diff(out, 'earn_capped', c.earnCapped, b.earn_capped);
      diff(out, 'stamps_earned', c.stampsEarned, b.stamps_earned);
      diff(out, 'paid', c.paid, b.paid);
      diff(out, 'balance_after', c.balanceAfter, b.balance_after);
      diff(out, 'available_after', c.availableAfter, b.available_after);
      compareLines(out, '', c.lines, b.line_items);
      break;
    }
    case 'refund':
      diff(out, 'Idempotent-Replayed', e.replayed, replayed);
      diff(out, 'amount', e.amount, b.amount);
      diff(out, 'earned_reversed', e.earnedReversed, b.earned_reversed);
      diff(out, 'redeemed_returned', e.redeemedReturned, b.redeemed_returned);
      compareTx(out, 'transaction.', e.tx, b.transaction);
      break;
    case 'hold':
      diff(out, 'amount', e.amount, b.amount);
      diff(out, 'status', e.holdStatus, b.status);
      diff(out, 'expires_at', new Date(e.expiresAt).toISOString(), new Date(Date.parse(b.expires_at)).toISOString());
      break;
    case 'adjustment':
      diff(out, 'amount', e.amount, b.amount);
      diff(out, 'balance', e.balance, b.balance);
      diff(out, 'available', e.available, b.available);
      break;
    case 'visit':
      diff(out, 'Idempotent-Replayed', e.replayed, replayed);
      diff(out, 'stamps_earned', e.stampsEarned, b.stamps_earned);
      diff(out, 'member.stamps.count', e.stampsCount, b.member?.stamps?.count);
      break;
  }
  return out;
}

function compareMember(out: string[], local: string, v: MemberView, m: any) {
  const p = `member ${local}.`;
  diff(out, `${p}balance`, v.balance, m.balance);
  diff(out, `${p}held`, v.held, m.held);
  diff(out, `${p}available`, v.available, m.available);
  diff(out, `${p}total_spend`, v.totalSpend, m.total_spend);
  diff(out, `${p}visits`, v.visits, m.visits);
  diff(out, `${p}level`, v.level, m.level?.name ?? null);
  diff(out, `${p}stamps.count`, v.stamps?.count ?? null, m.stamps?.count ?? null);
  diff(out, `${p}stamps.rewards_available`, v.stamps?.rewardsAvailable ?? null, m.stamps?.rewards_available ?? null);
}

/** The members the request may change (the others are read after clock moves and at the end). */
export function touched(world: World, req: ModelRequest): string[] {
  const { model } = world;
  const real = (id: string | null | undefined) => (id && id in model.state.members ? [id] : []);
  switch (req.op) {
    case 'check':
    case 'calculate':
      return real(req.body.memberId ?? (req.body.holdId ? model.hold(req.body.holdId)?.memberId : undefined));
    case 'void':
    case 'refund':
      return real(model.txMember(req.externalId));
    case 'createHold':
    case 'adjust':
    case 'visit':
      return real(req.memberId);
    case 'release':
      return real(model.hold(req.holdId)?.memberId);
    case 'capture':
      return [...new Set([...real(model.hold(req.holdId)?.memberId), ...real(model.txMember(req.externalId))])];
    case 'advance':
      return ['m0', 'm1', 's'];
  }
}

/** Reads members from the app: `only` one by one, else all three in one list call. */
export async function readMembers(world: World, only?: string[]): Promise<Map<string, any>> {
  const out = new Map<string, any>();
  if (only && only.length < 3) {
    const read = await Promise.all(only.map((local) => world.apis[0]!.get(`/api/v1/members/${sid(world, local)}`)));
    only.forEach((local, i) => {
      if (read[i]!.status !== 200) throw new Error(`GET member ${local}: ${read[i]!.status} ${JSON.stringify(read[i]!.body)}`);
      out.set(local, read[i]!.body);
    });
    return out;
  }
  const list = await world.apis[0]!.get('/api/v1/members?limit=10');
  if (list.status !== 200) throw new Error(`GET members: ${list.status} ${JSON.stringify(list.body)}`);
  for (const local of ['m0', 'm1', 's']) {
    const m = list.body.data.find((x: any) => x.id === sid(world, local));
    if (!m) throw new Error(`GET members: ${local} missing`);
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
export function compareMembers(model: MoneyModel, members: Map<string, any>): string[] {
  const out: string[] = [];
  for (const [local, m] of members) compareMember(out, local, model.memberView(local), m);
  return out;
}

/**
 * Reads every member, compares them with the model and checks the invariants of the tally (from the answers of
 * `done`, the requests since the last read); remembers what it read.
 */
export async function checkMembers(world: World, done: { req: ModelRequest; res: Response }[], only?: string[]): Promise<string[]> {
  const members = await readMembers(world, only);
  const out = compareMembers(world.model, members);
  out.push(...world.tally.check(world, members, done));
  for (const [local, m] of members) world.seen.set(local, m);
  return out;
}

// ---------------------------------------------------------------- the independent tally

interface TallyTx {
  member: string | null;
  status: string;
  earned: number;
  redeemed: number;
  earnedBack: number;
  redeemedBack: number;
}

/**
 * Balances and holds worked out from the figures the test received in answers (earned, redeemed, adjustment
 * amounts, refund reversals, voids' before/after), not from the model nor from the app's own totals.
 */
export class Tally {
  balance: Record<string, number>;
  txs = new Map<string, TallyTx>();
  holds = new Map<string, { member: string; amount: number; expiresAt: number; status: string }>();

  constructor(opening: Record<string, number>) {
    this.balance = { ...opening };
  }

  private move(member: string | null, by: number) {
    if (member !== null && member in this.balance) this.balance[member]! += by;
  }

  private captureHold(world: World, holdServerId: string | null | undefined) {
    const local = holdServerId ? world.local.get(holdServerId) : undefined;
    const hold = local ? this.holds.get(local) : undefined;
    if (hold) hold.status = 'captured';
  }

  /** Takes in one answer. */
  observe(world: World, req: ModelRequest, res: Response) {
    const b = res.body;
    if (req.op === 'check' && res.status === 201) {
      const member = b.member_id ? (world.local.get(b.member_id) ?? null) : null;
      this.txs.set(b.external_id, { member, status: b.status, earned: b.earned, redeemed: b.redeemed, earnedBack: 0, redeemedBack: 0 });
      this.move(member, b.earned - b.redeemed);
      if (b.hold_id) this.captureHold(world, b.hold_id);
    }
    if (req.op === 'capture' && res.status === 200) {
      const before = this.txs.get(b.external_id);
      if (before) {
        this.move(before.member, -(b.redeemed - before.redeemed) - (before.earned - b.earned));
        before.earned = b.earned;
        before.redeemed = b.redeemed;
      }
      this.captureHold(world, world.ids.get(req.holdId));
    }
    if (req.op === 'void' && res.status === 200) {
      const before = this.txs.get(b.external_id);
      if (before && before.status === 'completed' && b.status === 'voided') {
        this.move(before.member, before.redeemed - before.redeemedBack - (before.earned - before.earnedBack));
        before.status = 'voided';
        before.earnedBack = before.earned;
        before.redeemedBack = before.redeemed;
      }
    }
    if (req.op === 'refund' && res.status === 201) {
      const tx = this.txs.get(req.externalId);
      if (tx) {
        this.move(tx.member, b.redeemed_returned - b.earned_reversed);
        tx.earnedBack += b.earned_reversed;
        tx.redeemedBack += b.redeemed_returned;
      }
    }
    if (req.op === 'adjust' && res.status === 201) this.move(req.memberId, b.amount);
    if (req.op === 'createHold' && res.status === 201) {
      this.holds.set(req.holdId, { member: req.memberId, amount: b.amount, expiresAt: Date.parse(b.expires_at), status: 'active' });
    }
    if (req.op === 'release' && res.status === 200) {
      const hold = this.holds.get(req.holdId);
      if (hold) hold.status = 'released';
    }
  }

  /** The invariants, against the members just read; `done` are the requests since the last read. */
  check(world: World, members: Map<string, any>, done: { req: ModelRequest; res: Response }[]): string[] {
    const out: string[] = [];
    const now = world.t.clock.now().getTime();
    for (const local of Object.keys(this.balance)) {
      const m = members.get(local);
      if (!m) continue;
      if (m.balance !== this.balance[local]) {
        out.push(`invariant: member ${local}.balance ${m.balance} ≠ ${this.balance[local]}, the sum of the earned/redeemed/adjustment/reversal figures the answers gave`);
      }
      let held = 0;
      for (const h of this.holds.values()) if (h.member === local && h.status === 'active' && h.expiresAt > now) held += h.amount;
      if (m.held !== held) out.push(`invariant: member ${local}.held ${m.held} ≠ ${held}, the active unexpired holds the test created`);
      const before = world.seen.get(local)?.available ?? m.available;
      // Only a void or a refund may leave (or deepen) a debt; anything else leaves available ≥ 0 or raises it.
      const reversed = done.some(
        ({ req, res }) =>
          ((req.op === 'void' && res.status === 200) || (req.op === 'refund' && res.status === 201)) && this.txs.get(req.externalId)?.member === local,
      );
      if (m.available < 0 && !reversed && m.available < before) {
        out.push(`invariant: member ${local}.available went from ${before} to ${m.available} without a void or refund`);
      }
    }
    return out;
  }
}
