// The HTTP side of the model-based test: a model request sent to the app as a till would send it (a chain key naming
// the venue with venue_id), the app's answer compared with the model's, and both as one line of a trace.
import type { Response } from './http.js';
import { txKey, type CampaignAmount, type Expected, type ModelCheckBody, type ModelLine, type ModelRequest, type TxView } from './money-model.js';
import { compareMemberView, dayOf, keyName, sid, type World } from './money-model-world.js';

// ---------------------------------------------------------------- sending

/** How a body names a member: member_id, card_number or barcode. */
function memberField(world: World, memberId: string, by: 'id' | 'card' | 'barcode' | undefined): Record<string, string> {
  if (by === 'card') return { card_number: world.cards.get(memberId) ?? 'CNOSUCHCARD' };
  if (by === 'barcode') return { barcode: world.barcodes.get(memberId) ?? 'CNOSUCHCARD' };
  return { member_id: sid(world, memberId) };
}

/** venue_id where the key must (a chain key) or does (a venue key acting elsewhere, to be refused) name it. */
function venueField(world: World, req: { key: number; at: string }): Record<string, string> {
  const own = world.model.config.keys[req.key]!.venue;
  return own === req.at ? {} : { venue_id: sid(world, req.at) };
}

const venueQuery = (world: World, req: { key: number; at: string }): string => {
  const v = venueField(world, req).venue_id;
  return v === undefined ? '' : `?venue_id=${v}`;
};

/** The JSON a till sends for a model body: the same model body always gives the same JSON (replays). */
export function httpCheckBody(world: World, b: ModelCheckBody): Record<string, unknown> {
  return {
    ...(b.externalId === undefined ? {} : { external_id: b.externalId }),
    ...(b.memberId === undefined ? {} : memberField(world, b.memberId, b.memberBy)),
    line_items: b.lines.map((l) => ({ name: l.name, quantity: l.quantity, unit_price: l.unitPrice, ...(l.category ? { category: l.category } : {}) })),
    ...(b.redeemAmount === undefined ? {} : { redeem_amount: b.redeemAmount }),
    ...(b.holdId === undefined ? {} : { hold_id: sid(world, b.holdId) }),
    ...(b.closedAt === undefined ? {} : { closed_at: new Date(b.closedAt).toISOString() }),
  };
}

const ADVANCED: Response = { status: 0, headers: {}, body: null };

/** A referral code no member has: drawn codes never hold O (D22 draws from 0-9 A-Z without I L O U). */
const NO_SUCH_CODE = 'NOCODE00';

export async function send(world: World, req: ModelRequest): Promise<Response> {
  if (req.op === 'advance') {
    world.t.clock.advance(req.ms);
    return ADVANCED;
  }
  const api = world.apis[req.key]!;
  const path = encodeURIComponent;
  switch (req.op) {
    case 'check': {
      const res = await api.post('/api/v1/checks', { ...httpCheckBody(world, req.body), ...venueField(world, req) });
      // Replays send exactly this body again, at the venue where it applied.
      if (res.status === 201) world.bodies.set(txKey(req.at, req.body.externalId!), req.body);
      return res;
    }
    case 'calculate':
      return api.post('/api/v1/checks/calculate', { ...httpCheckBody(world, req.body), ...venueField(world, req) });
    case 'void':
      return api.post(`/api/v1/transactions/${path(req.externalId)}/void${venueQuery(world, req)}`);
    case 'refund':
      return api.post(`/api/v1/transactions/${path(req.externalId)}/refunds`, { external_id: req.refundId, amount: req.amount, ...venueField(world, req) });
    case 'createHold': {
      const res = await api.post('/api/v1/holds', {
        ...memberField(world, req.memberId, req.by),
        amount: req.amount,
        ...(req.expiresIn === undefined ? {} : { expires_in: req.expiresIn }),
        ...venueField(world, req),
      });
      if (res.status === 201 && typeof res.body?.id === 'string') {
        world.ids.set(req.holdId, res.body.id);
        world.local.set(res.body.id, req.holdId);
      }
      return res;
    }
    case 'release':
      return api.post(`/api/v1/holds/${sid(world, req.holdId)}/release${venueQuery(world, req)}`);
    case 'capture':
      return api.post(`/api/v1/holds/${sid(world, req.holdId)}/capture`, {
        external_id: req.externalId,
        ...(req.redeemAmount === undefined ? {} : { redeem_amount: req.redeemAmount }),
        ...venueField(world, req),
      });
    case 'adjust':
      return api.post(`/api/v1/members/${sid(world, req.memberId)}/adjustments`, { amount: req.amount, reason: 'model test', ...venueField(world, req) });
    case 'visit':
      return api.post('/api/v1/visits', {
        ...memberField(world, req.memberId, req.by),
        ...(req.externalId === undefined ? {} : { external_id: req.externalId }),
        ...venueField(world, req),
      });
    case 'reward':
      return api.post(`/api/v1/members/${sid(world, req.memberId)}/rewards/redeem${venueQuery(world, req)}`);
    case 'enroll': {
      const code = req.referredBy === null ? NO_SUCH_CODE : world.codes.get(req.referredBy)!;
      const res = await api.post('/api/v1/members', {
        card_number: world.cards.get(req.memberId),
        consent: true,
        referred_by: req.codeAs === 'lower' ? code.toLowerCase() : req.codeAs === 'spaced' ? `  ${code} ` : code,
        ...(req.program === 'stamps' ? { program_id: world.stampsProgramId } : {}),
        ...venueField(world, req),
      });
      if (res.status === 201 && typeof res.body?.id === 'string') {
        world.ids.set(req.memberId, res.body.id);
        world.local.set(res.body.id, req.memberId);
        world.barcodes.set(req.memberId, res.body.barcode.value);
        world.codes.set(req.memberId, res.body.referral_code);
      }
      return res;
    }
    case 'lookup':
      switch (req.by) {
        case 'id':
          return api.get(`/api/v1/members/${sid(world, req.memberId)}`);
        case 'card':
          return api.get(`/api/v1/members/lookup?card_number=${path(world.cards.get(req.memberId)!)}`);
        case 'barcode':
          return api.get(`/api/v1/members/lookup?barcode=${path(world.barcodes.get(req.memberId)!)}`);
        case 'scan':
          return api.post('/api/v1/scans', { code: world.barcodes.get(req.memberId)!, ...venueField(world, req) });
      }
  }
}

/** A read after a refused check: the check must not exist at that venue (the refusal stored nothing). */
export async function transactionAbsent(world: World, req: Extract<ModelRequest, { op: 'check' }>): Promise<string[]> {
  const res = await world.apis[req.key]!.get(`/api/v1/transactions/${encodeURIComponent(req.body.externalId!)}${venueQuery(world, req)}`);
  return res.status === 404 && res.body?.error?.code === 'transaction_not_found'
    ? []
    : [`after a refused check, GET /transactions/${req.body.externalId} at ${req.at} answered ${resText(res)}, not 404 transaction_not_found`];
}

// ---------------------------------------------------------------- comparing an answer with the model

function diff(out: string[], what: string, expected: unknown, actual: unknown) {
  if (expected !== actual) out.push(`${what}: model ${JSON.stringify(expected)}, app ${JSON.stringify(actual)}`);
}

function compareTx(out: string[], world: World, prefix: string, v: TxView, b: any) {
  if (!b || b.object !== 'transaction') {
    out.push(`${prefix}: not a transaction: ${JSON.stringify(b).slice(0, 200)}`);
    return;
  }
  diff(out, `${prefix}venue_id`, world.ids.get(v.venue), b.venue_id);
  diff(out, `${prefix}external_id`, v.externalId, b.external_id);
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
  compareCampaigns(out, world, `${prefix}campaigns`, v.campaigns, b.campaigns);
}

/** A list of campaign credits as the app answered it, by the model's campaign ids, against the model's. */
function compareCampaigns(out: string[], world: World, what: string, expected: CampaignAmount[], actual: unknown) {
  const app = Array.isArray(actual)
    ? actual.map((c: { campaign_id: string; amount: number }) => `${world.local.get(c.campaign_id) ?? c.campaign_id} ${c.amount}`).sort()
    : actual;
  diff(out, what, JSON.stringify(expected.map((c) => `${c.campaign} ${c.amount}`).sort()), JSON.stringify(app));
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
export function compare(world: World, e: Expected, res: Response): string[] {
  const out: string[] = [];
  if (e.kind === 'advanced') return out;
  const b = res.body;
  if (e.kind === 'error') {
    if (e.or?.some((alt) => res.status === alt.status && b?.error?.code === alt.code)) return out;
    if (res.status !== e.status || b?.error?.code !== e.code) return [`answer: model ${expectedText(e)}, app ${resText(res)}`];
    if (e.param !== undefined) diff(out, 'error.param', e.param, b.error.param);
    for (const [k, v] of Object.entries(e.details ?? {})) diff(out, `error.${k}`, v, b.error[k]);
    return out;
  }
  if (res.status !== e.status) return [`answer: model ${expectedText(e)}, app ${resText(res)}`];
  const replayed = res.headers['idempotent-replayed'] === 'true';
  switch (e.kind) {
    case 'transaction':
      if (e.status === 201 || e.replayed) diff(out, 'Idempotent-Replayed', e.replayed, replayed);
      compareTx(out, world, '', e.tx, b);
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
      compareCampaigns(out, world, 'campaigns', c.campaigns, b.campaigns);
      break;
    }
    case 'refund':
      diff(out, 'Idempotent-Replayed', e.replayed, replayed);
      diff(out, 'amount', e.amount, b.amount);
      diff(out, 'earned_reversed', e.earnedReversed, b.earned_reversed);
      diff(out, 'redeemed_returned', e.redeemedReturned, b.redeemed_returned);
      compareCampaigns(out, world, 'campaigns_reversed', e.campaignsReversed, b.campaigns_reversed);
      compareTx(out, world, 'transaction.', e.tx, b.transaction);
      break;
    case 'hold':
      diff(out, 'venue_id', world.ids.get(e.venue), b.venue_id);
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
      diff(out, 'venue_id', world.ids.get(e.venue), b.venue_id);
      diff(out, 'Idempotent-Replayed', e.replayed, replayed);
      diff(out, 'stamps_earned', e.stampsEarned, b.stamps_earned);
      diff(out, 'member.stamps.count', e.stampsCount, b.member?.stamps?.count);
      break;
    case 'reward':
      diff(out, 'member.stamps.count', e.stampsCount, b.member?.stamps?.count);
      diff(out, 'member.stamps.rewards_available', e.rewardsAvailable, b.member?.stamps?.rewards_available);
      break;
    case 'member': {
      const m = b?.object === 'scan' ? b.member : b;
      diff(out, 'member id', world.ids.get(e.member), m?.id);
      out.push(...compareMemberView(e.member, e.view, m ?? {}, world));
      break;
    }
  }
  return out;
}

// ---------------------------------------------------------------- text for traces

const linesOf = (lines: ModelLine[]) =>
  lines.map((l) => `${l.quantity === 1 ? '' : `${l.quantity}×`}${l.unitPrice}${l.category ? ` ${l.category}` : ''}`).join(', ');

const by = (b: string | undefined) => (b === undefined || b === 'id' ? '' : ` by ${b}`);

export function reqText(world: World, req: ModelRequest): string {
  if (req.op === 'advance') return `clock +${req.ms / 1000}s`;
  const where = `@${req.at} ${keyName(req.key)}`;
  const clock = (ms: number) => {
    const ago = (world.model.state.now - ms) / 1000;
    return `${new Date(ms).toISOString()} (${ago}s ago, venue day ${dayOf(world, req.at, ms)})`;
  };
  switch (req.op) {
    case 'check':
    case 'calculate': {
      const b = req.body;
      return (
        `${req.op === 'check' ? 'POST /checks' : 'POST /checks/calculate'} ${where} ${b.externalId ?? '(no external_id)'} ` +
        `member=${b.memberId ?? '-'}${by(b.memberBy)} [${linesOf(b.lines)}]` +
        `${b.redeemAmount === undefined ? '' : ` redeem_amount=${b.redeemAmount}`}${b.holdId ? ` hold=${b.holdId}` : ''}` +
        `${b.closedAt === undefined ? '' : ` closed_at=${clock(b.closedAt)}`}`
      );
    }
    case 'void':
      return `POST /transactions/${req.externalId}/void ${where}`;
    case 'refund':
      return `POST /transactions/${req.externalId}/refunds ${where} {external_id: ${req.refundId}, amount: ${req.amount}}`;
    case 'createHold':
      return `POST /holds ${where} ${req.holdId} member=${req.memberId}${by(req.by)} amount=${req.amount}${req.expiresIn === undefined ? '' : ` expires_in=${req.expiresIn}`}`;
    case 'release':
      return `POST /holds/${req.holdId}/release ${where}`;
    case 'capture':
      return `POST /holds/${req.holdId}/capture ${where} {external_id: ${req.externalId}${req.redeemAmount === undefined ? '' : `, redeem_amount: ${req.redeemAmount}`}}`;
    case 'adjust':
      return `POST /members/${req.memberId}/adjustments ${where} amount=${req.amount}`;
    case 'visit':
      return `POST /visits ${where} member=${req.memberId}${by(req.by)}${req.externalId ? ` external_id=${req.externalId}` : ''}`;
    case 'reward':
      return `POST /members/${req.memberId}/rewards/redeem ${where}`;
    case 'lookup':
      return req.by === 'scan' ? `POST /scans ${where} code of ${req.memberId}` : `GET member ${req.memberId}${by(req.by)} ${keyName(req.key)}`;
    case 'enroll':
      return `POST /members ${where} ${req.memberId} (${req.program}) referred_by=${req.referredBy === null ? 'a code nobody has' : `the code of ${req.referredBy}`}${req.codeAs === 'exact' ? '' : ` (${req.codeAs})`}`;
  }
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
    case 'reward_redemption':
      return `${res.status} reward: stamps ${b.member?.stamps?.count}, rewards ${b.member?.stamps?.rewards_available}`;
    case 'member':
      return `${res.status} member balance=${b.balance} held=${b.held} available=${b.available} spend=${b.total_spend} visits=${b.visits}`;
    case 'scan':
      return `${res.status} scan: member balance=${b.member?.balance} available=${b.member?.available} visits=${b.member?.visits}`;
    default:
      return `${res.status} ${JSON.stringify(b).slice(0, 300)}`;
  }
}

const txText = (b: any) =>
  `${b.external_id} ${b.status} subtotal=${b.subtotal} redeemed=${b.redeemed} earned=${b.earned}${b.earn_capped ? ' (capped)' : ''} paid=${b.paid} refunded=${b.refunded_amount} refundable=${b.refundable}${b.stamps_earned ? ` stamps=${b.stamps_earned}` : ''}` +
  ` lines=[${(b.line_items ?? []).map((l: any) => `${l.amount}@${l.cashback_percent}%:-${l.redeemed}/+${l.earned}`).join(' ')}]` +
  `${b.campaigns?.length ? ` campaigns=[${b.campaigns.map((c: any) => c.amount).join(' ')}]` : ''}`;

const txViewText = (v: TxView) =>
  `${v.status} subtotal=${v.subtotal} redeemed=${v.redeemed} earned=${v.earned}${v.earnCapped ? ' (capped)' : ''} paid=${v.paid} refunded=${v.refundedAmount} refundable=${v.refundable}${v.stampsEarned ? ` stamps=${v.stampsEarned}` : ''}` +
  ` lines=[${v.lines.map((l) => `${l.amount}@${l.bp / 100}%:-${l.redeemed}/+${l.earned}`).join(' ')}]${v.campaigns.length ? ` campaigns=[${v.campaigns.map((c) => `${c.campaign} ${c.amount}`).join(' ')}]` : ''}`;

export function expectedText(e: Expected): string {
  switch (e.kind) {
    case 'error':
      return `${e.status} ${e.code}${e.param === undefined ? '' : ` param=${e.param}`}${Object.entries(e.details ?? {}).map(([k, v]) => ` ${k}=${v}`).join('')}${(e.or ?? []).map((o) => ` (or ${o.status} ${o.code})`).join('')}`;
    case 'transaction':
      return `${e.status}${e.replayed ? ' (replayed)' : ''} ${txViewText(e.tx)}${(e.referrers ?? []).map((r) => ` referrer ${r.member} ${r.amount > 0 ? '+' : ''}${r.amount} (${r.campaign})`).join('')}`;
    case 'calculation': {
      const c = e.calc;
      return `200 max_redeem=${c.maxRedeem} redeemed=${c.redeemed} earned=${c.earned}${c.earnCapped ? ' (capped)' : ''} stamps=${c.stampsEarned} paid=${c.paid} balance_after=${c.balanceAfter} available_after=${c.availableAfter}`;
    }
    case 'refund':
      return `${e.status}${e.replayed ? ' (replayed)' : ''} refund ${e.amount}: earned_reversed=${e.earnedReversed} redeemed_returned=${e.redeemedReturned}; check ${txViewText(e.tx)}`;
    case 'hold':
      return `${e.status} hold ${e.amount} ${e.holdStatus} at ${e.venue} expires_at=${new Date(e.expiresAt).toISOString()}`;
    case 'adjustment':
      return `201 adjustment ${e.amount}: balance=${e.balance} available=${e.available}`;
    case 'visit':
      return `${e.status}${e.replayed ? ' (replayed)' : ''} visit at ${e.venue} stamps_earned=${e.stampsEarned} (stamps ${e.stampsCount})`;
    case 'reward':
      return `201 reward: stamps ${e.stampsCount}, rewards ${e.rewardsAvailable}`;
    case 'member':
      return `${e.status} member ${e.member} balance=${e.view.balance} held=${e.view.held} available=${e.view.available} spend=${e.view.totalSpend} visits=${e.view.visits}`;
    case 'advanced':
      return 'ok';
  }
}
