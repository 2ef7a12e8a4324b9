// Toast's Loyalty Integration endpoint (D26): POST /integrations/toast/<integration id>. Every answer is Toast's
// (transactionStatus), never our envelope: a wrong credential 400 ERROR_INVALID_TOKEN, an unknown restaurant 400
// ERROR_INVALID_RESTAURANT, what fails on our side 500 ERROR. A write's answer is kept under its
// Toast-Transaction-GUID and loyalty identifier, in the transaction that makes the change: a retry gets it back.
import type { App } from '../../http/context.js';
import { inTransaction } from '../../db/transaction.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { connectionCaller, venueOfLocation } from '../core/connection.js';
import { addEntry } from '../core/queue.js';
import * as repo from '../core/repo.js';
import { openSettings } from '../core/service.js';
import { accept, failed, refused, TOAST_TYPES, type ToastAnswer, type ToastType } from './answers.js';
import { toastAuthorised } from './auth.js';
import { ToastTransaction, informationOf } from './request.js';
import * as transactions from './transactions.js';

const Params = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;
const WRITES: readonly ToastType[] = ['LOYALTY_REDEEM', 'LOYALTY_ACCRUE', 'LOYALTY_REVERSE', 'LOYALTY_SIGNUP'];

export async function toastRoutes(app: App): Promise<void> {
  const { db, clock, secretBox } = app.deps;
  // Toast's body is read here, so that a body that is not JSON is answered in Toast's terms too.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.post<{ Params: { id: string }; Body: string | undefined }>('/integrations/toast/:id', { schema: { hide: true, params: Params } }, async (req, reply) => {
    const integration = isUuid(req.params.id) ? await repo.findIntegrationById(db, req.params.id) : undefined;
    if (!integration || integration.provider !== 'toast') throw new ApiError('integration_not_found');
    const now = clock.now();
    const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    const send = (answer: ToastAnswer) => reply.code(answer.status).send(answer.body);
    const note = (outcome: 'bad_signature' | 'bad_payload', message: string) =>
      addEntry(db, integration, { kind: 'toast.request', providerIds: guidOf(header), dedupKey: null, subject: null, payload: null, queued: false, outcome, message }, now);

    let settings: Record<string, string>;
    try {
      settings = openSettings(integration, secretBox);
    } catch (err) {
      return send(failed((err as Error).message));
    }
    if (!(await toastAuthorised(settings, header('authorization')))) {
      await note('bad_signature', 'A call without this connection\'s credential was refused (400 ERROR_INVALID_TOKEN).');
      return send(refused('ERROR_INVALID_TOKEN'));
    }
    const type = header('toast-transaction-type') as ToastType | undefined;
    const parsed = ToastTransaction.read(req.body);
    if (!parsed.ok) {
      await note('bad_payload', parsed.reason);
      return send(refused('ERROR_INVALID_INPUT_PROPERTIES'));
    }
    if (!type || !TOAST_TYPES.includes(type) || parsed.value.toastTransactionType !== type) return send(refused('ERROR_INVALID_TOAST_TRANSACTION_TYPE'));
    const restaurant = header('toast-restaurant-external-id');
    const venueId = venueOfLocation(integration, mappedRestaurant(integration, restaurant));
    const caller = venueId && integration.status === 'active' ? await connectionCaller(db, integration, venueId, now) : undefined;
    if (!caller || !restaurant) return send(refused('ERROR_INVALID_RESTAURANT'));
    const guid = header('toast-transaction-guid');
    if (!guid || guid.length > 64) return send(refused('ERROR_INVALID_INPUT_PROPERTIES'));
    if (type === 'LOYALTY_TRANSFER') return send(refused('ERROR_INVALID_TRANSFER'));

    const info = informationOf(parsed.value);
    const call = (trx: typeof db) => ({ trx, caller, ctx: { clock, scanWindowSeconds: 0 }, integration, guid, restaurant });
    try {
      if (!WRITES.includes(type)) {
        return send(type === 'LOYALTY_SEARCH' ? await transactions.search(call(db), info.search) : await transactions.inquire(call(db), info.check!));
      }
      return send(await once(app, integration, type, guid, info.identifier, (trx) => write(call(trx), type, info)));
    } catch (err) {
      const refusal = transactions.refusalOf(err);
      if (refusal) return send(refusal.answer);
      req.log.error({ err }, 'Toast transaction failed');
      return send(failed('The loyalty service could not complete this transaction; it can be sent again.'));
    }
  });
}

/** The connection's key for Toast's restaurant GUID: a GUID is the same whatever the case of its letters. */
const mappedRestaurant = (integration: repo.IntegrationRow, restaurant: string | undefined) =>
  restaurant === undefined ? undefined : Object.keys(integration.locations).find((key) => key.toLowerCase() === restaurant.toLowerCase());

const guidOf = (header: (name: string) => string | undefined): Record<string, string> => {
  const guid = header('toast-transaction-guid');
  return guid ? { transaction_guid: guid.slice(0, 64) } : {};
};

type Information = ReturnType<typeof informationOf>;

async function write(call: transactions.ToastCall, type: ToastType, info: Information): Promise<transactions.Done> {
  switch (type) {
    case 'LOYALTY_REDEEM':
      return transactions.redeem(call, info.check!);
    case 'LOYALTY_ACCRUE':
      return transactions.accrue(call, info.check!);
    case 'LOYALTY_REVERSE':
      return transactions.reverse(call, info.reverse!);
    default: {
      const { answer, memberId } = await transactions.signup(call, info.signup!);
      return { answer, outcome: 'applied', message: `Enrolled member ${memberId}.` };
    }
  }
}

/**
 * Does a write once per Toast-Transaction-GUID and loyalty identifier: its log entry is claimed first (a retry racing
 * the first waits on the claim's unique key, then reads the answer kept with it), the write and its answer commit
 * together; a refusal is kept too, so its retry is refused alike, but for a REVERSE of a transaction not found yet.
 */
async function once(
  app: App,
  integration: repo.IntegrationRow,
  type: ToastType,
  guid: string,
  identifier: string | null,
  write: (trx: typeof app.deps.db) => Promise<transactions.Done>,
): Promise<ToastAnswer> {
  const { db, clock } = app.deps;
  const kind = `toast.${type.slice('LOYALTY_'.length).toLowerCase()}`;
  const dedupKey = `toast:${guid}:${identifier ?? ''}`;
  const entry = { kind, providerIds: { transaction_guid: guid }, dedupKey, subject: `toast-transaction:${guid}`, queued: false };
  try {
    // Two Toast checks moving between two guests at once can deadlock on the guests' rows: the loser runs again.
    return await inTransaction(db, async (trx) => {
      const claimed = await addEntry(trx, integration, { ...entry, payload: null, outcome: 'queued' }, clock.now());
      if (!claimed) throw new Answered();
      const done = await write(trx);
      await repo.settleLogEntry(trx, claimed, {
        outcome: done.outcome,
        message: done.message,
        next_attempt_at: null,
        venue_id: null,
        transaction_id: done.transactionId ?? null,
        provider_ids: { transaction_guid: guid, ...(done.checkGuid ? { check_guid: done.checkGuid } : {}), ...(done.externalId ? { external_id: done.externalId } : {}) },
        updated_at: clock.now(),
      });
      await repo.keepAnswer(trx, claimed, done.answer);
      return done.answer;
    });
  } catch (err) {
    if (err instanceof Answered) return (await repo.keptAnswer(db, integration, dedupKey)) ?? accept();
    const refusal = transactions.refusalOf(err);
    if (!refusal) throw err;
    // A REVERSE can arrive while the transaction it names still runs: its retry (same GUID) must look again.
    if (refusal.answer.body.transactionStatus === 'ERROR_TRANSACTION_DOES_NOT_EXIST') return refusal.answer;
    const kept = await addEntry(db, integration, { ...entry, payload: null, outcome: 'failed', message: `Refused: ${refusal.answer.body.transactionStatus}` }, clock.now());
    if (kept) await repo.keepAnswer(db, kept, refusal.answer);
    else return (await repo.keptAnswer(db, integration, dedupKey)) ?? refusal.answer;
    return refusal.answer;
  }
}

class Answered extends Error {}
