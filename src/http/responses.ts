// Response schemas shared by every route: the error envelope, added to each route's success responses.
import { Type, type TSchema } from 'typebox';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        type: Type.String(),
        code: Type.String(),
        message: Type.String(),
        param: Type.Optional(Type.String()),
        doc_url: Type.String(),
      },
      { additionalProperties: true, description: 'Fields named by the code (available, refundable, max_redeem) are added.' },
    ),
    request_id: Type.String(),
  },
  { $id: 'Error' },
);

export function withErrors<T extends Record<number, TSchema>>(success: T) {
  return { ...success, '4xx': ErrorEnvelope, '5xx': ErrorEnvelope };
}
