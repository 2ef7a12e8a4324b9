// Response schemas shared by every route: the error envelope, added to each route's success responses, and the
// marker for a schema the document shows more precisely than the route checks it.
import { Type, type TSchema } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../shared/errors.js';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        type: Type.String(),
        code: Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable; see /api/errors.' }),
        message: Type.String(),
        param: Type.Optional(Type.String()),
        doc_url: Type.String(),
      },
      { additionalProperties: true, description: 'Fields named by the code (available, refundable, max_redeem) are added.' },
    ),
    request_id: Type.String(),
  },
  { title: 'Error' },
);

export function withErrors<T extends Record<number, TSchema>>(success: T) {
  return { ...success, '4xx': ErrorEnvelope, '5xx': ErrorEnvelope };
}

const SHOWN_AS = Symbol('shownAs');

/**
 * A schema that the route checks loosely on purpose (a bulk sync reports every bad item at once; an event's or a
 * program's object is written by code, not read from a request) and the OpenAPI document shows as `shown`.
 * The mark is a symbol, so validation and serialisation never see it; src/http/openapi.ts swaps it in.
 */
export function shownAs<T extends TSchema>(checked: T, shown: TSchema): T {
  Object.defineProperty(checked, SHOWN_AS, { value: shown, enumerable: false });
  return checked;
}

/** The schema as the document shows it (see shownAs), or undefined when it is shown as it is checked. */
export const shownSchemaOf = (schema: object): TSchema | undefined => (schema as { [SHOWN_AS]?: TSchema })[SHOWN_AS];
