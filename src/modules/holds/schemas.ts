// Holds (D11): cashback reserved for a coming check.
import { Type, type Static } from 'typebox';
import { Display } from '../../shared/display.js';

export const CreateHold = Type.Object(
  {
    member_id: Type.Optional(Type.String({ maxLength: 64 })),
    card_number: Type.Optional(Type.String({ maxLength: 64 })),
    barcode: Type.Optional(Type.String({ maxLength: 256 })),
    amount: Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Cashback to reserve, minor units.' }),
    expires_in: Type.Optional(Type.Integer({ minimum: 30, maximum: 86_400, description: "Seconds; default: the venue's hold_ttl_seconds." })),
  },
  { additionalProperties: false },
);
export type CreateHold = Static<typeof CreateHold>;

export const Hold = Type.Object({
  object: Type.Literal('hold'),
  id: Type.String({ format: 'uuid' }),
  venue_id: Type.String({ format: 'uuid', description: 'The venue where it happened (D21).' }),
  member_id: Type.String({ format: 'uuid' }),
  amount: Type.Integer(),
  status: Type.Union([Type.Literal('active'), Type.Literal('captured'), Type.Literal('released'), Type.Literal('expired')]),
  expires_at: Type.String({ format: 'date-time' }),
  captured_amount: Type.Union([Type.Integer(), Type.Null()], { description: 'What the check redeemed; the rest went back.' }),
  captured_by: Type.Union([Type.String(), Type.Null()], { description: 'The external_id of the check that captured it.' }),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
}, { title: 'Hold' });
export type Hold = Static<typeof Hold>;

export const HoldParams = Type.Object({ id: Type.String() });
