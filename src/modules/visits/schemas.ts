// Visits and scans (D11): kiosks, door scanners and tills of non-cashback programs.
import { Type, type Static } from 'typebox';
import { Display } from '../../shared/display.js';
import { Member } from '../members/schemas.js';

export const VisitBody = Type.Object(
  {
    member_id: Type.Optional(Type.String({ maxLength: 64 })),
    card_number: Type.Optional(Type.String({ maxLength: 64 })),
    barcode: Type.Optional(Type.String({ maxLength: 256 })),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Makes the visit idempotent.' })),
  },
  { additionalProperties: false },
);
export type VisitBody = Static<typeof VisitBody>;

export const Visit = Type.Object({
  object: Type.Literal('visit'),
  id: Type.String({ format: 'uuid' }),
  venue_id: Type.String({ format: 'uuid', description: 'The venue where it happened (D21).' }),
  external_id: Type.Union([Type.String(), Type.Null()]),
  member_id: Type.String({ format: 'uuid' }),
  stamps_earned: Type.Integer(),
  member: Member,
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
}, { title: 'Visit' });
export type Visit = Static<typeof Visit>;

export const ScanBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 256, description: 'What the scanner read: a card number or a serial.' }) },
  { additionalProperties: false },
);

export const Scan = Type.Object({
  object: Type.Literal('scan'),
  id: Type.String({ format: 'uuid' }),
  member: Member,
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
}, { title: 'Scan' });
export type Scan = Static<typeof Scan>;
