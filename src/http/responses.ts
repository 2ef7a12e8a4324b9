// Response schemas shared by every route: the error envelope, added to each route's success responses, and the
// marker for a schema the document shows more precisely than the route checks it.
import { Type, type TProperties, type TSchema } from 'typebox';
import { BulkItemError } from '../shared/bulk.js';
import { ERROR_CODES, type ErrorCode } from '../shared/errors.js';

const SHOWN_AS = Symbol('shownAs');

/**
 * A schema that the route checks loosely on purpose (a bulk sync reports every bad item at once; an event's or a
 * program's object is written by code, not read from a request; a rule the service answers in its own words and
 * order, such as enrolment's `consent: true`) and the OpenAPI document shows as `shown`, for client generators.
 * The mark is a symbol, so validation and serialisation never see it; src/http/openapi.ts swaps it in.
 */
export function shownAs<T extends TSchema>(checked: T, shown: TSchema): T {
  Object.defineProperty(checked, SHOWN_AS, { value: shown, enumerable: false });
  return checked;
}

/** The schema as the document shows it (see shownAs), or undefined when it is shown as it is checked. */
export const shownSchemaOf = (schema: object): TSchema | undefined => (schema as { [SHOWN_AS]?: TSchema })[SHOWN_AS];

/** `transaction.refunded` → `TransactionRefunded`, `refund_exceeds_check` → `RefundExceedsCheck`: schema titles. */
export const pascal = (name: string) => name.split(/[._]/).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');

/**
 * The fields a code adds beside `code` in `error` (an ApiError's details), so that the document, and the clients
 * generated from it, type each code's error. The document's error schemas admit no other field, so the contract
 * checks refuse an answer whose details are not listed here.
 */
const ERROR_FIELDS = {
  parameter_invalid: {
    errors: Type.Optional(Type.Array(BulkItemError, { description: 'A refused bulk upload (nothing was applied): every bad item.' })),
  },
  insufficient_balance: { available: Type.Integer({ description: 'The cashback the member can spend, in minor units.' }) },
  refund_exceeds_check: { refundable: Type.Integer({ description: 'What can still be refunded of the check, in minor units.' }) },
  redeem_limit_exceeded: { max_redeem: Type.Integer({ description: 'The most cashback this check can be paid with, in minor units.' }) },
  dish_unavailable: { external_ids: Type.Array(Type.String(), { description: 'The dishes of the order on the stop list.' }) },
  invalid_status_transition: {
    status: Type.String({ description: "The order's status (see the order's `status`)." }),
    requested_status: Type.String({ description: 'The status sent.' }),
  },
} satisfies Partial<Record<ErrorCode, TProperties>>;

/** What every error has, whatever its code. */
const errorFields = (code: TSchema) => ({ type: Type.String(), code, message: Type.String(), param: Type.Optional(Type.String()), doc_url: Type.String() });

const errorObject = (code: TSchema, fields: TProperties, title: string) =>
  Type.Object({ ...errorFields(code), ...fields }, { title, additionalProperties: false });

const codesWithoutFields = Object.keys(ERROR_CODES).filter((code) => !Object.hasOwn(ERROR_FIELDS, code));

/** The envelope as the document shows it: `error` typed per code, told apart by `code`. */
export const TypedErrorEnvelope = Type.Object(
  {
    error: Type.Union([
      ...Object.entries(ERROR_FIELDS).map(([code, fields]) => errorObject(Type.Literal(code), fields, `${pascal(code)}Error`)),
      errorObject(Type.Unsafe<ErrorCode>({ type: 'string', enum: codesWithoutFields }), {}, 'PlainError'),
    ]),
    request_id: Type.String(),
  },
  { title: 'Error' },
);

/**
 * The envelope as routes send it: loose, so that serialising an answer never drops a field. The public document
 * shows TypedErrorEnvelope in its place, and the contract checks hold answers to that.
 */
export const ErrorEnvelope = shownAs(
  Type.Object(
    {
      error: Type.Object(errorFields(Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable; see /api/errors.' })), {
        additionalProperties: true,
        description: 'Fields named by the code (available, refundable, max_redeem) are added.',
      }),
      request_id: Type.String(),
    },
    { title: 'Error' },
  ),
  TypedErrorEnvelope,
);

export function withErrors<T extends Record<number, TSchema>>(success: T) {
  return { ...success, '4xx': ErrorEnvelope, '5xx': ErrorEnvelope };
}

/** A response that is not JSON, described for the OpenAPI document (the handler sends it as it is: text or bytes). */
export const nonJson = (mediaType: string, description: string, format?: 'binary') =>
  ({ description, content: { [mediaType]: { schema: Type.String(format ? { format } : {}) } } }) as unknown as ReturnType<typeof Type.Unknown>;
