// Square's objects as we read them (Square's published schemas, docs/integrations/square-reference.md): only the
// fields the connector uses are checked; the rest of what Square sends is left alone.
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { storable } from '../core/text.js';

const Money = Type.Object({ amount: Type.Integer(), currency: Type.String() });
export type Money = Static<typeof Money>;

export const Payment = Type.Object({
  id: Type.String({ minLength: 1 }),
  status: Type.String(),
  amount_money: Money,
  tip_money: Type.Optional(Money),
  location_id: Type.String({ minLength: 1 }),
  order_id: Type.Optional(Type.String()),
  customer_id: Type.Optional(Type.String()),
  receipt_number: Type.Optional(Type.String()),
  created_at: Type.String(),
  updated_at: Type.Optional(Type.String()),
});
export type Payment = Static<typeof Payment>;

export const Refund = Type.Object({
  id: Type.String({ minLength: 1 }),
  status: Type.String(),
  amount_money: Money,
  payment_id: Type.String({ minLength: 1 }),
  location_id: Type.String({ minLength: 1 }),
  created_at: Type.String(),
});
export type Refund = Static<typeof Refund>;

const LineItem = Type.Object({
  name: Type.Optional(Type.String()),
  quantity: Type.String(),
  catalog_object_id: Type.Optional(Type.String()),
  base_price_money: Type.Optional(Money),
  gross_sales_money: Type.Optional(Money),
  total_discount_money: Type.Optional(Money),
  total_money: Type.Optional(Money),
  total_tax_money: Type.Optional(Money),
  total_service_charge_money: Type.Optional(Money),
});
export type LineItem = Static<typeof LineItem>;

/** An exchange's or a return's item (Square's OrderReturnLineItem): a line item with its gross as `gross_return_money`. */
const ReturnLineItem = Type.Object({ ...LineItem.properties, gross_return_money: Type.Optional(Money) });
export type ReturnLineItem = Static<typeof ReturnLineItem>;

const Tender = Type.Object({
  id: Type.Optional(Type.String()),
  payment_id: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  amount_money: Type.Optional(Money),
  tip_money: Type.Optional(Money),
  customer_id: Type.Optional(Type.String()),
});

export const Order = Type.Object({
  id: Type.String({ minLength: 1 }),
  location_id: Type.String(),
  state: Type.Optional(Type.String()),
  customer_id: Type.Optional(Type.String()),
  line_items: Type.Optional(Type.Array(LineItem)),
  tenders: Type.Optional(Type.Array(Tender)),
  returns: Type.Optional(Type.Array(Type.Object({ return_line_items: Type.Optional(Type.Array(ReturnLineItem)) }))),
  closed_at: Type.Optional(Type.String()),
});
export type Order = Static<typeof Order>;

export const Customer = Type.Object({
  id: Type.String(),
  phone_number: Type.Optional(Type.String()),
  email_address: Type.Optional(Type.String()),
  reference_id: Type.Optional(Type.String()),
});
export type Customer = Static<typeof Customer>;

/** The webhook envelope of the four events the connector subscribes to. */
export const Event = Type.Object({
  event_id: Type.String({ minLength: 1 }),
  type: Type.String(),
  data: Type.Object({ object: Type.Optional(Type.Object({ payment: Type.Optional(Payment), refund: Type.Optional(Refund) })) }),
});
export type Event = Static<typeof Event>;

/**
 * What the log keeps of a provider's object: only the fields the connector reads (no card details, buyer e-mail or
 * addresses), and no text PostgreSQL cannot store (NUL, a lone surrogate), which Square's free text may hold.
 */
export function kept<T>(schema: TSchema, value: T): T {
  return storable(Value.Clean(schema, structuredClone(value))) as T;
}

/** `value` as `schema` says, or the first reason it is not (path and message, for the connection's log). */
export function read<T>(schema: TSchema, value: unknown, what: string): { ok: true; value: T } | { ok: false; reason: string } {
  if (Value.Check(schema, value)) return { ok: true, value: value as T };
  const first = Value.Errors(schema, value)[0];
  return { ok: false, reason: `${what} does not match Square's schema${first ? ` at ${first.instancePath || '/'}: ${first.message}` : ''}.` };
}
