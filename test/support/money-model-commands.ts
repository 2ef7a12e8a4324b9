// The commands of the model-based test (test/modules/checks/model.test.ts): generated, then resolved into concrete
// requests against the model's state, each at a venue of the member's chain (A, B, C of c1; D of c2) with one of
// that venue's keys or c1's chain key; a small share names a member of the other chain, which must not be found.
// Friends enrolled with a referral code are named as the newest or the first of them.
import fc from 'fast-check';
import { newCardNumber } from './factories.js';
import { txKey, type MemberBy as By, type ModelCheckBody, type ModelLine, type ModelRequest, type Place } from './money-model.js';
import { keyAt, LIVE_KEY, MAX_FRIENDS, MEMBERS, VENUES, type World } from './money-model-world.js';

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

/**
 * Every command but a clock move happens at a venue: `v` picks one of the member's chain (or, with `here` false, of
 * the chain of the check, hold or visit the command names: another venue than its own finds none, or its own
 * check with the same external_id); `key` 0 and 1 are that venue's keys, 2 its chain's key where it has one.
 */
export type Cmd =
  /** `nearMin`: for a referred member, one line of their referral's minimum plus this instead of `lines`, and no hold. */
  | {
      c: 'check';
      key: number;
      v: number;
      who: number;
      by: By;
      lines: LineGen[];
      nearMin: number | null;
      redeem: Amount;
      closedAgo: number | null;
      hold: number | null;
      omitMember: boolean;
    }
  | { c: 'calc'; key: number; v: number; who: number; by: By; lines: LineGen[]; redeem: Amount; closedAgo: number | null; hold: number | null; withId: boolean }
  | { c: 'replay'; key: number; v: number; pick: number; here: boolean }
  | { c: 'reuse'; key: number; v: number; pick: number; delta: number; here: boolean }
  | { c: 'void'; key: number; v: number; pick: number; here: boolean }
  | { c: 'refund'; key: number; v: number; pick: number; amount: RefundAmount; here: boolean }
  | { c: 'refundAgain'; key: number; v: number; pick: number; same: boolean; here: boolean }
  | { c: 'hold'; key: number; v: number; who: number; by: 'id' | 'card'; amount: Amount; expiresIn: number | null }
  | { c: 'release'; key: number; v: number; pick: number; here: boolean }
  | { c: 'capture'; key: number; v: number; holdPick: number; txPick: number; redeem: CaptureAmount; here: boolean }
  /**
   * Two requests at a check's venue: a hold of pct % of what is available, then its capture into that check; with
   * `referral`, of a referee into the check their referral credited (when one can take it), a hold that takes what it
   * paid `pct` below the referral's minimum (when they have as much): it must stay their qualifying check.
   */
  | { c: 'holdCapture'; key: number; who: number; pct: number; txPick: number; redeem: CaptureAmount; referral: boolean }
  | { c: 'adjust'; key: number; v: number; who: number; amount: AdjustAmount }
  | { c: 'visit'; key: number; v: number; who: number; by: 'id' | 'card'; ext: 'none' | 'new' | 'replay'; pick: number; here: boolean }
  /** A reward handed over: with a void of one of the checks that earned its stamps, the stamps are then owed. */
  | { c: 'reward'; key: number; v: number; who: number }
  | { c: 'lookup'; key: number; v: number; who: number; by: By | 'scan' }
  /**
   * A guest enrolled at a venue of the chain of the member `referrer` with their referral code (as given, in lower case,
   * with spaces around it), in c1's stamps program or the default one; or refused: a code nobody has, a code given at a
   * venue of the other chain, or given with c1's live key (every member here is a test-mode one).
   */
  | { c: 'enroll'; key: number; v: number; referrer: number; code: 'exact' | 'lower' | 'spaced' | 'unknown' | 'otherChain' | 'live'; stamps: boolean }
  /** A member of the other chain named at a venue (by id, card or barcode): not found, nothing changes. */
  | { c: 'cross'; key: number; v: number; target: string; by: By; what: 'check' | 'calc' | 'hold' | 'visit' | 'adjust' | 'lookup' | 'scan'; lines: LineGen[] }
  | { c: 'advance'; by: Advance };

/** `who` of a command: a member of MEMBERS, else the newest (5) or the first (6) friend; m0 and m1 while there is none. */
const WHO = [...MEMBERS, 'the newest friend', 'the first friend'];

export function memberOf(world: World, who: number): string {
  if (who < MEMBERS.length) return MEMBERS[who]!;
  const friends = world.model.friends();
  if (friends.length === 0) return MEMBERS[who - MEMBERS.length]!;
  return who === MEMBERS.length ? friends.at(-1)! : friends[0]!;
}

const amountText = (a: { k: string; v?: number }) => (a.k === 'abs' ? String(a.v) : a.k);
const linesText = (lines: LineGen[]) =>
  lines.map((l) => `${l.qty === 1 ? '' : `${l.qty}×`}${l.price}${l.cat ? ` ${l.cat}` : ''}`).join(', ');
const keyText = (k: number) => (k === 2 ? 'chain key' : `K${k}`);
const byText = (b: string) => (b === 'id' ? '' : ` by ${b}`);
const there = (c: { v: number; here: boolean }) => (c.here ? '' : ` at venue#${c.v}`);

export function cmdText(c: Cmd): string {
  switch (c.c) {
    case 'check':
      return `check ${keyText(c.key)} venue#${c.v} ${WHO[c.who]}${byText(c.by)}${c.omitMember ? '(via hold)' : ''} [${linesText(c.lines)}]${c.nearMin === null ? '' : ` (a referee: minimum${c.nearMin < 0 ? '' : '+'}${c.nearMin})`} redeem=${amountText(c.redeem)}${c.hold === null ? '' : ` hold#${c.hold}`}${c.closedAgo === null ? '' : ` closed ${c.closedAgo}s ago`}`;
    case 'calc':
      return `calculate ${keyText(c.key)} venue#${c.v} ${WHO[c.who]}${byText(c.by)} [${linesText(c.lines)}] redeem=${amountText(c.redeem)}${c.hold === null ? '' : ` hold#${c.hold}`}${c.closedAgo === null ? '' : ` closed ${c.closedAgo}s ago`}${c.withId ? '' : ' (no external_id)'}`;
    case 'replay':
      return `replay check#${c.pick} ${keyText(c.key)}${there(c)}`;
    case 'reuse':
      return `reuse external_id of check#${c.pick} with price +${c.delta} ${keyText(c.key)}${there(c)}`;
    case 'void':
      return `void check#${c.pick} ${keyText(c.key)}${there(c)}`;
    case 'refund':
      return `refund check#${c.pick} amount=${amountText(c.amount)} ${keyText(c.key)}${there(c)}`;
    case 'refundAgain':
      return `resend refund#${c.pick} ${c.same ? 'same amount' : 'other amount'} ${keyText(c.key)}${there(c)}`;
    case 'hold':
      return `hold ${keyText(c.key)} venue#${c.v} ${WHO[c.who]}${byText(c.by)} amount=${amountText(c.amount)}${c.expiresIn === null ? '' : ` expires_in=${c.expiresIn}`}`;
    case 'release':
      return `release hold#${c.pick} ${keyText(c.key)}${there(c)}`;
    case 'capture':
      return `capture hold#${c.holdPick} into check#${c.txPick} redeem=${amountText(c.redeem)} ${keyText(c.key)}${there(c)}`;
    case 'holdCapture':
      return (
        `${c.referral ? `hold what takes the check a referee's referral credited ${c.pct} below its minimum and capture it into it, else ` : ''}` +
        `hold ${c.pct}% of available of ${WHO[c.who]} (else of another cashback member) at the venue of their check#${c.txPick} and capture it into it redeem=${amountText(c.redeem)} ${keyText(c.key)}`
      );
    case 'adjust':
      return `adjust ${keyText(c.key)} venue#${c.v} ${WHO[c.who]} ${amountText(c.amount)}`;
    case 'visit':
      return `visit ${keyText(c.key)} venue#${c.v} ${WHO[c.who]}${byText(c.by)} external_id=${c.ext}${c.ext === 'replay' ? `#${c.pick}${c.here ? '' : ' elsewhere'}` : ''}`;
    case 'reward':
      return `reward of ${WHO[c.who]} ${keyText(c.key)} venue#${c.v}`;
    case 'lookup':
      return `look up ${WHO[c.who]}${byText(c.by)} ${keyText(c.key)} venue#${c.v}`;
    case 'cross':
      return `${c.what} naming ${c.target}${byText(c.by)} from another chain's venue#${c.v} ${keyText(c.key)}`;
    case 'enroll':
      return `enrol a guest${c.stamps ? ' (stamps)' : ''} with the referral code of ${WHO[c.referrer]} (${c.code}) ${keyText(c.key)} venue#${c.v}`;
    case 'advance':
      return `advance ${c.by.k === 'sec' ? `${c.by.v}s` : c.by.k === 'day' ? `${c.by.v}s (day)` : 'to the next hold expiry'}`;
  }
}

/** Commands print as one readable line each in fast-check's counter-examples. */
const readable = <T extends Cmd>(c: T): T => Object.assign(c, { [fc.toStringMethod]: () => cmdText(c) });

const key = fc.constantFrom(0, 0, 1, 2);
const v = fc.nat({ max: 11 });
const here = fc.constantFrom(true, true, true, true, false);
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
// m0, m1 (cashback, c1), s (stamps, c1), ghost (nobody), x (cashback, c2), the newest friend, the first friend.
const whoArb = fc.constantFrom(0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 4, 5, 5, 5, 5, 5, 6, 6);
const cashbackWho = fc.constantFrom(0, 0, 0, 1, 1, 1, 3, 4, 4, 5, 5, 6);
const byArb = fc.constantFrom<By>('id', 'id', 'id', 'id', 'card', 'barcode');
const byCardArb = fc.constantFrom<'id' | 'card'>('id', 'id', 'id', 'card');

const checkArb = fc.record({
  c: fc.constant('check' as const),
  key,
  v,
  who: whoArb,
  by: byArb,
  lines: linesArb,
  nearMin: fc.option(fc.integer({ min: -30, max: 120 }), { freq: 3 }),
  redeem: redeemArb,
  closedAgo: closedAgoArb,
  hold: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: pick, weight: 1 }),
  omitMember: fc.boolean(),
});

/**
 * Mostly m0's code (one referrer with several friends reaches max_per_member), now and then another's (`mostlyM0`
 * false: more often); `refused` also gives codes that must be refused.
 */
const enrollArb = (refused: boolean, mostlyM0: boolean) =>
  fc.record({
    c: fc.constant('enroll' as const),
    key,
    v,
    referrer: mostlyM0 ? fc.constantFrom(0, 0, 0, 0, 0, 1) : fc.constantFrom(0, 0, 0, 0, 1, 2, 4, 5, 6),
    code: refused
      ? fc.constantFrom('exact' as const, 'exact' as const, 'lower' as const, 'spaced' as const, 'unknown' as const, 'otherChain' as const, 'live' as const)
      : fc.constantFrom('exact' as const, 'exact' as const, 'lower' as const, 'spaced' as const),
    stamps: fc.constantFrom(false, false, false, false, false, true),
  });

const captureRedeem = (absMax: number, noneWeight: number, absWeight: number) =>
  fc.oneof(
    { arbitrary: fc.constant<CaptureAmount>({ k: 'none' }), weight: noneWeight },
    { arbitrary: fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 1, max: absMax }) }), weight: absWeight },
    { arbitrary: fc.constantFrom<CaptureAmount>({ k: 'hold-1' }, { k: 'hold+1' }), weight: 1 },
  );

const holdCaptureArb = (referral: boolean) =>
  fc.record({
    c: fc.constant('holdCapture' as const),
    key,
    who: fc.constantFrom(0, 1, 4, 5, 5, 6),
    pct: fc.oneof(fc.constant(100), fc.integer({ min: 10, max: 100 })),
    txPick: pick,
    redeem: captureRedeem(200, 3, 1),
    referral: fc.constant(referral),
  });

const commandArbs = {
  check: checkArb,
  calc: fc.record({
    c: fc.constant('calc' as const),
    key,
    v,
    who: whoArb,
    by: byArb,
    lines: linesArb,
    redeem: redeemArb,
    closedAgo: closedAgoArb,
    hold: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: pick, weight: 1 }),
    withId: fc.boolean(),
  }),
  replay: fc.record({ c: fc.constant('replay' as const), key, v, pick, here }),
  reuse: fc.record({ c: fc.constant('reuse' as const), key, v, pick, delta: fc.integer({ min: 1, max: 50 }), here }),
  void: fc.record({ c: fc.constant('void' as const), key, v, pick, here }),
  refund: fc.record({
    c: fc.constant('refund' as const),
    key,
    v,
    pick,
    amount: fc.oneof(
      fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 1, max: 600 }) }),
      fc.constantFrom<RefundAmount>({ k: 'rest' }, { k: 'rest+1' }, { k: 'half' }),
    ),
    here,
  }),
  refundAgain: fc.record({ c: fc.constant('refundAgain' as const), key, v, pick, same: fc.constantFrom(true, true, false), here }),
  hold: fc.record({
    c: fc.constant('hold' as const),
    key,
    v,
    who: cashbackWho,
    by: byCardArb,
    amount: fc.oneof(
      { arbitrary: fc.record({ k: fc.constant('part' as const), pct: fc.integer({ min: 5, max: 100 }) }), weight: 4 },
      { arbitrary: fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: 1, max: 300 }) }), weight: 1 },
      { arbitrary: fc.constantFrom<Amount>({ k: 'avail' }, { k: 'avail+1' }), weight: 1 },
    ),
    expiresIn: fc.option(fc.integer({ min: 30, max: 1800 }), { freq: 2 }),
  }),
  release: fc.record({ c: fc.constant('release' as const), key, v, pick, here }),
  capture: fc.record({ c: fc.constant('capture' as const), key, v, holdPick: pick, txPick: pick, redeem: captureRedeem(300, 3, 2), here }),
  holdCapture: holdCaptureArb(false),
  refereeCapture: holdCaptureArb(true),
  adjust: fc.record({
    c: fc.constant('adjust' as const),
    key,
    v,
    who: cashbackWho,
    amount: fc.oneof(
      fc.record({ k: fc.constant('abs' as const), v: fc.integer({ min: -300, max: 500 }).filter((n) => n !== 0) }),
      fc.constantFrom<AdjustAmount>({ k: '-avail' }, { k: '-avail-1' }),
    ),
  }),
  visit: fc.record({
    c: fc.constant('visit' as const),
    key,
    v,
    who: fc.constantFrom(2, 2, 2, 2, 0, 3, 5),
    by: byCardArb,
    ext: fc.constantFrom('none' as const, 'new' as const, 'new' as const, 'replay' as const),
    pick,
    here,
  }),
  reward: fc.record({ c: fc.constant('reward' as const), key, v, who: fc.constantFrom(2, 2, 2, 0) }),
  lookup: fc.record({ c: fc.constant('lookup' as const), key, v, who: fc.constantFrom(0, 1, 2, 4, 5), by: fc.constantFrom<By | 'scan'>('card', 'barcode', 'scan') }),
  enroll: enrollArb(true, false),
  cross: fc.record({
    c: fc.constant('cross' as const),
    key,
    v,
    target: fc.constantFrom('x', 'x', 'x', 'm0', 'm1', 's'),
    by: fc.constantFrom<By>('id', 'card', 'barcode'),
    what: fc.constantFrom('check' as const, 'check' as const, 'calc' as const, 'hold' as const, 'visit' as const, 'adjust' as const, 'lookup' as const, 'scan' as const),
    lines: linesArb,
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

/** The enrolments a run opens with, so that friends are there to check from the start (more may come later). */
export const openingArb = (min: number, max: number, mostlyM0 = false): fc.Arbitrary<Cmd[]> =>
  fc.array(enrollArb(false, mostlyM0).map(readable), { minLength: min, maxLength: max });

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
  refereeCapture: 6,
  adjust: 5,
  visit: 4,
  reward: 2,
  lookup: 2,
  cross: 4,
  enroll: 3,
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

/** A venue of the member's chain (any venue for one who does not exist). */
function memberVenue(world: World, member: string, v: number): string {
  const chain = world.model.memberChain(member);
  return at(chain ? world.model.venuesOf(chain) : [...VENUES], v)!;
}

/** The venue of the thing named, or with `here` false a venue of its chain (its own, or a sibling). */
function objectVenue(world: World, own: string, v: number, isHere: boolean): string {
  return isHere ? own : at(world.model.venuesOf(world.model.chainOf(own)), v)!;
}

const placeAt = (world: World, venue: string, keySel: number): Place => ({ key: keyAt(world, venue, keySel), at: venue });

/** The model's key of a check: its venue and external_id. */
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
};

function resolveAmount(world: World, a: Amount, place: Place, body: ModelCheckBody): number | undefined {
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
      const max = model.maxRedeemFor(place, body) ?? 0;
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
 * A hold for a check: picks ≡ 0 (mod 4) prefer the member's active holds of this venue, 1 their active holds of any
 * venue (another venue's is not found here), 2 any hold, 3 one that does not exist.
 */
function pickHold(world: World, p: number, member: string | undefined, venue: string): string {
  const { model } = world;
  if (p % 4 === 3) return 'hX';
  const all = model.holdIds();
  const active = all.filter((h) => (member === undefined || model.hold(h)!.memberId === member) && model.holdStatus(h) === 'active');
  const here = active.filter((h) => model.hold(h)!.venue === venue);
  const list = p % 4 === 0 && here.length ? here : p % 4 < 2 && active.length ? active : all;
  return at(list, p >> 2) ?? 'hX';
}

function lineBodies(lines: LineGen[]): ModelLine[] {
  return lines.map((l, i) => ({ name: `Item ${i + 1}`, quantity: l.qty, unitPrice: l.price, ...(l.cat ? { category: l.cat } : {}) }));
}

/** The checks a hold of `member` can go into at `venue` (any venue when undefined): completed, nothing redeemed or refunded. */
function fittingChecks(world: World, member: string | undefined, venue?: string): string[] {
  const { model } = world;
  return model.checkIds().filter((id) => {
    const tx = model.tx(id)!;
    return model.txMember(id) === member && (venue === undefined || tx.venue === venue) && tx.status === 'completed' && tx.redeemed === 0 && tx.refundedAmount === 0;
  });
}

/** The concrete requests of a command, against the model's state now; none when there is nothing to act on. */
export function resolve(world: World, cmd: Cmd): ModelRequest[] {
  if (cmd.c === 'holdCapture') return resolveHoldCapture(world, cmd);
  const req = resolveOne(world, cmd);
  return req ? [req] : [];
}

function resolveHoldCapture(world: World, cmd: Extract<Cmd, { c: 'holdCapture' }>): ModelRequest[] {
  const { model } = world;
  // A referee with a check their referral credited that the hold can go into; else (or without `referral`) the member
  // named, else another cashback member, if they have a check the hold can go into.
  const referee = cmd.referral ? model.friends().find((f) => fittingChecks(world, f).some((k) => model.referralCredited(k))) : undefined;
  const member = referee ?? [memberOf(world, cmd.who), 'm0', 'm1', 'x'].find((m) => fittingChecks(world, m).length > 0);
  if (!member) return [];
  const fitting = fittingChecks(world, member);
  const txId = referee ? fitting.find((k) => model.referralCredited(k))! : at(fitting, cmd.txPick)!;
  const [venue, externalId] = splitKey(txId);
  const place = placeAt(world, venue, cmd.key);
  // A referee's hold takes their credited check `pct` below its referral's minimum, where it has one and they have as much.
  const minimum = referee === undefined ? undefined : model.referralMinimum(referee);
  const available = model.available(member);
  const amount = Math.max(1, minimum === undefined ? Math.floor((available * cmd.pct) / 100) : Math.min(available, model.tx(txId)!.paid - minimum + cmd.pct));
  const holdId = `h${++world.n}`;
  const r = cmd.redeem;
  const redeem = r.k === 'none' ? undefined : r.k === 'abs' ? r.v : r.k === 'hold-1' ? Math.max(1, amount - 1) : amount + 1;
  return [
    { op: 'createHold', ...place, holdId, memberId: member, amount },
    { op: 'capture', ...place, holdId, externalId, ...(redeem === undefined ? {} : { redeemAmount: redeem }) },
  ];
}

function resolveOne(world: World, cmd: Exclude<Cmd, { c: 'holdCapture' }>): ModelRequest | null {
  const { model } = world;
  const now = model.state.now;
  switch (cmd.c) {
    case 'check':
    case 'calc': {
      const member = memberOf(world, cmd.who);
      const place = placeAt(world, memberVenue(world, member, cmd.v), cmd.key);
      const nearMin = cmd.c === 'check' ? cmd.nearMin : null;
      const minimum = nearMin === null ? undefined : model.referralMinimum(member);
      // Steered to the minimum's edge, and without a hold (most picked holds are refused): a referral's first check.
      const steered = nearMin !== null && minimum !== undefined;
      const lines = steered ? [{ name: 'Item 1', quantity: 1, unitPrice: Math.max(1, minimum + nearMin) }] : lineBodies(cmd.lines);
      const body: ModelCheckBody = { lines };
      if (cmd.c === 'check') body.externalId = `C${++world.n}`;
      else if (cmd.withId) body.externalId = `C${world.n + 1}`;
      if (cmd.hold !== null && !steered && (model.holdIds().length || cmd.hold % 4 === 3)) body.holdId = pickHold(world, cmd.hold, member, place.at);
      if (!(cmd.c === 'check' && cmd.omitMember && body.holdId)) {
        body.memberId = member;
        if (cmd.by !== 'id') body.memberBy = cmd.by;
      }
      if (cmd.closedAgo !== null) body.closedAt = now - cmd.closedAgo * 1000;
      const redeem = resolveAmount(world, cmd.redeem, place, body);
      if (redeem !== undefined) body.redeemAmount = redeem;
      return { op: cmd.c === 'check' ? 'check' : 'calculate', ...place, body };
    }
    case 'replay':
    case 'reuse': {
      // At the check's venue: a replay (or external_id_reused); at a sibling: that venue's own check of this external_id.
      const id = at(model.checkIds(), cmd.pick);
      if (!id) return null;
      const original = world.bodies.get(id)!;
      const place = placeAt(world, objectVenue(world, model.tx(id)!.venue, cmd.v, cmd.here), cmd.key);
      if (cmd.c === 'replay') return { op: 'check', ...place, body: original };
      const [first, ...rest] = original.lines;
      return { op: 'check', ...place, body: { ...original, lines: [{ ...first!, unitPrice: first!.unitPrice + cmd.delta }, ...rest] } };
    }
    case 'void':
    case 'refund': {
      const id = at(model.checkIds(), cmd.pick);
      const [own, externalId] = id ? splitKey(id) : [at([...VENUES], cmd.v)!, 'NOPE'];
      const place = placeAt(world, objectVenue(world, own, cmd.v, cmd.here), cmd.key);
      if (cmd.c === 'void') return { op: 'void', ...place, externalId };
      const refundable = (id && model.tx(id)?.refundable) || 0;
      const a = cmd.amount;
      const amount = a.k === 'abs' ? a.v : a.k === 'rest' ? refundable : a.k === 'rest+1' ? refundable + 1 : Math.floor(refundable / 2);
      return { op: 'refund', ...place, externalId, refundId: `R${++world.n}`, amount: Math.max(1, amount) };
    }
    case 'refundAgain': {
      const r = at(model.refunds(), cmd.pick);
      if (!r) return null;
      const [own, externalId] = splitKey(r[0]);
      return { op: 'refund', ...placeAt(world, objectVenue(world, own, cmd.v, cmd.here), cmd.key), externalId, refundId: r[1], amount: cmd.same ? r[2] : r[2] + 1 };
    }
    case 'hold': {
      const member = memberOf(world, cmd.who);
      const available = model.state.members[member] ? model.available(member) : 0;
      const a = cmd.amount;
      const amount = a.k === 'abs' ? a.v : a.k === 'part' ? Math.floor((available * a.pct) / 100) : a.k === 'avail' ? available : available + 1;
      // Half the time at the venue of a check of theirs a hold can go into, as a till holds before paying there.
      const fitting = fittingChecks(world, member);
      const venue = cmd.v % 2 === 0 && fitting.length ? model.tx(at(fitting, cmd.v >> 1)!)!.venue : memberVenue(world, member, cmd.v);
      return {
        op: 'createHold',
        ...placeAt(world, venue, cmd.key),
        holdId: `h${++world.n}`,
        memberId: member,
        ...(cmd.by === 'card' ? { by: 'card' as const } : {}),
        amount: Math.max(1, amount),
        ...(cmd.expiresIn === null ? {} : { expiresIn: cmd.expiresIn }),
      };
    }
    case 'release': {
      const holdId = at(model.holdIds(), cmd.pick) ?? 'hX';
      const own = model.hold(holdId)?.venue ?? at([...VENUES], cmd.v)!;
      return { op: 'release', ...placeAt(world, objectVenue(world, own, cmd.v, cmd.here), cmd.key), holdId };
    }
    case 'capture': {
      // Picks ≡ 0, 1 (mod 4) look for an active hold and a check of its venue it can go into (the hold's member's,
      // completed, nothing redeemed or refunded); 2 any hold and any check; 3 a hold that does not exist.
      const usable = model.holdIds().filter((h) => model.holdStatus(h) === 'active' && fittingChecks(world, model.hold(h)!.memberId, model.hold(h)!.venue).length > 0);
      const aim = cmd.holdPick % 4 < 2 && usable.length > 0;
      const holdId = aim ? at(usable, cmd.holdPick >> 2)! : pickHold(world, cmd.holdPick, undefined, '');
      const hold = model.hold(holdId);
      const txId = at(aim ? fittingChecks(world, hold!.memberId, hold!.venue) : model.checkIds(), cmd.txPick);
      const [txVenue, externalId] = txId ? splitKey(txId) : [at([...VENUES], cmd.v)!, 'NOPE'];
      const own = hold?.venue ?? txVenue;
      const amount = hold?.amount ?? 100;
      const r = cmd.redeem;
      const redeem = r.k === 'none' ? undefined : r.k === 'abs' ? r.v : r.k === 'hold-1' ? Math.max(1, amount - 1) : amount + 1;
      return { op: 'capture', ...placeAt(world, objectVenue(world, own, cmd.v, cmd.here), cmd.key), holdId, externalId, ...(redeem === undefined ? {} : { redeemAmount: redeem }) };
    }
    case 'adjust': {
      const member = memberOf(world, cmd.who);
      const available = model.state.members[member] ? model.available(member) : 0;
      const amount = cmd.amount.k === 'abs' ? cmd.amount.v : cmd.amount.k === '-avail' ? -available : -available - 1;
      return { op: 'adjust', ...placeAt(world, memberVenue(world, member, cmd.v), cmd.key), memberId: member, amount: amount === 0 ? -1 : amount };
    }
    case 'visit': {
      const member = memberOf(world, cmd.who);
      const by = cmd.by === 'card' ? { by: 'card' as const } : {};
      const previous = cmd.ext === 'replay' ? at(model.visitIds(), cmd.pick) : undefined;
      if (previous) {
        // Its external_id again: at its venue a replay (or external_id_reused for another member); at a sibling, a new visit there.
        const [own, externalId] = previous;
        return { op: 'visit', ...placeAt(world, objectVenue(world, own, cmd.v, cmd.here), cmd.key), memberId: member, ...by, externalId };
      }
      const place = placeAt(world, memberVenue(world, member, cmd.v), cmd.key);
      return { op: 'visit', ...place, memberId: member, ...by, ...(cmd.ext === 'none' ? {} : { externalId: `V${++world.n}` }) };
    }
    case 'reward': {
      const member = memberOf(world, cmd.who);
      return { op: 'reward', ...placeAt(world, memberVenue(world, member, cmd.v), cmd.key), memberId: member };
    }
    case 'lookup': {
      const member = memberOf(world, cmd.who);
      return { op: 'lookup', ...placeAt(world, memberVenue(world, member, cmd.v), cmd.key), memberId: member, by: cmd.by };
    }
    case 'cross':
      return resolveCross(world, cmd);
    case 'enroll': {
      const referrer = memberOf(world, cmd.referrer);
      const refused = cmd.code === 'unknown' || cmd.code === 'otherChain' || cmd.code === 'live';
      if (!refused && model.friends().length >= MAX_FRIENDS) return null;
      const chain = model.memberChain(referrer)!;
      const venue =
        cmd.code === 'otherChain'
          ? at(VENUES.filter((x) => model.chainOf(x) !== chain), cmd.v)!
          : cmd.code === 'live'
            ? at(model.venuesOf('c1'), cmd.v)!
            : memberVenue(world, referrer, cmd.v);
      const memberId = `f${++world.n}`;
      world.cards.set(memberId, newCardNumber());
      return {
        op: 'enroll',
        ...(cmd.code === 'live' ? { key: LIVE_KEY, at: venue } : placeAt(world, venue, cmd.key)),
        memberId,
        // Only c1 has a stamps program.
        program: cmd.stamps && model.chainOf(venue) === 'c1' ? 'stamps' : 'cashback',
        referredBy: cmd.code === 'unknown' ? null : referrer,
        codeAs: cmd.code === 'lower' || cmd.code === 'spaced' ? cmd.code : 'exact',
      };
    }
    case 'advance': {
      if (cmd.by.k === 'sec' || cmd.by.k === 'day') return { op: 'advance', ms: cmd.by.v * 1000 };
      const next = model
        .holdIds()
        .filter((h) => model.holdStatus(h) === 'active')
        .map((h) => model.hold(h)!.expiresAt - now)
        .sort((a, b) => a - b)[0];
      return { op: 'advance', ms: next ?? 60_000 };
    }
  }
}

/** A member of the other chain named at a venue: nothing but what the command needs, so the refusal is the member's. */
function resolveCross(world: World, cmd: Extract<Cmd, { c: 'cross' }>): ModelRequest {
  const { model } = world;
  const chain = model.memberChain(cmd.target)!;
  const venue = at(VENUES.filter((x) => model.chainOf(x) !== chain), cmd.v)!;
  const place = placeAt(world, venue, cmd.key);
  const member = cmd.target;
  const byCard = cmd.by === 'id' ? {} : { by: 'card' as const };
  switch (cmd.what) {
    case 'check':
    case 'calc': {
      const body: ModelCheckBody = { ...(cmd.what === 'check' ? { externalId: `C${++world.n}` } : {}), memberId: member, lines: lineBodies(cmd.lines) };
      if (cmd.by !== 'id') body.memberBy = cmd.by;
      return { op: cmd.what === 'check' ? 'check' : 'calculate', ...place, body };
    }
    case 'hold':
      return { op: 'createHold', ...place, holdId: `h${++world.n}`, memberId: member, ...byCard, amount: 1 + (cmd.v % 3) * 40 };
    case 'visit':
      return { op: 'visit', ...place, memberId: member, ...byCard, ...(cmd.v % 2 ? { externalId: `V${++world.n}` } : {}) };
    case 'adjust':
      return { op: 'adjust', ...place, memberId: member, amount: cmd.v % 2 ? 100 : -1 };
    case 'lookup':
      return { op: 'lookup', ...place, memberId: member, by: cmd.by };
    case 'scan':
      return { op: 'lookup', ...place, memberId: member, by: 'scan' };
  }
}

// ---------------------------------------------------------------- what a request touches

/** The member a request names when it is of another chain than the venue's (or the key's): the app must not find them. */
export function crossChain(world: World, req: ModelRequest): string | null {
  if (req.op === 'advance') return null;
  const { model } = world;
  const named =
    req.op === 'check' || req.op === 'calculate' ? req.body.memberId : req.op === 'createHold' || req.op === 'adjust' || req.op === 'visit' || req.op === 'reward' || req.op === 'lookup' ? req.memberId : undefined;
  const chain = named === undefined ? undefined : model.memberChain(named);
  const here = req.op === 'lookup' && req.by !== 'scan' ? model.config.keys[req.key]!.chain : model.chainOf(req.at);
  return chain !== undefined && chain !== here ? named! : null;
}

/** The members the request may change (the others are read after clock moves and at the end). */
export function touched(world: World, req: ModelRequest): string[] {
  const { model } = world;
  const real = (id: string | null | undefined) => (id && id in model.state.members ? [id] : []);
  // A referee's check, or its void, may credit or take back their referrer too.
  const withReferrer = (id: string | null | undefined) => [...real(id), ...real(id && model.referrerOf(id))];
  switch (req.op) {
    case 'check':
      return withReferrer(req.body.memberId ?? (req.body.holdId ? model.hold(req.body.holdId)?.memberId : undefined));
    case 'calculate':
      return real(req.body.memberId ?? (req.body.holdId ? model.hold(req.body.holdId)?.memberId : undefined));
    case 'void':
      return withReferrer(model.txMember(txKey(req.at, req.externalId)));
    case 'refund':
      return real(model.txMember(txKey(req.at, req.externalId)));
    case 'createHold':
    case 'adjust':
    case 'visit':
    case 'reward':
    case 'lookup':
    case 'enroll':
      return real(req.memberId);
    case 'release':
      return real(model.hold(req.holdId)?.memberId);
    case 'capture':
      return [...new Set([...real(model.hold(req.holdId)?.memberId), ...real(model.txMember(txKey(req.at, req.externalId)))])];
    case 'advance':
      return Object.keys(model.state.members);
  }
}
