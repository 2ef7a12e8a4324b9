// What the connector does with a completed Square payment or refund (D26): one check per order once its payments
// are all completed, at the location's venue, for the one member the customer names; a refund of that check.
import { mulDiv } from '../../modules/checks/calculation.js';
import { getTransaction } from '../../modules/checks/reads.js';
import { formatMoney } from '../../shared/display.js';
import { connectionCaller, venueOfLocation } from '../core/connection.js';
import { matchGuest } from '../core/matching.js';
import { openSettings } from '../core/service.js';
import type { Outcome, WorkContext } from '../core/queue.js';
import { findHandled, requeueWaiting, type IntegrationRow, type LogRow } from '../core/repo.js';
import { applyOnce, refundOnce } from '../core/writes.js';
import { SquareClient } from './client.js';
import { checkLines, isGiftCard } from './lines.js';
import { Payment, Refund, read, type Order } from './objects.js';

export const clientFor = (ctx: WorkContext, integration: IntegrationRow): SquareClient =>
  new SquareClient(ctx.squareApiUrl, openSettings(integration, ctx.secrets).access_token!, ctx.providerTimeoutMs);


/** A queued entry: `square.payment` or `square.refund`, with Square's object as the payload. */
export async function handleEntry(ctx: WorkContext, integration: IntegrationRow, entry: LogRow): Promise<Outcome> {
  if (entry.kind === 'square.refund') {
    const refund = read<Refund>(Refund, entry.payload?.refund, "The webhook's refund");
    return refund.ok ? handleRefund(ctx, integration, refund.value) : { outcome: 'bad_payload', message: refund.reason };
  }
  const payment = read<Payment>(Payment, entry.payload?.payment, "The webhook's payment");
  return payment.ok ? handlePayment(ctx, integration, payment.value) : { outcome: 'bad_payload', message: payment.reason };
}

async function handlePayment(ctx: WorkContext, integration: IntegrationRow, payment: Payment): Promise<Outcome> {
  const ids: Record<string, string> = { payment_id: payment.id, location_id: payment.location_id, ...(payment.order_id ? { order_id: payment.order_id } : {}) };
  const venueId = venueOfLocation(integration, payment.location_id);
  if (!venueId) return { outcome: 'unknown_location', message: `Square location ${payment.location_id} is not mapped to a venue: nothing applied.`, providerIds: ids };
  const now = ctx.clock.now();
  const caller = await connectionCaller(ctx.db, integration, venueId, now);
  if (!caller) return { outcome: 'unknown_location', message: `Square location ${payment.location_id} is mapped to a venue the chain no longer has.`, providerIds: ids };
  const square = clientFor(ctx, integration);

  const order = payment.order_id ? await square.order(payment.order_id) : undefined;
  if (payment.order_id && !order) return { outcome: 'failed', message: `Square has no order ${payment.order_id} for this payment.`, venueId, providerIds: ids };
  const pending = order ? await paymentsNotCompleted(square, order, payment) : [];
  if (pending.length) {
    return { outcome: 'waiting', message: `The order's other payments (${pending.join(', ')}) are not completed yet: the check is applied with the last one.`, venueId, providerIds: ids };
  }

  const customerId = payment.customer_id ?? order?.customer_id ?? order?.tenders?.find((t) => t.customer_id)?.customer_id;
  if (!customerId) return { outcome: 'unmatched_guest', message: 'The payment names no Square customer: it earns nothing.', venueId, providerIds: ids };
  const customer = await square.customer(customerId);
  const match = customer
    ? await matchGuest(ctx.db, caller, { phone: customer.phone_number, email: customer.email_address, cardNumber: customer.reference_id })
    : { kind: 'none' as const };
  const withCustomer = { ...ids, customer_id: customerId };
  if (match.kind === 'ambiguous') return { outcome: 'ambiguous_guest', message: `Square customer ${customerId} matches more than one member by ${match.by}: nothing applied.`, venueId, providerIds: withCustomer };
  if (match.kind === 'none') return { outcome: 'unmatched_guest', message: `No member matches Square customer ${customerId} (phone or card in reference_id).`, venueId, providerIds: withCustomer };

  // One check per order, numbered by the payment that completed it (the order's last tender), whichever event arrives.
  const tenders = (order?.tenders ?? []).map((t) => t.payment_id ?? t.id).filter((id): id is string => Boolean(id));
  const completing = tenders.at(-1) ?? payment.id;
  // What the guest paid Square besides gift cards, tips and tax included: a refund of part of it refunds that share
  // of the check. Gift cards paid the part that earned nothing, so a refund to one takes nothing back.
  const paidToSquare = order?.tenders?.length
    ? order.tenders.filter((t) => !isGiftCard(t)).reduce((sum, t) => sum + (t.amount_money?.amount ?? 0), 0)
    : payment.amount_money.amount + (payment.tip_money?.amount ?? 0);
  const giftCardPayments = (order?.tenders ?? []).filter(isGiftCard).map((t) => t.payment_id ?? t.id).filter(Boolean).join(',');
  const written = await applyOnce(
    ctx.db,
    caller,
    ctx.clock,
    { integration, keys: [...new Set([order ? `order:${order.id}` : `payment:${payment.id}`, ...[payment.id, ...tenders].map((p) => `payment:${p}`)])] },
    { external_id: `square:${completing}`, member_id: match.memberId, line_items: checkLines(order, payment), closed_at: order?.closed_at ?? payment.updated_at ?? payment.created_at },
    { source: 'square', metadata: { ...withCustomer, payment_id: completing, paid_to_square: String(paidToSquare), ...(giftCardPayments ? { gift_card_payments: giftCardPayments } : {}) } },
  );
  if (written.kind === 'handled_before') return { outcome: 'replayed', message: `Already applied as check ${written.externalId}: nothing changed.`, venueId, providerIds: withCustomer };
  if (written.kind === 'refused') return { outcome: 'failed', message: `Refused: ${written.error.message}`, venueId, providerIds: withCustomer };
  const t = written.value;
  await requeueWaiting(ctx.db, integration, 'square.refund', [...new Set([payment.id, ...tenders])], ctx.clock.now());
  return {
    outcome: 'applied',
    message: `Applied check ${t.external_id}: ${formatMoney(t.paid, caller.venue)} paid, ${t.earned} earned.`,
    venueId,
    transactionId: t.id,
    providerIds: withCustomer,
  };
}

/** The order's other payments that are not completed yet; none when Square says the order is paid. */
async function paymentsNotCompleted(square: SquareClient, order: Order, payment: Payment): Promise<string[]> {
  if (order.state === 'COMPLETED') return [];
  const others = (order.tenders ?? []).map((t) => t.payment_id ?? t.id).filter((id): id is string => Boolean(id) && id !== payment.id);
  const pending: string[] = [];
  for (const id of others) if ((await square.payment(id))?.status !== 'COMPLETED') pending.push(id);
  return pending;
}

async function handleRefund(ctx: WorkContext, integration: IntegrationRow, refund: Refund): Promise<Outcome> {
  const ids = { refund_id: refund.id, payment_id: refund.payment_id, location_id: refund.location_id };
  const check = await findHandled(ctx.db, integration.chain_id, integration.id, `payment:${refund.payment_id}`);
  // Its payment may still be queued (Square was down): the refund is queued again when that payment applies a check.
  if (!check) return { outcome: 'waiting', message: `Payment ${refund.payment_id} has applied no check here: the refund follows if it does.`, providerIds: ids };
  const caller = await connectionCaller(ctx.db, integration, check.venue_id, ctx.clock.now());
  if (!caller) return { outcome: 'unknown_location', message: 'The check\'s venue is no longer the chain\'s.', providerIds: ids };
  const applied = await getTransaction(ctx.db, caller, check.external_id);
  if (applied.metadata?.gift_card_payments?.split(',').includes(refund.payment_id)) {
    return { outcome: 'ignored', message: `A refund to a gift card: what it paid of check ${check.external_id} earned nothing, so nothing is taken back.`, venueId: check.venue_id, providerIds: ids };
  }
  const paidToSquare = Number(applied.metadata?.paid_to_square ?? applied.paid);
  const amount = paidToSquare > 0 ? mulDiv(refund.amount_money.amount, applied.paid, paidToSquare) : 0;
  if (amount === 0) return { outcome: 'ignored', message: `The refund's share of check ${check.external_id} is nothing.`, venueId: check.venue_id, providerIds: ids };
  const written = await refundOnce(ctx.db, caller, ctx.clock, { integration, keys: [`refund:${refund.id}`] }, check.external_id, {
    externalId: `square:${refund.id}`,
    amount,
  });
  if (written.kind === 'handled_before') return { outcome: 'replayed', message: `Already refunded as ${written.externalId}: nothing changed.`, venueId: check.venue_id, providerIds: ids };
  if (written.kind === 'refused') return { outcome: 'failed', message: `Refused: ${written.error.message}`, venueId: check.venue_id, providerIds: ids };
  const r = written.value;
  return {
    outcome: 'refunded',
    message: `Refunded ${formatMoney(r.amount, caller.venue)} of check ${check.external_id}: ${r.earned_reversed} earned taken back, ${r.redeemed_returned} redeemed given back.`,
    venueId: check.venue_id,
    transactionId: r.transaction.id,
    providerIds: ids,
  };
}
