// A Toast check's standing (D26): the check of ours that stands for it, and which REDEEM's redemption and which
// ACCRUE stand on it. REDEEM, ACCRUE and REVERSE of one Toast check take turns on it, and each replaces the check of
// ours in its own transaction: the old one voided, the new one applied, or neither.
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

export interface Standing {
  checkGuid: string;
  /** Whether a check of ours was ever applied for it (a later one is numbered with its transaction's GUID). */
  numbered: boolean;
  /** The check of ours that stands for it now; none once everything on it was reversed. */
  current: Transaction | undefined;
  /** The Toast transactions standing on it: the REDEEM whose redemption it carries, the ACCRUE that made it final. */
  redeemedBy: string | null;
  accruedBy: string | null;
}

/** The check as it should stand: its member, lines and redemption. */
export interface Wanted {
  memberId: string;
  lines: Line[];
  redeem: number;
}

const checkKey = (checkGuid: string) => `check:${checkGuid}`;

/** The Toast check's standing, read after taking its turn. */
export async function standingOf(call: ToastCall, checkGuid: string): Promise<Standing> {
  await repo.lockProviderObject(call.trx, call.integration, checkKey(checkGuid));
  const handled = await repo.findHandled(call.trx, call.integration.chain_id, call.integration.id, checkKey(checkGuid));
  const applied = handled ? await getTransaction(call.trx, call.caller, handled.external_id) : undefined;
  return {
    checkGuid,
    numbered: Boolean(handled),
    current: applied?.status === 'completed' ? applied : undefined,
    redeemedBy: handled?.state?.redeemed_by ?? null,
    accruedBy: handled?.state?.accrued_by ?? null,
  };
}

/** What `judge` answers with the Toast check's standing check voided, in a transaction rolled back after. */
export function asIfWithout<T>(call: ToastCall, checkGuid: string, judge: (call: ToastCall) => Promise<T>): Promise<T> {
  return asIf(call.trx, async (trx) => {
    const inside = { ...call, trx };
    const { current } = await standingOf(inside, checkGuid);
    if (current) await voidTransaction(trx, call.caller, current.external_id, undefined, call.ctx.clock);
    return judge(inside);
  });
}

/** A check's lines as they were applied, to apply them again. */
export const linesOf = (t: Transaction): Line[] =>
  t.line_items.map((l) => ({ ...(l.sku ? { sku: l.sku } : {}), name: l.name, quantity: l.quantity, unit_price: l.unit_price }));

const sameLines = (a: Line[], b: Line[]) => JSON.stringify(a.map((l) => [l.sku ?? null, l.name, l.quantity, l.unit_price])) === JSON.stringify(b.map((l) => [l.sku ?? null, l.name, l.quantity, l.unit_price]));

/** Whether `current` already is the check `wanted` describes. */
export const isWanted = (current: Transaction | undefined, wanted: Wanted | null): boolean =>
  wanted === null ? current === undefined : current !== undefined && current.member_id === wanted.memberId && current.redeemed === wanted.redeem && sameLines(linesOf(current), wanted.lines);

type Stands = { redeemedBy: string | null; accruedBy: string | null };

/** What `judge` answered, and the check that stands now (a refusal kept the current one). */
export interface Replaced<T> {
  value: T;
  applied: Transaction | undefined;
  refusal?: ApiError;
}

/**
 * Runs `judge` with the current check voided (its redemption and earning given back, so that what replaces it is
 * judged on the member's balance without it), then makes what it wants stand (null: nothing), with `stands` on it.
 * `keep`, or a refusal of the new check when `refused` is 'keep', leaves the current check standing after all.
 */
export async function replace<T>(
  call: ToastCall,
  standing: Standing,
  judge: () => Promise<{ wanted: Wanted | null | 'keep'; value: T }>,
  stands: Stands,
  refused: 'keep' | 'throw' = 'throw',
): Promise<Replaced<T>> {
  const { current } = standing;
  const replaced = await inSavepoint<Replaced<T> & { kept?: boolean }>(call.trx, async () => {
    if (current) await voidTransaction(call.trx, call.caller, current.external_id, undefined, call.ctx.clock);
    const { wanted, value } = await judge();
    if (wanted === 'keep') return { value: { value, applied: current, kept: true }, undo: true };
    if (isWanted(current, wanted)) return { value: { value, applied: current }, undo: true };
    try {
      return { value: { value, applied: wanted ? await apply(call, standing, wanted) : undefined }, undo: false };
    } catch (err) {
      if (refused === 'throw' || !(err instanceof ApiError)) throw err;
      return { value: { value, applied: current, refusal: err }, undo: true };
    }
  });
  const external = replaced.applied?.external_id ?? current?.external_id;
  if (external && !replaced.kept) await point(call, standing.checkGuid, external, replaced.applied ? stands : { redeemedBy: null, accruedBy: null });
  return replaced;
}

/** Applies the wanted check under the next number of the Toast check. */
async function apply(call: ToastCall, standing: Standing, wanted: Wanted): Promise<Transaction> {
  const externalId = standing.numbered ? `toast:${standing.checkGuid}:${call.guid}` : `toast:${standing.checkGuid}`;
  const metadata = { check_guid: standing.checkGuid, transaction_guid: call.guid, restaurant_id: call.restaurant };
  const body = { external_id: externalId, member_id: wanted.memberId, line_items: wanted.lines, ...(wanted.redeem ? { redeem_amount: wanted.redeem } : {}) };
  const { transaction } = await applyCheck(call.trx, call.caller, body, call.ctx, null, null, { source: 'toast', metadata });
  return transaction;
}

async function point(call: ToastCall, checkGuid: string, externalId: string, stands: Stands) {
  const state = { ...(stands.redeemedBy ? { redeemed_by: stands.redeemedBy } : {}), ...(stands.accruedBy ? { accrued_by: stands.accruedBy } : {}) };
  await repo.pointHandled(call.trx, {
    chain_id: call.integration.chain_id,
    integration_id: call.integration.id,
    provider_key: checkKey(checkGuid),
    venue_id: call.caller.venueId,
    external_id: externalId,
    state: Object.keys(state).length ? state : null,
  });
}
