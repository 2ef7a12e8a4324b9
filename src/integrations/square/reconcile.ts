// Square's reconciliation pass (D26), every SQUARE_RECONCILE_INTERVAL: each mapped location's completed payments and
// refunds changed since the last pass (by updated_at: one captured late is found too) are listed, and those the connection's log has never seen are queued, as a webhook's
// would be. What the webhooks delivered is left alone; a pass that fails leaves its window to the next.
import type { WorkContext } from '../core/queue.js';
import { addEntry } from '../core/queue.js';
import * as repo from '../core/repo.js';
import { clientFor } from './handle.js';
import { Payment, Refund, kept } from './objects.js';

/** Square lists a payment some seconds after it happens: a pass stops this far short of now, the next covers it. */
const SETTLING_MS = 60_000;
/** A card authorisation is captured within a week at most (Square's delayed capture): how far back a payment changed in a window may have been created. */
const CAPTURE_WINDOW_MS = 7 * 24 * 3600_000;

export async function reconcile(ctx: WorkContext, integration: repo.IntegrationRow): Promise<void> {
  const square = clientFor(ctx, integration);
  const end = new Date(ctx.clock.now().getTime() - SETTLING_MS).toISOString();
  const covered: Record<string, string> = { ...integration.reconciled_until };
  for (const location of Object.keys(integration.locations)) {
    const begin = covered[location] ?? integration.created_at.toISOString();
    if (begin >= end) continue;
    const window = { begin, end, createdSince: new Date(Date.parse(begin) - CAPTURE_WINDOW_MS).toISOString() };
    for await (const payment of square.completed('payments', location, window)) await queueUnseen(ctx, integration, 'payment', payment);
    for await (const refund of square.completed('refunds', location, window)) await queueUnseen(ctx, integration, 'refund', refund);
    covered[location] = end;
    await repo.updateIntegration(ctx.db, integration.chain_id, integration.id, { reconciled_until: JSON.stringify(covered) });
  }
}

async function queueUnseen(ctx: WorkContext, integration: repo.IntegrationRow, what: 'payment' | 'refund', object: Payment | Refund): Promise<void> {
  const subject = `${what}:${object.id}`;
  if (await repo.hasSubject(ctx.db, integration.chain_id, integration.id, subject)) return;
  if (await repo.findHandled(ctx.db, integration.chain_id, integration.id, subject)) return;
  const providerIds: Record<string, string> =
    what === 'payment'
      ? { payment_id: object.id, location_id: object.location_id, ...((object as Payment).order_id ? { order_id: (object as Payment).order_id! } : {}) }
      : { refund_id: object.id, payment_id: (object as Refund).payment_id, location_id: object.location_id };
  await addEntry(
    ctx.db,
    integration,
    { kind: `square.${what}`, providerIds, dedupKey: `reconciled:${subject}`, subject, payload: { [what]: kept(what === 'payment' ? Payment : Refund, object) }, queued: true, message: 'Found by the reconciliation pass.' },
    ctx.clock.now(),
  );
}
