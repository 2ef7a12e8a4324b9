// A member's export (everything the chain holds about them, one document) and the answer to their erasure.
import { Type, type Static } from 'typebox';
import { Transaction } from '../checks/schemas.js';
import { Hold } from '../holds/schemas.js';
import { Event } from '../webhooks/schemas.js';
import { HistoryEntry } from '../members/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description?: string) =>
  Type.Union([t, Type.Null()], description ? { description } : {});
const Timestamp = Type.String({ format: 'date-time' });
const VenueId = Type.String({ format: 'uuid', description: 'The venue of the chain where it happened (D21).' });

export const ExportedMember = Type.Object({
  id: Type.String({ format: 'uuid' }),
  home_venue_id: Nullable(Type.String({ format: 'uuid' }), 'The venue where the member enrolled; null when they came in without one.'),
  program_id: Type.String({ format: 'uuid' }),
  serial: Type.String(),
  name: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  vip_level: Nullable(Type.String()),
  birthday: Nullable(Type.String()),
  referral_code: Nullable(Type.String()),
  referred_by: Nullable(Type.String({ format: 'uuid' }), 'The member whose referral code they enrolled with.'),
  referred: Type.Array(Type.String({ format: 'uuid' }), { description: 'The members who enrolled with their referral code.' }),
  consented_at: Timestamp,
  created_at: Timestamp,
  erased_at: Nullable(Timestamp),
  livemode: Type.Boolean(),
  totals: Type.Object(
    { cashback: Type.Integer(), spend: Type.Integer(), visits: Type.Integer(), stamps: Type.Integer() },
    { description: 'The sums of the ledger below.' },
  ),
  cards: Type.Array(Type.Object({ card_number: Type.String(), created_at: Timestamp })),
});
export type ExportedMember = Static<typeof ExportedMember>;

export const ExportedVisit = Type.Object({
  id: Type.String({ format: 'uuid' }),
  venue_id: Nullable(VenueId),
  external_id: Nullable(Type.String()),
  visits: Type.Integer(),
  stamps: Type.Integer(),
  created_at: Timestamp,
});

export const ExportedRefund = Type.Object({
  id: Type.String({ format: 'uuid' }),
  external_id: Type.String(),
  transaction_id: Type.String({ format: 'uuid' }),
  transaction_external_id: Type.String(),
  amount: Type.Integer(),
  earned_reversed: Type.Integer({ description: 'Earned cashback taken back.' }),
  redeemed_returned: Type.Integer({ description: 'Redeemed cashback given back.' }),
  livemode: Type.Boolean(),
  created_at: Timestamp,
});

export const ExportedScan = Type.Object({
  id: Type.String({ format: 'uuid' }),
  venue_id: VenueId,
  key_id: Type.String({ description: 'The API key that scanned the card.' }),
  created_at: Timestamp,
});

export const MemberExport = Type.Object(
  {
    object: Type.Literal('member_export'),
    exported_at: Timestamp,
    member: ExportedMember,
    wallet: Type.Object(
      {
        apple_devices: Type.Array(
          Type.Object({ registered_at: Timestamp, renewed_at: Timestamp }),
          {
            description:
              "The Apple Wallet pass's registrations, one per device: when, never which device (with Apple's id for a device anyone can list every pass on it, since Apple's serial list asks no credential) nor its push token.",
          },
        ),
        google_object_since: Type.Union([Timestamp, Type.Null()], { description: 'When the Google Wallet object was made (its save link first given); null: never.' }),
      },
      { description: 'The wallet cards: empty after an erasure, which unregisters them.' },
    ),
    ledger: Type.Array(HistoryEntry, { description: 'Every entry that moved the totals, newest first.' }),
    transactions: Type.Array(Transaction, { description: "Checks applied to the member, with their lines: venue by venue (the chain's oldest first), newest first at each." }),
    refunds: Type.Array(ExportedRefund, { description: "Refunds of the member's checks, newest first." }),
    holds: Type.Array(Hold, { description: "Venue by venue (the chain's oldest first), newest first at each." }),
    visits: Type.Array(ExportedVisit, { description: 'The ledger entries of kind visit, newest first.' }),
    scans: Type.Array(ExportedScan, { description: "Scans of the member's card: venue by venue (the chain's oldest first), newest first at each." }),
    events: Type.Array(Event, { description: 'Events whose payload names the member, at every venue of the chain, newest first.' }),
  },
  {
    title: 'MemberExport',
    description: 'Everything the chain holds about the member, at all of its venues, as one document. After an erasure: what the chain keeps, anonymised.',
  },
);
export type MemberExport = Static<typeof MemberExport>;

export const MemberErasure = Type.Object({
  object: Type.Literal('member_erasure'),
  member_id: Type.String({ format: 'uuid' }),
  erased_at: Timestamp,
  already_erased: Type.Boolean({ description: 'True when an earlier request erased the member; nothing changed now.' }),
  holds_released: Type.Array(Type.String({ format: 'uuid' }), { description: 'Active holds released first.' }),
  livemode: Type.Boolean(),
}, { title: 'MemberErasure' });
export type MemberErasure = Static<typeof MemberErasure>;
