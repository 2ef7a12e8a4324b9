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

/** The body of every refusal: `{ error, request_id }`. */
export type ErrorEnvelope = components['schemas']['Error'];
/** The envelope's `error`: one type per code that adds fields (`refundable`, `available`, …), told apart by `code`. */
export type ErrorObject = ErrorEnvelope['error'];
/** Every stable error code the API answers with. */
export type ErrorCode = ErrorObject['code'];
/** The `error` of one code, with the fields that code adds: `ErrorObjectOf<'refund_exceeds_check'>['refundable']`. */
export type ErrorObjectOf<Code extends ErrorCode> = ErrorObject extends infer Member
  ? Member extends { code: infer Codes }
    ? Code extends Codes
      ? Member & { code: Code }
      : never
    : never
  : never;
