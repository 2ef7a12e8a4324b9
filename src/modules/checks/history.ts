// The owner's view of past transactions: the filtered list, one transaction by id, the registers seen, and the CSV export.
import type { Db } from '../../db/database.js';
import { csvLines, decimal } from '../../shared/csv.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatNullableTimestamp, formatTimestamp, isCalendarDay } from '../../shared/time.js';
import type { PlaceCaller } from '../accounts/schemas.js';
import * as members from '../members/service.js';
import * as historyRepo from './history-repo.js';
import type { Transaction } from './schemas.js';
import { presentTransaction } from './view.js';

export type HistoryFilter = historyRepo.HistoryFilter;

/** A CSV export stops here: beyond it the owner narrows the dates (the answer says so in a header). */
export const CSV_MAX_ROWS = 50_000;
const CSV_BATCH = 1000;

function checkDays(filter: HistoryFilter): void {
  for (const [param, day] of [['from', filter.fromDay], ['to', filter.toDay]] as const) {
    if (day !== undefined && !isCalendarDay(day)) {
      throw new ApiError('parameter_invalid', { param, message: `${param} must be a date, YYYY-MM-DD.` });
    }
  }
  if (filter.fromDay && filter.toDay && filter.fromDay > filter.toDay) {
    throw new ApiError('parameter_invalid', { param: 'to', message: 'to must not be before from.' });
  }
}

/** Who a transaction's member is, as a list shows them: name and first card (null once the member is gone). */
export interface MemberSummary {
  id: string;
  name: string | null;
  card_number: string | null;
}
export type TransactionWithMember = Transaction & { member: MemberSummary | null };

/** Adds each transaction's member summary, one look-up per distinct member through the members service. */
async function withMembers(db: Db, caller: PlaceCaller, txs: Transaction[]): Promise<TransactionWithMember[]> {
  const ids = [...new Set(txs.map((t) => t.member_id).filter((id): id is string => id !== null))];
  const found = new Map<string, MemberSummary>();
  for (const id of ids) {
    try {
      const m = await members.getMember(db, caller, id);
      found.set(id, { id, name: m.name, card_number: m.card_numbers[0] ?? m.serial });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return txs.map((t) => ({ ...t, member: t.member_id ? (found.get(t.member_id) ?? null) : null }));
}

export async function listHistory(db: Db, caller: PlaceCaller, page: Page, filter: HistoryFilter, url: string): Promise<List<TransactionWithMember>> {
  checkDays(filter);
  await checkCursor(page, (id) => historyRepo.findById(db, caller, id));
  const list = toList(url, page, await historyRepo.listFiltered(db, caller, page, filter), presentTransaction);
  return { ...list, data: await withMembers(db, caller, list.data) };
}

/** One transaction by its id; another venue's id answers like an unknown one. */
export async function transactionById(db: Db, caller: PlaceCaller, id: string): Promise<TransactionWithMember> {
  const row = isUuid(id) ? await historyRepo.findById(db, caller, id) : undefined;
  if (!row) throw new ApiError('transaction_not_found', { message: 'No transaction with this id at this venue.' });
  return (await withMembers(db, caller, [presentTransaction(row)]))[0]!;
}

/**
 * How a till names this check (by id, at the caller's venue) to void or refund it: its number, the register scope it
 * was numbered in and its mode. Another venue's id answers like an unknown one.
 */
export async function reversalTarget(db: Db, caller: PlaceCaller, id: string): Promise<{ externalId: string; registerId: string | undefined; livemode: boolean; status: 'completed' | 'voided' }> {
  const row = isUuid(id) ? await historyRepo.findById(db, caller, id) : undefined;
  if (!row) throw new ApiError('transaction_not_found', { message: 'No transaction with this id at this venue.' });
  // register_key is '' when the check was numbered per venue, else its register: the look-up finds exactly this row.
  return { externalId: row.external_id, registerId: row.register_key === '' ? undefined : row.register_key, livemode: row.livemode, status: row.status };
}

export async function registerIds(db: Db, caller: PlaceCaller): Promise<string[]> {
  return historyRepo.registerIds(db, caller);
}

const CSV_COLUMNS = [
  'created_at',
  'closed_at',
  'external_id',
  'register_id',
  'member_id',
  'status',
  'mode',
  'currency',
  'subtotal',
  'discount',
  'redeemed',
  'earned',
  'paid',
  'refunded',
  'lines',
  'id',
] as const;

/** The filtered list as CSV, newest first, amounts in the currency's unit; `truncated` when CSV_MAX_ROWS cut it. */
export async function exportCsv(db: Db, caller: PlaceCaller, filter: HistoryFilter): Promise<{ csv: string; rows: number; truncated: boolean }> {
  checkDays(filter);
  const money = (m: number) => decimal(m, caller.venue.currency);
  const rows: (string | number | null)[][] = [];
  const file = (truncated: boolean) => ({ csv: csvLines([[...CSV_COLUMNS], ...rows]), rows: rows.length, truncated });
  let startingAfter: string | undefined;
  for (;;) {
    const batch = await historyRepo.listFiltered(db, caller, { limit: CSV_BATCH, startingAfter }, filter);
    for (const row of batch.slice(0, CSV_BATCH)) {
      if (rows.length === CSV_MAX_ROWS) return file(true);
      const t = presentTransaction(row);
      rows.push([
        formatTimestamp(t.created_at),
        formatNullableTimestamp(t.closed_at),
        t.external_id,
        t.register_id,
        t.member_id,
        t.status,
        t.livemode ? 'live' : 'test',
        caller.venue.currency,
        money(t.subtotal),
        money(t.discount_amount),
        money(t.redeemed),
        money(t.earned),
        money(t.paid),
        money(t.refunded_amount),
        t.line_items.length,
        t.id,
      ]);
    }
    if (batch.length <= CSV_BATCH) break;
    startingAfter = batch[CSV_BATCH - 1]!.id;
  }
  return file(false);
}
