// The independent tally of the model-based test: balances and holds worked out from the figures the test received
// in answers (earned, redeemed, adjustment amounts, refund reversals, voids' before/after), not from the model nor
// from the app's own totals; but for a referrer's side of a referral, which no answer shows: that one is the model's.
import type { Response } from './http.js';
import { txKey, type Expected, type ModelRequest } from './money-model.js';
import type { World } from './money-model-world.js';

interface TallyTx {
  member: string | null;
  status: string;
  earned: number;
  redeemed: number;
  earnedBack: number;
  redeemedBack: number;
  /** What campaigns credited (cashback members: cashback) and refunds took back of it. */
  campaigns: number;
  campaignsBack: number;
  /** The members a referral of the check credited as referrers (its void takes it back from them). */
  referrers: string[];
}

/** The sum of a list of campaign credits an answer gave. */
const total = (credits: { amount: number }[] | undefined) => (credits ?? []).reduce((sum, c) => sum + c.amount, 0);

export class Tally {
  balance: Record<string, number>;
  /** By venue and external_id (`txKey`). */
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

  /** Takes in one answer, and what the model expected of it for referrers. */
  observe(world: World, req: ModelRequest, res: Response, expected: Expected) {
    const b = res.body;
    const referrers = expected.kind === 'transaction' && res.status === expected.status ? (expected.referrers ?? []) : [];
    for (const r of referrers) this.move(r.member, r.amount);
    if (req.op === 'check' && res.status === 201) {
      const member = b.member_id ? (world.local.get(b.member_id) ?? null) : null;
      const campaigns = total(b.campaigns);
      this.txs.set(txKey(req.at, b.external_id), {
        member,
        status: b.status,
        earned: b.earned,
        redeemed: b.redeemed,
        earnedBack: 0,
        redeemedBack: 0,
        campaigns,
        campaignsBack: 0,
        referrers: referrers.map((r) => r.member),
      });
      this.move(member, b.earned - b.redeemed + campaigns);
      if (b.hold_id) this.captureHold(world, b.hold_id);
    }
    if (req.op === 'capture' && res.status === 200) {
      const before = this.txs.get(txKey(req.at, b.external_id));
      if (before) {
        this.move(before.member, -(b.redeemed - before.redeemed) - (before.earned - b.earned) + total(b.campaigns) - before.campaigns);
        before.campaigns = total(b.campaigns);
        before.earned = b.earned;
        before.redeemed = b.redeemed;
      }
      this.captureHold(world, world.ids.get(req.holdId));
    }
    if (req.op === 'void' && res.status === 200) {
      const before = this.txs.get(txKey(req.at, b.external_id));
      if (before && before.status === 'completed' && b.status === 'voided') {
        this.move(before.member, before.redeemed - before.redeemedBack - (before.earned - before.earnedBack) - (before.campaigns - before.campaignsBack));
        before.campaignsBack = before.campaigns;
        before.status = 'voided';
        before.earnedBack = before.earned;
        before.redeemedBack = before.redeemed;
      }
    }
    if (req.op === 'refund' && res.status === 201) {
      const tx = this.txs.get(txKey(req.at, req.externalId));
      if (tx) {
        this.move(tx.member, b.redeemed_returned - b.earned_reversed - total(b.campaigns_reversed));
        tx.campaignsBack += total(b.campaigns_reversed);
        tx.earnedBack += b.earned_reversed;
        tx.redeemedBack += b.redeemed_returned;
      }
    }
    if (req.op === 'adjust' && res.status === 201) this.move(req.memberId, b.amount);
    if (req.op === 'enroll' && res.status === 201 && b.balance !== null) this.balance[req.memberId] = b.balance;
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
      // What the member's holds keep, at every venue of the chain.
      let held = 0;
      for (const h of this.holds.values()) if (h.member === local && h.status === 'active' && h.expiresAt > now) held += h.amount;
      if (m.held !== held) out.push(`invariant: member ${local}.held ${m.held} ≠ ${held}, the active unexpired holds the test created`);
      const before = world.seen.get(local)?.available ?? m.available;
      // Only a void or a refund may leave (or deepen) a debt, of the check's member or (a void) a referrer it credited;
      // anything else leaves available ≥ 0 or raises it.
      const reversed = done.some(({ req, res }) => {
        if (!((req.op === 'void' && res.status === 200) || (req.op === 'refund' && res.status === 201))) return false;
        const tx = this.txs.get(txKey(req.at, req.externalId));
        return tx !== undefined && (tx.member === local || tx.referrers.includes(local));
      });
      if (m.available < 0 && !reversed && m.available < before) {
        out.push(`invariant: member ${local}.available went from ${before} to ${m.available} without a void or refund`);
      }
    }
    return out;
  }
}
