// A Toast check's standing (D26): what its standing REDEEM and ACCRUE did (their guest, lines and redemption), and
// the check of ours that stands for them. REDEEM, ACCRUE and REVERSE of one Toast check take turns on it, and each
// settles it in its own transaction: the check its standing wants applied in place of the old one, or neither.
import type { Db } from '../../db/database.js';
import { asIf, inSavepoint } from '../../db/transaction.js';
import { applyCheck, type CheckContext } from '../../flows/checks/apply.js';
import { voidTransaction } from '../../flows/checks/reverse.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import { getTransaction } from '../../modules/checks/reads.js';
import type { Transaction } from '../../modules/checks/schemas.js';
import { ApiError } from '../../shared/errors.js';
import type { Line } from '../core/lines.js';
import * as repo from '../core/repo.js';

export interface ToastCall {
  trx: Db;
  caller: PlaceCaller;
  ctx: CheckContext;
  integration: repo.IntegrationRow;
  guid: string;
  restaurant: string;
}

/** A check as a Toast transaction left it: its guest, lines and redemption (minor units), and when it happened. */
export interface Wanted {
  guid: string;
  memberId: string;
  lines: Line[];
  redeem: number;
  /** Applied again later, the check is judged as of then (campaigns, levels, the day's cap), not of the later call. */
  closedAt: string;
  /** A redemption: what each REDEEM standing on it listed (a later REDEEM lists the earlier ones' again). */
  listed?: Record<string, number>;
}

/** What stands on a Toast check: the REDEEM whose redemption it carries, the ACCRUE that made it final. */
export interface CheckState {
  redeemed: Wanted | null;
  accrued: Wanted | null;
}

export interface Standing {
  checkGuid: string;
  /** Whether a check of ours was ever applied for it (a later one is numbered with its transaction's GUID). */
  numbered: boolean;
  /** The check of ours that stands for it now; none once everything on it was reversed (or it was voided by hand). */
  current: Transaction | undefined;
  /** The number of the check of ours last applied for it, whatever became of it. */
  pointedAt: string | undefined;
  state: CheckState;
}

const checkKey = (checkGuid: string) => `check:${checkGuid}`;
const NOTHING: CheckState = { redeemed: null, accrued: null };

/** The Toast check's standing, read after taking its turn. */
export async function standingOf(call: ToastCall, checkGuid: string): Promise<Standing> {
  await repo.lockProviderObject(call.trx, call.integration, checkKey(checkGuid));
  const handled = await repo.findHandled(call.trx, call.integration.chain_id, call.integration.id, checkKey(checkGuid));
  const applied = handled ? await getTransaction(call.trx, call.caller, handled.external_id) : undefined;
  return {
    checkGuid,
    numbered: Boolean(handled),
    current: applied?.status === 'completed' ? applied : undefined,
    pointedAt: handled?.external_id,
    state: { ...NOTHING, ...(handled?.state as Partial<CheckState> | null) },
  };
}

/** What `judge` answers with the standing check voided (its redemption and earning given back), undone after. */
export function judgedWithout<T>(call: ToastCall, standing: Standing, judge: () => Promise<T>): Promise<T> {
  return inSavepoint(call.trx, async () => {
    if (standing.current) await voidTransaction(call.trx, call.caller, standing.current.external_id, undefined, call.ctx.clock);
    return { value: await judge(), undo: true };
  });
}

/** As `judgedWithout`, for a call outside a transaction (INQUIRE): in one rolled back after. */
export function asIfWithout<T>(call: ToastCall, checkGuid: string, judge: (call: ToastCall) => Promise<T>): Promise<T> {
  return asIf(call.trx, async (trx) => {
    const inside = { ...call, trx };
    return judgedWithout(inside, await standingOf(inside, checkGuid), () => judge(inside));
  });
}

/** What applies, and what stands after a settlement. */
export interface Settled {
  applied: Transaction | undefined;
  /** The check wanted first was refused, for this reason, and the next one stands instead. */
  refusal?: ApiError;
}

/**
 * Makes `state` the Toast check's standing: the check it wants (Toast's final check once ACCRUEd, else the one its
 * REDEEM took the redemption with, else none) in place of the current one. Where Toast's final check is refused
 * (its discount more than the program lets it be paid with, or than its guest has), the REDEEM's check stands
 * instead. With `orNothing` (a REVERSE, which must always take back), a check refused again leaves none standing;
 * without, the refusal goes on and nothing changes.
 */
export async function settle(call: ToastCall, standing: Standing, state: CheckState, orNothing = false): Promise<Settled> {
  const first = state.accrued ?? state.redeemed;
  const wanted = [first, ...(state.accrued && state.redeemed ? [state.redeemed] : []), ...(orNothing && first ? [null] : [])];
  let refusal: ApiError | undefined;
  for (const check of wanted) {
    try {
      const applied = await make(call, standing, check);
      const external = applied?.external_id ?? standing.pointedAt;
      if (external) await point(call, standing.checkGuid, external, state);
      return { applied, ...(refusal ? { refusal } : {}) };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      refusal = err;
    }
  }
  throw refusal;
}

/** A check's lines as they were applied. */
export const linesOf = (t: Transaction): Line[] =>
  t.line_items.map((l) => ({ ...(l.sku ? { sku: l.sku } : {}), name: l.name, quantity: l.quantity, unit_price: l.unit_price }));

const shapeOf = (lines: Line[]) => JSON.stringify(lines.map((l) => [l.sku ?? null, l.name, l.quantity, l.unit_price]));

/** Whether `current` already is the check `wanted` describes. */
const isWanted = (current: Transaction | undefined, wanted: Wanted | null): boolean =>
  wanted === null ? current === undefined : current !== undefined && current.member_id === wanted.memberId && current.redeemed === wanted.redeem && shapeOf(linesOf(current)) === shapeOf(wanted.lines);

/** `wanted` in place of the current check (the same check: nothing written), both or neither. */
async function make(call: ToastCall, standing: Standing, wanted: Wanted | null): Promise<Transaction | undefined> {
  const { current } = standing;
  if (isWanted(current, wanted)) return current;
  return inSavepoint(call.trx, async () => {
    if (current) await voidTransaction(call.trx, call.caller, current.external_id, undefined, call.ctx.clock);
    return { value: wanted ? await apply(call, standing, wanted) : undefined, undo: false };
  });
}

/** Applies the wanted check under the next number of the Toast check. */
async function apply(call: ToastCall, standing: Standing, wanted: Wanted): Promise<Transaction> {
  const externalId = standing.numbered ? `toast:${standing.checkGuid}:${call.guid}` : `toast:${standing.checkGuid}`;
  const metadata = { check_guid: standing.checkGuid, transaction_guid: call.guid, restaurant_id: call.restaurant };
  const body = { external_id: externalId, member_id: wanted.memberId, line_items: wanted.lines, closed_at: wanted.closedAt, ...(wanted.redeem ? { redeem_amount: wanted.redeem } : {}) };
  const { transaction } = await applyCheck(call.trx, call.caller, body, call.ctx, null, null, { source: 'toast', metadata });
  return transaction;
}

async function point(call: ToastCall, checkGuid: string, externalId: string, state: CheckState) {
  await repo.pointHandled(call.trx, {
    chain_id: call.integration.chain_id,
    integration_id: call.integration.id,
    provider_key: checkKey(checkGuid),
    venue_id: call.caller.venueId,
    external_id: externalId,
    state: state.redeemed || state.accrued ? { ...state } : null,
  });
}
