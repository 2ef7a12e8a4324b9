// An applied check's whole row work, as bare SQL with nothing of the service around it: lock the member; one
// statement inserting the transaction, its two ledger rows, the event, one delivery and the idempotency record
// and moving the member's totals. BEGIN and COMMIT around them: four round trips.
import { randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

export const LOCK_MEMBER = 'select cashback, spend, visits from members where chain_id = $1 and id = $2 for update';

export const WRITE_CHECK = `
with t as (
  insert into transactions (chain_id, venue_id, id, external_id, register_key, member_id, status, line_items, subtotal, discount_amount,
    redeemed, earned, earn_capped, stamps_earned, paid, display, fingerprint, livemode, venue_day)
  values ($1, $19, $3, $4, '', $2, 'completed', $5::jsonb, $6, 0, 0, $7, false, 0, $6, $8::jsonb, $9, true, current_date)
  returning id
), l as (
  insert into ledger_entries (chain_id, venue_id, id, member_id, kind, cashback, spend, visits, reference, livemode)
  values ($1, $19, $10, $2, 'earn', $7, 0, 0, $4, true), ($1, $19, $11, $2, 'check', 0, $6, 1, $4, true)
), e as (
  insert into events (chain_id, venue_id, id, type, livemode, data, request_id, idempotency_key)
  values ($1, $19, $12, 'transaction.completed', true, $13::jsonb, $14, $15)
), d as (
  insert into webhook_deliveries (chain_id, venue_id, id, endpoint_id, event_id, status, next_attempt_at)
  values ($1, $19, $16, $17, $12, 'pending', now())
), i as (
  insert into idempotency_keys (chain_id, namespace, key, fingerprint, status_code, response_body)
  values ($1, $19, $15, $9, 201, $18::jsonb)
), m as (
  update members set cashback = cashback + $7, spend = spend + $6, visits = visits + 1 where chain_id = $1 and id = $2
)
select id from t`;

export interface Target {
  chainId: string;
  venueId: string;
  memberId: string;
  endpointId: string;
}

/** Members of the regular population, each at its home venue with that venue's webhook endpoint. */
export const TARGETS_SQL = `select m.chain_id, m.home_venue_id as venue_id, m.id as member_id, e.id as endpoint_id
  from members m join webhook_endpoints e on e.chain_id = m.chain_id and e.venue_id = m.home_venue_id where m.serial like 'BS%'`;

const line = (sku: string | null, name: string, category: string | null, price: number, earned: number) => ({
  sku,
  name,
  category,
  quantity: 1,
  unit_price: price,
  amount: price,
  earns_cashback: true,
  payable_with_cashback: true,
  cashback_percent: 3,
  redeemed: 0,
  earned,
  rule_source: sku ? 'product' : category ? 'category' : 'default',
});

/** The parameters of WRITE_CHECK: a 4-line check with JSON of the size the service writes. */
export function checkParams(target: Target, n: number, runId: string): unknown[] {
  const prices = [1200 + (n % 7) * 100, 450, 650, 300];
  const lines = [
    line('SKU-4', 'Product 4', 'food', prices[0]!, Math.floor(prices[0]! * 0.03)),
    line('SKU-5', 'Product 5', 'drinks', prices[1]!, Math.floor(prices[1]! * 0.02)),
    line(null, 'Cheesecake', 'desserts', prices[2]!, Math.floor(prices[2]! * 0.125)),
    line(null, 'Bread', null, prices[3]!, Math.floor(prices[3]! * 0.03)),
  ];
  const subtotal = prices.reduce((a, b) => a + b, 0);
  const earned = lines.reduce((a, l) => a + l.earned, 0);
  const externalId = `bare-${runId}-${n}`;
  const id = v7();
  const display = {
    cashier: 'Guest 42 · Member 3% · available €41.20 · up to €20.60 payable',
    receipt: [`Cashback earned: +€${(earned / 100).toFixed(2)}`, `To pay: €${(subtotal / 100).toFixed(2)}`, 'Cashback available: €41.81', 'Level: Member 3%'],
  };
  const now = new Date().toISOString();
  const transaction = {
    object: 'transaction',
    id,
    external_id: externalId,
    register_id: null,
    member_id: target.memberId,
    status: 'completed',
    line_items: lines,
    subtotal,
    discount_amount: 0,
    redeemed: 0,
    earned,
    earn_capped: false,
    stamps_earned: 0,
    paid: subtotal,
    refunded_amount: 0,
    refundable: subtotal,
    closed_at: null,
    hold_id: null,
    livemode: true,
    created_at: now,
    display,
  };
  const idempotencyKey = `bare-ik-${runId}-${n}`;
  return [
    target.chainId,
    target.memberId,
    id,
    externalId,
    JSON.stringify(transaction.line_items),
    subtotal,
    earned,
    JSON.stringify(display),
    randomBytes(32).toString('hex'),
    v7(),
    v7(),
    v7(),
    JSON.stringify({ object: transaction }),
    `req-${runId}-${n}`,
    idempotencyKey,
    v7(),
    target.endpointId,
    JSON.stringify(transaction),
    target.venueId,
  ];
}
