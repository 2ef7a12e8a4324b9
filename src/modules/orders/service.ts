// Table orders: placed by guests from the QR menu at server prices, moved through the D14 states by the till.
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller, PlaceCaller } from '../accounts/schemas.js';
import * as accounts from '../accounts/service.js';
import * as menu from '../menu/service.js';
import { recordEvent } from '../webhooks/events.js';
import * as repo from './repo.js';
import { NEXT_STATUSES, type MoveOrder, type Order, type OrderStatus, type PlaceOrder } from './schemas.js';

function present(row: repo.OrderRow): Order {
  return {
    object: 'order',
    id: row.id,
    table_code: row.table_code,
    table_name: row.table_name,
    venue_id: row.venue_id,
    status: row.status,
    status_reason: row.status_reason,
    items: row.items,
    subtotal: Number(row.subtotal),
    comment: row.comment,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

/**
 * A guest's order from the QR menu. Prices come from the menu, never from the guest; unknown dishes and dishes
 * on the stop list are refused by name. The order and its order.created event commit together.
 */
export async function placeOrder(trx: Db, venueSlug: string, input: PlaceOrder): Promise<Order> {
  const venue = await accounts.findVenueBySlug(trx, venueSlug);
  if (!venue) throw new ApiError('menu_not_found');
  const place = accounts.placeOf(venue);
  const table = await menu.findTable(trx, place, input.table_code);
  if (!table) throw new ApiError('table_not_found', { param: 'table_code' });

  const wanted = [...new Set(input.items.map((i) => i.external_id))];
  const dishes = new Map((await menu.dishesBySku(trx, place, wanted)).map((d) => [d.external_id, d]));
  const unknownIndex = input.items.findIndex((i) => !dishes.has(i.external_id));
  if (unknownIndex >= 0) {
    const unknown = wanted.filter((id) => !dishes.has(id));
    throw new ApiError('parameter_invalid', {
      param: `items[${unknownIndex}].external_id`,
      message: `Not on this menu: ${unknown.join(', ')}.`,
    });
  }
  const stopped = wanted.filter((id) => !dishes.get(id)!.available);
  if (stopped.length) {
    const names = stopped.map((id) => `${dishes.get(id)!.name} (${id})`).join(', ');
    throw new ApiError('dish_unavailable', { message: `Not available right now: ${names}.`, details: { external_ids: stopped } });
  }

  const items = input.items.map((i) => {
    const dish = dishes.get(i.external_id)!;
    return { external_id: i.external_id, name: dish.name, quantity: i.quantity, unit_price: dish.price, amount: dish.price * i.quantity, note: i.note ?? null };
  });
  const row = await repo.insertOrder(trx, {
    chain_id: place.chainId,
    venue_id: place.venueId,
    id: newId(),
    table_code: table.tableCode,
    table_name: table.name,
    status: 'new',
    status_reason: null,
    items: JSON.stringify(items),
    subtotal: items.reduce((sum, i) => sum + i.amount, 0),
    comment: input.comment ?? null,
    // Guests' orders are real: there is no test key behind them.
    livemode: true,
  });
  const order = present(row);
  await recordEvent(trx, { ...place, type: 'order.created', livemode: true, object: order, request: null });
  return order;
}

async function owned(db: Db, caller: PlaceCaller, id: string, forUpdate = false): Promise<repo.OrderRow> {
  const row = isUuid(id) ? await repo.findOrder(db, caller, id, forUpdate) : undefined;
  if (!row) throw new ApiError('order_not_found');
  return row;
}

export async function getOrder(db: Db, caller: PlaceCaller, id: string): Promise<Order> {
  return present(await owned(db, caller, id));
}

export async function listOrders(db: Db, caller: Caller, page: Page, filter: { status?: string; created_after?: string }): Promise<List<Order>> {
  await checkCursor(page, (cursor) => repo.findOrder(db, caller, cursor));
  const rows = await repo.listOrders(db, caller, page, { status: filter.status, createdAfter: filter.created_after });
  return toList('/v1/orders', page, rows, present);
}

/** Moves an order along the state graph; the row lock makes two concurrent moves take turns, so only one wins. */
export async function moveOrder(trx: Db, caller: PlaceCaller, id: string, input: MoveOrder): Promise<Order> {
  const row = await owned(trx, caller, id, true);
  const from = row.status as OrderStatus;
  if (!NEXT_STATUSES[from].includes(input.status)) {
    const allowed = NEXT_STATUSES[from];
    throw new ApiError('invalid_status_transition', {
      param: 'status',
      message: allowed.length
        ? `An order cannot move from ${from} to ${input.status}; from ${from} it can move to ${allowed.join(', ')}.`
        : `An order cannot move from ${from} to ${input.status}: a ${from} order is final.`,
      details: { status: from, requested_status: input.status },
    });
  }
  return present(await repo.setStatus(trx, caller, id, input.status, input.reason ?? null));
}
