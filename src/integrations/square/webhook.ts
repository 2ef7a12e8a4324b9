// Square's webhook endpoint (D26): POST /integrations/square/<integration id>. A signed payment or refund that is
// completed is queued and answered 200 at once (Square retries anything else for 72 hours); a bad signature is 401
// and changes nothing but a log line; an unknown connection is 404. The work happens in the queue (handle.ts).
import type { App } from '../../http/context.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { addEntry, announceQueued } from '../core/queue.js';
import { findIntegrationById, type IntegrationRow } from '../core/repo.js';
import { endpointUrlOf, openSettings, SecretsUnreadable } from '../core/service.js';
import { storable } from '../core/text.js';
import { Event, Payment, Refund, kept, read } from './objects.js';
import { squareSignatureValid } from './signature.js';

const SIGNATURE_HEADER = 'x-square-hmacsha256-signature';
const HANDLED_EVENTS = new Set(['payment.created', 'payment.updated', 'refund.created', 'refund.updated']);
const Params = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

export async function squareWebhookRoutes(app: App): Promise<void> {
  const { db, clock, secretBox, config } = app.deps;
  // The signature covers the body's exact bytes: this route reads them as text and parses them itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.post<{ Params: { id: string }; Body: string | undefined }>('/integrations/square/:id', { schema: { hide: true, params: Params } }, async (req, reply) => {
    const integration = isUuid(req.params.id) ? await findIntegrationById(db, req.params.id) : undefined;
    if (!integration || integration.provider !== 'square') throw new ApiError('integration_not_found');
    const raw = req.body ?? '';
    const now = clock.now();
    const url = endpointUrlOf(config.publicBaseUrl, 'square', integration.id);
    const signatureKey = signatureKeyOf(integration, secretBox);
    if (typeof signatureKey !== 'string' || !squareSignatureValid(signatureKey, url, raw, req.headers[SIGNATURE_HEADER] as string | undefined)) {
      const why = typeof signatureKey === 'string' ? `A request without a valid ${SIGNATURE_HEADER} was refused (401).` : `${signatureKey.message} Refused with 401 until it can: Square sends it again.`;
      await addEntry(db, integration, { kind: 'square.webhook', providerIds: {}, dedupKey: null, subject: null, payload: null, queued: false, outcome: 'bad_signature', message: why }, now);
      throw new ApiError('signature_invalid', { message: `The ${SIGNATURE_HEADER} header does not match this connection's signature key and URL.` });
    }
    await queueEvent(app, integration, raw, now);
    return reply.code(200).send({ received: true });
  });
}

/** The connection's signature key, or why there is none to check with (never a 500 to Square). */
function signatureKeyOf(integration: IntegrationRow, box: Parameters<typeof openSettings>[1]): string | Error {
  try {
    return openSettings(integration, box).webhook_signature_key ?? new Error("The connection has no webhook signature key yet: set the subscription's key.");
  } catch (err) {
    if (err instanceof SecretsUnreadable) return err;
    throw err;
  }
}

/** A completed payment or refund queued once per Square event id; anything else acknowledged and left alone. */
async function queueEvent(app: App, integration: IntegrationRow, raw: string, now: Date): Promise<void> {
  const { db } = app.deps;
  let parsed: unknown;
  try {
    parsed = storable(JSON.parse(raw));
  } catch {
    parsed = undefined;
  }
  const event = read<Event>(Event, parsed, 'The webhook');
  if (!event.ok) {
    await addEntry(db, integration, { kind: 'square.webhook', providerIds: {}, dedupKey: null, subject: null, payload: null, queued: false, outcome: 'bad_payload', message: event.reason }, now);
    return;
  }
  const { type, event_id: eventId, data } = event.value;
  if (!HANDLED_EVENTS.has(type)) return;
  const payment = data.object?.payment;
  const refund = data.object?.refund;
  const object = type.startsWith('payment.') ? payment : refund;
  if (!object) {
    await addEntry(db, integration, { kind: 'square.webhook', providerIds: { event_id: eventId }, dedupKey: null, subject: null, payload: null, queued: false, outcome: 'bad_payload', message: `A ${type} event without its ${type.split('.')[0]} object.` }, now);
    return;
  }
  // Only what is completed earns or refunds; Square sends the same payment again when it completes.
  if (object.status !== 'COMPLETED') return;
  const kind = payment ? 'square.payment' : 'square.refund';
  const providerIds: Record<string, string> = payment
    ? { event_id: eventId, payment_id: payment.id, location_id: payment.location_id, ...(payment.order_id ? { order_id: payment.order_id } : {}) }
    : { event_id: eventId, refund_id: refund!.id, payment_id: refund!.payment_id, location_id: refund!.location_id };
  const added = await addEntry(
    db,
    integration,
    { kind, providerIds, dedupKey: `event:${eventId}`, subject: `${kind.slice(7)}:${object.id}`, payload: payment ? { payment: kept(Payment, payment) } : { refund: kept(Refund, refund!) }, queued: true },
    now,
  );
  if (added) announceQueued();
}
