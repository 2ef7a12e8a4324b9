// Cashback expiry (D20) against an independent model: random earnings, redemptions, voids, refunds, manual
// adjustments (given: no lot; taken), holds (create, capture by a check, release, lapse), clock moves and worker passes (alone, twice, two at once) go
// through the real app, the checks at either of two venues of a chain in two time zones (D21: a lot is a venue's day
// at that venue, and its expiry is that venue's); after every step the member's balance, held, available and
// expiring dates must be what the model below says, and at the end the `expiry` entries of each venue must add up to
// what it expired there — once, never twice.
//
// The model is written from the rules in docs/members.md, not from the code: it simulates time event by event (each
// moment a lot falls due or a hold lapses, what may expire does), where the service works lazily (reads subtract
// what is due, writes and the worker write it). Lot dates come from a search over Intl's local dates, not from
// the service's offset arithmetic.
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runExpiry } from '../../../src/modules/members/expiry-service.js';
import * as members from '../../../src/modules/members/service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client } from '../../support/http.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000_000 } });
/** The chain's two venues: the member's own (holds and adjustments happen there) and one nine or ten hours ahead. */
const ZONES = ['Europe/Berlin', 'Asia/Tokyo'] as const;
const AFTER_DAYS = 5;
const HOUR = 3600_000;

const localDate = (ms: number, zone: string) => new Date(ms).toLocaleDateString('sv-SE', { timeZone: zone });

/** The first moment whose local date is `day` in `zone`, found by walking the clock in 15-minute steps. */
function localDayStart(day: string, zone: string): number {
  let ms = Date.parse(`${day}T00:00:00.000Z`) - 12 * HOUR;
  while (localDate(ms, zone) < day) ms += 15 * 60_000;
  return ms;
}

function plusDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + n)).toISOString().slice(0, 10);
}

/** A venue of the model: its id (lots of two venues due at once go by day, then venue id) and its time zone. */
interface MVenue { id: string; zone: string }
/** Where cashback is in lots: a venue's day. */
interface MPlace { venue: MVenue; day: string }
interface MLot { venue: MVenue; day: string; on: string; dueAt: number; remaining: number }
interface MHold { id: string; amount: number; lapsesAt: number; open: boolean }
interface MCheck {
  ext: string;
  /** Its venue and its day there: the lot it earned into. */
  at: MPlace;
  paid: number;
  earned: number;
  redeemed: number;
  refunded: number;
  earnedBack: number;
  redeemedBack: number;
  voided: boolean;
  /** Where the redemption came from and has not yet gone back to: a lot (its venue id:day), or null for no lot. */
  from: Map<string | null, number>;
}

const lotName = (lot: { venue: MVenue; day: string }) => `${lot.venue.id}:${lot.day}`;

class Model {
  balance = 0;
  expired = 0;
  /** What expired of the lots of each venue, by venue id. */
  expiredAt = new Map<string, number>();
  lots: MLot[] = [];
  holds: MHold[] = [];
  checks: MCheck[] = [];
  /** A reversal left available below zero, and nothing has brought it back since (the documented debt). */
  debt = false;
  constructor(public now: number) {}

  held(at = this.now) {
    return this.holds.filter((h) => h.open && h.lapsesAt > at).reduce((s, h) => s + h.amount, 0);
  }
  available() {
    return this.balance - this.held();
  }
  /** Soonest due first; on a tie the earlier day, then the lower venue id. */
  private soonest() {
    return [...this.lots].sort((a, b) => a.dueAt - b.dueAt || (a.day < b.day ? -1 : a.day > b.day ? 1 : a.venue.id < b.venue.id ? -1 : 1));
  }
  /** At moment `at`: what is due expires, as far as cashback not held (and not owed) allows. */
  private expireAt(at: number) {
    let room = Math.max(0, this.balance - this.held(at));
    for (const lot of this.soonest()) {
      if (lot.dueAt > at) continue;
      const x = Math.min(lot.remaining, room);
      lot.remaining -= x;
      room -= x;
      this.balance -= x;
      this.expired += x;
      this.expiredAt.set(lot.venue.id, (this.expiredAt.get(lot.venue.id) ?? 0) + x);
    }
  }
  /** Time moves to `to`, stopping at every moment a lot falls due or a hold lapses. */
  advance(to: number) {
    const moments = [...this.lots.map((l) => l.dueAt), ...this.holds.map((h) => h.lapsesAt)].filter((m) => m > this.now && m <= to);
    for (const m of [...new Set(moments)].sort((a, b) => a - b)) this.expireAt(m);
    this.now = to;
    this.expireAt(to);
  }
  /** The lot of a venue's day, its date and moment due in that venue's time zone. */
  private lot({ venue, day }: MPlace) {
    let lot = this.lots.find((l) => l.venue === venue && l.day === day);
    if (!lot) {
      const on = plusDays(day, AFTER_DAYS);
      lot = { venue, day, on, dueAt: localDayStart(on, venue.zone), remaining: 0 };
      this.lots.push(lot);
    }
    return lot;
  }
  /** Cashback in: a debt is paid back first, the rest goes into the lot of `at` (null: into no lot). */
  credit(amount: number, at: MPlace | null) {
    const intoLot = Math.max(0, amount - Math.max(0, -this.balance));
    this.balance += amount;
    if (intoLot > 0 && at !== null) this.lot(at).remaining += intoLot;
  }
  /**
   * Cashback out: from the lot of `at` first (a reversal), then from the lots due soonest, of any venue, then from
   * cashback in no lot. Returns where it came from (null: no lot).
   */
  debit(amount: number, at: MPlace | null): Map<string | null, number> {
    this.balance -= amount;
    let left = amount;
    const from = new Map<string | null, number>();
    const own = at === null ? [] : this.lots.filter((l) => l.venue === at.venue && l.day === at.day);
    for (const lot of [...own, ...this.soonest().filter((l) => !own.includes(l))]) {
      const x = Math.min(lot.remaining, left);
      lot.remaining -= x;
      left -= x;
      if (x > 0) from.set(lotName(lot), (from.get(lotName(lot)) ?? 0) + x);
    }
    if (left > 0) from.set(null, left);
    return from;
  }
  /**
   * A reversal gives `redeemedBack` back to where the redemption came from, each part its floor share of what is
   * still out, the cents left over one each to the largest remainders (the earlier lot first — earlier day, then
   * lower venue id —, no lot last); then takes `earnedBack` back from the check's own lot first.
   */
  reversal(c: MCheck, redeemedBack: number, earnedBack: number, venues: MVenue[]) {
    if (redeemedBack > 0) this.giveBack(c, redeemedBack, venues);
    if (earnedBack > 0) this.debit(earnedBack, c.at);
    if (this.available() < 0) this.debt = true;
  }
  private giveBack(c: MCheck, redeemedBack: number, venues: MVenue[]) {
    const place = (name: string): MPlace => {
      const [id, day] = name.split(':') as [string, string];
      return { venue: venues.find((v) => v.id === id)!, day };
    };
    const earlier = (a: string, b: string) => {
      const [pa, pb] = [place(a), place(b)];
      return pa.day !== pb.day ? (pa.day < pb.day ? -1 : 1) : pa.venue.id < pb.venue.id ? -1 : 1;
    };
    const out = [...c.from].sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : earlier(a, b)));
    const total = out.reduce((s, [, x]) => s + x, 0);
    const parts = out.map(([name, x], i) => ({ name, i, share: Math.floor((redeemedBack * x) / total), rest: (redeemedBack * x) % total }));
    let over = redeemedBack - parts.reduce((s, p) => s + p.share, 0);
    for (const p of [...parts].sort((a, b) => b.rest - a.rest || a.i - b.i)) if (over > 0) (p.share++, over--);
    for (const p of parts) {
      if (p.share > 0) this.credit(p.share, p.name === null ? null : place(p.name));
      c.from.set(p.name, c.from.get(p.name)! - p.share);
    }
  }
  expiring() {
    const byDate = new Map<string, number>();
    for (const lot of this.soonest()) {
      if (lot.remaining <= 0) continue;
      if (!byDate.has(lot.on) && byDate.size === 3) break;
      byDate.set(lot.on, (byDate.get(lot.on) ?? 0) + lot.remaining);
    }
    return [...byDate].map(([on, amount]) => ({ amount, on }));
  }
}

type Step =
  /** `ago` > 0: closed that long ago (a lot of that day, maybe already due); `at`: the venue (0: the member's own). */
  | { kind: 'check'; amount: number; redeem: number; ago: number; at: number }
  | { kind: 'void'; pick: number }
  | { kind: 'refund'; pick: number; part: number }
  /** `part` percent of what is available (one cent when nothing is: refused). */
  | { kind: 'hold'; part: number; ttl: number }
  | { kind: 'capture'; pick: number; extra: number }
  | { kind: 'release'; pick: number }
  | { kind: 'clock'; ms: number }
  /** To just before (or exactly at) the next moment a lot falls due: where holds, debt and expiry meet. */
  | { kind: 'nearDue'; before: number }
  /** An hour before the next lot falls due, hold `part` percent of what is available for a day; then to that moment. */
  | { kind: 'holdAcrossDue'; part: number }
  | { kind: 'worker'; how: 'once' | 'twice' | 'together' }
  /** A manual adjustment: given (forms no lot), or `part` percent of what is available taken (`amount` < 0). */
  | { kind: 'adjust'; amount: number; part: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({
        kind: fc.constant('check' as const),
        amount: fc.integer({ min: 100, max: 5000 }),
        redeem: fc.integer({ min: 0, max: 3000 }),
        ago: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(HOUR, 2 * 24 * HOUR, (AFTER_DAYS + 1) * 24 * HOUR, 9 * 24 * HOUR) }),
        at: fc.integer({ min: 0, max: ZONES.length - 1 }),
      }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), part: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hold' as const), part: fc.integer({ min: 30, max: 110 }), ttl: fc.constantFrom(60, 3600, 86_400) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('capture' as const), pick: fc.nat(), extra: fc.integer({ min: 0, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('clock' as const), ms: fc.constantFrom(30 * 60_000, 3 * HOUR, 14 * HOUR, 24 * HOUR, 2 * 24 * HOUR, 5 * 24 * HOUR) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('nearDue' as const), before: fc.constantFrom(0, 1, 30 * 60_000, 3 * HOUR) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('holdAcrossDue' as const), part: fc.integer({ min: 10, max: 100 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('worker' as const), how: fc.constantFrom('once' as const, 'twice' as const, 'together' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('adjust' as const), amount: fc.integer({ min: -1, max: 2000 }).filter((x) => x !== 0), part: fc.integer({ min: 10, max: 100 }) }) },
);

const PERCENT = 10;
const euros = (cents: number) => new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' }).format(cents / 100);

describe('cashback expiry against an independent FIFO model (property)', () => {
  it('expired = the model’s, nothing expires twice, available ≥ 0 outside debt, ledger verify clean', async () => {
    const venue = await createVenue(t, { timezone: ZONES[0], locale: 'en-IE', currency: 'EUR', country: 'DE', settings: { manual_adjustments_allowed: true } });
    const second = await createVenue(t, { chainId: venue.chainId, timezone: ZONES[1], locale: 'en-IE', country: 'JP' });
    await createProgram(t, venue, 'cashback', {
      settings: { levels: [{ name: 'Base', min_spend: 0, percent: PERCENT }], cashback_expires_after_days: AFTER_DAYS, cashback_expiry_warning_days: 2 },
    });
    const api = client(t, (await createKey(t, venue)).secret);
    const apis = [api, client(t, (await createKey(t, second)).secret)];
    const venues: MVenue[] = [{ id: venue.id, zone: ZONES[0] }, { id: second.id, zone: ZONES[1] }];
    /** Each check's venue, by external_id: voids and refunds go to it. */
    const apiOf = new Map<string, ReturnType<typeof client>>();
    let run = 0;
    // The runs must have met what they are about: cashback that expired, partly while held, and debt.
    const met = { expired: 0, heldWhileDue: 0, debt: 0, expiredAtSecond: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 10, maxLength: 40 }), async (steps) => {
        run++;
        const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
        const model = new Model(t.clock.now().getTime());
        let n = 0;
        const worker = async (how: 'once' | 'twice' | 'together') => {
          const now = t.clock.now();
          if (how === 'together') await Promise.all([runExpiry(t.db, now), runExpiry(t.db, now)]);
          else for (let i = 0; i < (how === 'twice' ? 2 : 1); i++) await runExpiry(t.db, now);
        };
        const applyCheck = async (amount: number, redeem: number, holdId?: string, ago = 0, at = 0) => {
          const ext = `R${run}-${++n}`;
          const closedAt = t.clock.now().getTime() - ago;
          apiOf.set(ext, apis[at]!);
          const res = await apis[at]!.post('/api/v1/checks', {
            external_id: ext,
            member_id: member.id,
            line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }],
            ...(ago > 0 ? { closed_at: new Date(closedAt).toISOString() } : {}),
            ...(holdId ? { hold_id: holdId } : redeem > 0 ? { redeem_amount: redeem } : {}),
          });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const place: MPlace = { venue: venues[at]!, day: localDate(closedAt, venues[at]!.zone) };
          // A check closed so long ago that its day's cashback has expired already earns nothing (issue 25).
          const lapsed = localDayStart(plusDays(place.day, AFTER_DAYS), place.venue.zone) <= t.clock.now().getTime();
          const earned = lapsed ? 0 : Math.floor(((amount - redeem) * PERCENT) / 100);
          expect(res.body).toMatchObject({ redeemed: redeem, earned });
          const from = redeem > 0 ? model.debit(redeem, null) : new Map<string | null, number>();
          if (earned > 0) model.credit(earned, place);
          if (model.available() >= 0) model.debt = false;
          model.checks.push({ ext, at: place, paid: amount - redeem, earned, redeemed: redeem, refunded: 0, earnedBack: 0, redeemedBack: 0, voided: false, from });
          return (res.body.display.receipt as string[]).find((l) => l.startsWith('Cashback available'));
        };
        const hold = async (part: number, ttl: number) => {
          const amount = Math.max(1, Math.floor((model.available() * part) / 100));
          const res = await api.post('/api/v1/holds', { member_id: member.id, amount, expires_in: ttl });
          if (amount <= model.available()) {
            expect(res.status, JSON.stringify(res.body)).toBe(201);
            model.holds.push({ id: res.body.id, amount, lapsesAt: model.now + ttl * 1000, open: true });
          } else {
            expect(res.status).toBe(402);
            expect(res.body.error.available).toBe(model.available());
          }
        };
        for (const step of steps) {
          model.advance(t.clock.now().getTime());
          switch (step.kind) {
            case 'check': {
              const redeem = Math.max(0, Math.min(step.redeem, model.available(), step.amount));
              const answered = await applyCheck(step.amount, redeem, undefined, step.ago, step.at);
              // The check's answer shows the member as a read at that moment does (a lot already due: gone).
              model.advance(t.clock.now().getTime());
              expect(answered, JSON.stringify(step)).toBe(`Cashback available: ${euros(model.available())}`);
              break;
            }
            case 'void': {
              const open = model.checks.filter((c) => !c.voided);
              if (!open.length) break;
              const c = open[step.pick % open.length]!;
              expect((await apiOf.get(c.ext)!.post(`/api/v1/transactions/${c.ext}/void`)).status).toBe(200);
              const rb = c.redeemed - c.redeemedBack;
              const eb = c.earned - c.earnedBack;
              c.voided = true;
              model.reversal(c, rb, eb, venues);
              break;
            }
            case 'refund': {
              const open = model.checks.filter((c) => !c.voided && c.paid - c.refunded > 0);
              if (!open.length) break;
              const c = open[step.pick % open.length]!;
              const amount = Math.max(1, Math.floor(((c.paid - c.refunded) * step.part) / 100));
              const res = await apiOf.get(c.ext)!.post(`/api/v1/transactions/${c.ext}/refunds`, { external_id: `${c.ext}-r${c.refunded}`, amount });
              expect(res.status, JSON.stringify(res.body)).toBe(201);
              c.refunded += amount;
              // Cumulatively exact: floor(x × refunded / paid) reversed so far.
              const eb = Math.floor((c.earned * c.refunded) / c.paid) - c.earnedBack;
              const rb = Math.floor((c.redeemed * c.refunded) / c.paid) - c.redeemedBack;
              c.earnedBack += eb;
              c.redeemedBack += rb;
              model.reversal(c, rb, eb, venues);
              break;
            }
            case 'hold':
              await hold(step.part, step.ttl);
              break;
            case 'holdAcrossDue': {
              const next = model.lots.map((l) => l.dueAt).filter((m) => m - HOUR > model.now).sort((a, b) => a - b)[0];
              if (next === undefined) break;
              t.clock.advance(next - HOUR - model.now);
              model.advance(t.clock.now().getTime());
              await hold(step.part, 86_400);
              t.clock.advance(HOUR);
              model.advance(t.clock.now().getTime());
              break;
            }
            case 'capture': {
              const live = model.holds.filter((h) => h.open && h.lapsesAt > model.now);
              if (!live.length) break;
              const h = live[step.pick % live.length]!;
              // In debt a hold spends only what it took out of available, and only while that leaves available ≥ 0.
              if (model.available() < 0) {
                const res = await api.post('/api/v1/checks', { external_id: `R${run}-x${++n}`, member_id: member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: h.amount }], hold_id: h.id });
                expect(res.status).toBe(402);
                break;
              }
              h.open = false;
              await applyCheck(h.amount + step.extra, h.amount, h.id);
              break;
            }
            case 'release': {
              const live = model.holds.filter((h) => h.open && h.lapsesAt > model.now);
              if (!live.length) break;
              const h = live[step.pick % live.length]!;
              expect((await api.post(`/api/v1/holds/${h.id}/release`)).status).toBe(200);
              h.open = false;
              break;
            }
            case 'clock':
              t.clock.advance(step.ms);
              model.advance(t.clock.now().getTime());
              break;
            case 'nearDue': {
              const next = model.lots.map((l) => l.dueAt - step.before).filter((m) => m > model.now).sort((a, b) => a - b)[0];
              if (next === undefined) break;
              t.clock.advance(next - model.now);
              model.advance(t.clock.now().getTime());
              break;
            }
            case 'worker':
              await worker(step.how);
              break;
            case 'adjust': {
              const amount = step.amount > 0 ? step.amount : -Math.floor((model.available() * step.part) / 100);
              if (amount === 0 || -amount > model.available()) break;
              const res = await api.post(`/api/v1/members/${member.id}/adjustments`, { amount, reason: 'property' });
              expect(res.status, JSON.stringify(res.body)).toBe(201);
              if (amount > 0) model.credit(amount, null);
              else model.debit(-amount, null);
              break;
            }
          }
          model.advance(t.clock.now().getTime());
          const { body: seen } = await api.get(`/api/v1/members/${member.id}`);
          expect({ balance: seen.balance, held: seen.held, available: seen.available, expiring: seen.expiring }, JSON.stringify(step)).toEqual({
            balance: model.balance,
            held: model.held(),
            available: model.available(),
            expiring: model.expiring(),
          });
          if (model.available() >= 0) model.debt = false;
          expect(seen.available >= 0 || model.debt).toBe(true);
          if (model.debt) met.debt++;
          if (model.held() > 0 && model.lots.some((l) => l.dueAt <= model.now && l.remaining > 0)) met.heldWhileDue++;
        }
        met.expired += model.expired;
        met.expiredAtSecond += model.expiredAt.get(second.id) ?? 0;
        // Past every lot's date, with nothing held: the worker writes the rest, once, however it is run.
        t.clock.advance((AFTER_DAYS + 2) * 24 * HOUR);
        model.advance(t.clock.now().getTime());
        await worker('together');
        await worker('twice');
        const { rows } = await sql<{ total: string | null; kinds: string[] | null }>`
          select sum(cashback) as total, array_agg(distinct kind) as kinds from ledger_entries where member_id = ${member.id} and kind = 'expiry'`.execute(t.db);
        expect(0 - Number(rows[0]!.total ?? 0)).toBe(model.expired);
        // Each venue's `expiry` entries are what expired of the lots earned there.
        const { rows: byVenue } = await sql<{ venue_id: string; total: string }>`
          select venue_id, sum(cashback) as total from ledger_entries where member_id = ${member.id} and kind = 'expiry' group by venue_id`.execute(t.db);
        expect(Object.fromEntries(byVenue.map((r) => [r.venue_id, -Number(r.total)]))).toEqual(Object.fromEntries([...model.expiredAt].filter(([, x]) => x > 0)));
        const { body: end } = await api.get(`/api/v1/members/${member.id}`);
        expect(end).toMatchObject({ balance: model.balance, expiring: [] });
        // Each lot was warned about at most once. A warning is an event of no venue (D21) naming the day the lot was
        // earned, and the two venues may each have a lot of the same date: no date has more warnings than lots.
        const warned = await sql<{ day: string; n: string }>`select data->'object'->>'earned_on' as day, count(*) as n from events
          where type = 'cashback.expiring' and data->'object'->>'member_id' = ${member.id} group by 1`.execute(t.db);
        for (const { day, n } of warned.rows) expect(Number(n), `warnings of lots earned on ${day}`).toBeLessThanOrEqual(model.lots.filter((l) => l.day === day).length);
        expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);
      }),
      { numRuns: Number(process.env.EXPIRY_RUNS ?? 25) },
    );
    expect(met.expired).toBeGreaterThan(0);
    expect(met.heldWhileDue).toBeGreaterThan(0);
    expect(met.debt).toBeGreaterThan(0);
    expect(met.expiredAtSecond).toBeGreaterThan(0);
  }, 600_000);
});
