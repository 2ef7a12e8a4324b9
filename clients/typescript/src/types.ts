// Names for the API's objects, derived from the operations of the generated schema (so they follow the document).
import type { components, operations, paths, webhooks } from './schema.js';

export type { components, operations, paths, webhooks };

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Operation> = Operation extends { responses: infer R } ? R : never;
type SuccessStatus = 200 | 201;

/** The JSON body of an operation's successful answer. */
export type ResponseOf<Operation> = JsonOf<Responses<Operation>[Extract<keyof Responses<Operation>, SuccessStatus>]>;
/** The JSON body an operation takes. */
export type RequestOf<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

export type Account = ResponseOf<operations['getAccount']>;
export type Member = ResponseOf<operations['getMember']>;
export type Scan = ResponseOf<operations['resolveScan']>;
export type CheckCalculation = ResponseOf<operations['calculateCheck']>;
export type Transaction = ResponseOf<operations['getTransaction']>;
export type Refund = ResponseOf<operations['refundTransaction']>;
export type Hold = ResponseOf<operations['getHold']>;
export type Event = ResponseOf<operations['getEvent']>;
/** What a webhook delivers, one type per event type (the document's `webhooks`), told apart by `type`. */
export type WebhookEvent = [DeliveredEvent] extends [never] ? Event : DeliveredEvent;
type DeliveredEvent = {
  [Type in keyof webhooks]: webhooks[Type] extends { post: { requestBody: { content: { 'application/json': infer Body } } } } ? Body : never;
}[keyof webhooks];
export type WebhookEndpoint = ResponseOf<operations['getWebhookEndpoint']>;
export type CheckRequest = RequestOf<operations['applyCheck']>;
export type LineItem = CheckRequest['line_items'][number];

/** The error envelope, as the document describes it for any refusal of a check. */
export type ErrorEnvelope = Extract<
  JsonOf<Responses<operations['applyCheck']>[Exclude<keyof Responses<operations['applyCheck']>, SuccessStatus>]>,
  { error: unknown }
>;
/** Every stable error code the API answers with (a string union once the document lists them). */
export type ErrorCode = ErrorEnvelope['error']['code'];
