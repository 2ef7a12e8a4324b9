// The requests of each scenario, as a till, a scanner or a POS sync would send them: random members of random
// venues, each request with the next API key of that member's venue (120 keys a venue by default, so the 300 a
// minute per key limit stays on without being what is measured), unique external ids and Idempotency-Keys; and the
// chain comparison's: look-ups and checks of a chain's members at each of its venues in turn.
import type { BenchConfig } from './config.js';
import type { Context, RequestSpec, Step } from './load.js';
import { CAMPAIGN_SIDES, DISHES_PER_VENUE, PRODUCTS_PER_CHAIN, names, venueOfMember, memberOfPastCheck, type ComparisonChain, type SeedResult, type VenueSeed } from './seed.js';
import { prng } from './stats.js';

export interface Scenario {
  name: string;
  /** What the table calls it. */
  label: string;
  steps: Step[];
  connections: number;
  /** Requests per unit of work (a hold and its capture: 2). */
  requestsPerFlow: number;
}

interface LineItem {
  sku?: string;
  name: string;
  category?: string;
  quantity: number;
  unit_price: number;
}

/** The mixed till workload: scan 30 %, calculate 20 %, apply 35 %, look-up 10 %, refund 5 %. */
export const MIX: [kind: 'scan' | 'calculate' | 'apply' | 'lookup' | 'refund', weight: number][] = [
  ['scan', 0.3],
  ['calculate', 0.2],
  ['apply', 0.35],
  ['lookup', 0.1],
  ['refund', 0.05],
];

// Coprime with any transactions count that is not a multiple of 7919: the refunds walk every past check once.
const REFUND_STRIDE = 7919;

export class Workload {
  private readonly rnd: () => number;
  private n = 0;
  private refunds = 0;
  private bulk = 0;
  /** Per venue (by its index), the turn of its next key. */
  private readonly keyTurn = new Map<number, number>();
  private readonly menus: { external_id: string; name: string; description: string; category: string; price: number; available: boolean }[];

  constructor(
    private readonly config: BenchConfig,
    private readonly seeded: SeedResult,
    private readonly runId: string,
    seed = 42,
  ) {
    this.rnd = prng(seed);
    this.menus = Array.from({ length: DISHES_PER_VENUE }, (_, n) => ({
      external_id: names.dish(n),
      name: `Dish ${n}`,
      description: 'A dish of the bench menu',
      category: 'Mains',
      price: 500 + ((n * 53) % 2500),
      available: true,
    }));
  }

  private headers(venue: VenueSeed, json: boolean, idempotencyKey?: string): Record<string, string> {
    const turn = this.keyTurn.get(venue.index) ?? 0;
    this.keyTurn.set(venue.index, turn + 1);
    const headers: Record<string, string> = { authorization: `Bearer ${venue.keys[turn % venue.keys.length]}` };
    if (json) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    return headers;
  }

  private randomMember(): { venue: VenueSeed; card: string } {
    const i = Math.floor(this.rnd() * this.config.members);
    return { venue: this.seeded.venues[venueOfMember(this.config, i)]!, card: names.card(i) };
  }

  /** 3 to 6 lines: a main through its SKU first, then SKUs, alcohol (earns nothing), weighed cheese, a plain line. */
  private lines(count = 3 + Math.floor(this.rnd() * 4)): LineItem[] {
    const food = 4 * (1 + Math.floor(this.rnd() * Math.floor(PRODUCTS_PER_CHAIN / 4)));
    const out: LineItem[] = [{ sku: names.sku(food), name: `Main ${food}`, quantity: 1, unit_price: 800 + Math.floor(this.rnd() * 16) * 100 }];
    for (let i = 1; i < count; i++) {
      const r = this.rnd();
      if (r < 0.4) {
        const k = 1 + Math.floor(this.rnd() * PRODUCTS_PER_CHAIN);
        out.push({ sku: names.sku(k), name: `Product ${k}`, quantity: 1 + Math.floor(this.rnd() * 2), unit_price: 200 + Math.floor(this.rnd() * 10) * 50 });
      } else if (r < 0.6) {
        out.push({ name: 'House wine', category: 'alcohol', quantity: 1, unit_price: 650 });
      } else if (r < 0.75) {
        out.push({ name: 'Cheese by weight', category: 'food', quantity: 0.333, unit_price: 1500 });
      } else {
        out.push({ name: 'Special', quantity: 1, unit_price: 300 + Math.floor(this.rnd() * 10) * 50 });
      }
    }
    return out;
  }

  private id(prefix: string): string {
    return `${this.runId}-${prefix}${this.n++}`;
  }

  lookup({ venue, card } = this.randomMember()): RequestSpec {
    return { kind: 'lookup', method: 'GET', path: `/api/v1/members/lookup?card_number=${card}`, headers: this.headers(venue, false) };
  }

  scan(): RequestSpec {
    const { venue, card } = this.randomMember();
    return { kind: 'scan', method: 'POST', path: '/api/v1/scans', headers: this.headers(venue, true), body: JSON.stringify({ code: card }) };
  }

  /** Redemption on one check in three (1.00 to 3.00; the first line alone allows 4.00 at 50 %). */
  private checkBody(card: string, externalId?: string): Record<string, unknown> {
    const redeem = this.n % 3 === 0 ? { redeem_amount: 100 + Math.floor(this.rnd() * 200) } : {};
    return { ...(externalId ? { external_id: externalId } : {}), card_number: card, line_items: this.lines(), ...redeem };
  }

  calculate(): RequestSpec {
    const { venue, card } = this.randomMember();
    this.n++;
    return { kind: 'calculate', method: 'POST', path: '/api/v1/checks/calculate', headers: this.headers(venue, true), body: JSON.stringify(this.checkBody(card)) };
  }

  apply({ venue, card } = this.randomMember()): RequestSpec {
    const externalId = this.id('a');
    return {
      kind: 'apply',
      method: 'POST',
      path: '/api/v1/checks',
      headers: this.headers(venue, true, `ik-${externalId}`),
      body: JSON.stringify(this.checkBody(card, externalId)),
    };
  }

  refund(): RequestSpec {
    const j = (this.refunds++ * REFUND_STRIDE) % this.config.transactions;
    const venue = this.seeded.venues[venueOfMember(this.config, memberOfPastCheck(this.config, j))]!;
    const externalId = this.id('r');
    return {
      kind: 'refund',
      method: 'POST',
      path: `/api/v1/transactions/${names.pastCheck(j)}/refunds`,
      headers: this.headers(venue, true, `ik-${externalId}`),
      body: JSON.stringify({ external_id: externalId, amount: 100 }),
    };
  }

  /** One venue's whole menu of 500 dishes, a tenth of them with a new price: what a POS sync sends. */
  bulkSync(): RequestSpec {
    const turn = this.bulk++;
    const venue = this.seeded.venues[turn % this.seeded.venues.length]!;
    const items = this.menus.map((d, n) => (n % 10 === turn % 10 ? { ...d, price: d.price + 10 * (1 + (turn % 5)) } : d));
    const key = this.id('m');
    return { kind: 'bulk_sync', method: 'POST', path: '/api/v1/menu/items/bulk', headers: this.headers(venue, true, `ik-${key}`), body: JSON.stringify({ items }) };
  }

  mixed(): RequestSpec {
    let r = this.rnd();
    for (const [kind, weight] of MIX) {
      if (r < weight) return this[kind]();
      r -= weight;
    }
    return this.apply();
  }

  /** A hold, then the check that captures it (the same member, a key of the same venue). */
  holdCapture(): Step[] {
    return [
      {
        make: (ctx: Context) => {
          const { venue, card } = this.randomMember();
          ctx.venue = venue;
          ctx.card = card;
          const key = this.id('h');
          const body = JSON.stringify({ card_number: card, amount: 100 + Math.floor(this.rnd() * 200) });
          return { kind: 'hold', method: 'POST', path: '/api/v1/holds', headers: this.headers(venue, true, `ik-${key}`), body };
        },
        after: (status, body, ctx) => {
          if (status === 201) ctx.holdId = (JSON.parse(body) as { id: string }).id;
        },
      },
      {
        make: (ctx: Context) => {
          if (typeof ctx.holdId !== 'string') return null;
          const venue = ctx.venue as VenueSeed;
          const externalId = this.id('c');
          const body = JSON.stringify({ external_id: externalId, card_number: ctx.card, hold_id: ctx.holdId, line_items: this.lines(3) });
          return { kind: 'capture', method: 'POST', path: '/api/v1/checks', headers: this.headers(venue, true, `ik-${externalId}`), body };
        },
      },
    ];
  }

  /**
   * Look-ups or checks (3 lines, no redemption) of old members (a long ledger) and new ones, alternating request by
   * request on the same connections, so both meet the same server at the same moments; each side takes its members
   * in turn (as many members as connections in all, so checks never wait for each other's member lock).
   */
  history(what: 'lookup' | 'apply'): Step[] {
    let turn = 0;
    return [
      {
        make: () => {
          const side = turn % 2 === 0 ? 'old' : 'new';
          const h = Math.floor(turn++ / 2) % this.config.historyMembers;
          const venue = this.seeded.venues[this.seeded.historyVenue[h]!]!;
          const card = side === 'old' ? names.oldCard(h) : names.newCard(h);
          if (what === 'lookup') {
            return { kind: `${side}_lookup`, method: 'GET', path: `/api/v1/members/lookup?card_number=${card}`, headers: this.headers(venue, false) };
          }
          const externalId = this.id(side === 'old' ? 'ho' : 'hn');
          const body = JSON.stringify({ external_id: externalId, card_number: card, line_items: this.lines(3) });
          return { kind: `${side}_apply`, method: 'POST', path: '/api/v1/checks', headers: this.headers(venue, true, `ik-${externalId}`), body };
        },
      },
    ];
  }

  /**
   * Look-ups or checks (as the scenarios send them) of random members of a chain of the comparison, each request at
   * the chain's next venue with that venue's next key: a chain of three serves its members at all three venues.
   */
  chainSide(chain: ComparisonChain, what: 'lookup' | 'apply'): Step[] {
    let turn = 0;
    return [
      {
        make: () => {
          const venue = chain.venues[turn++ % chain.venues.length]!;
          const card = names.chainCard(chain.venues.length, Math.floor(this.rnd() * this.config.chainMembers));
          return this[what]({ venue, card });
        },
      },
    ];
  }

  /**
   * Checks (as the apply scenario sends them) of the venues of the campaign comparison in turn, request by request on
   * the same connections, random members of each: kinds `<side>_apply`.
   */
  campaignSides(): Step[] {
    let turn = 0;
    return [
      {
        make: () => {
          const side = CAMPAIGN_SIDES[turn++ % CAMPAIGN_SIDES.length]!;
          const venue = this.seeded.campaignSides[side].venues[0]!;
          const spec = this.apply({ venue, card: names.campaignCard(side, Math.floor(this.rnd() * this.config.chainMembers)) });
          return { ...spec, kind: `${side}_apply` };
        },
      },
    ];
  }

  scenarios(): Scenario[] {
    const c = this.config.concurrency;
    const one = (name: string, label: string, make: () => RequestSpec, connections = c): Scenario => ({
      name,
      label,
      steps: [{ make }],
      connections,
      requestsPerFlow: 1,
    });
    return [
      one('lookup', 'look-up by card', () => this.lookup()),
      one('calculate', 'calculate', () => this.calculate()),
      one('scan', 'scan', () => this.scan()),
      one('apply', 'apply a check', () => this.apply()),
      { name: 'hold_capture', label: 'hold + capture', steps: this.holdCapture(), connections: c, requestsPerFlow: 2 },
      one('refund', 'refund', () => this.refund()),
      one('bulk_sync', `bulk sync of ${DISHES_PER_VENUE} dishes`, () => this.bulkSync(), this.config.bulkConcurrency),
      one('mixed', 'mixed till workload', () => this.mixed()),
    ];
  }
}
