// The venue liability report (D21): per venue of a chain, what happened to its members' cashback in a period.
import { Type, type Static } from 'typebox';
import { ListOf } from '../../shared/pagination.js';

const Figure = (description: string) => Type.Integer({ description: `${description} Minor units.` });

export const VenueLiabilityQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'Start of the period, included: an RFC 3339 date-time with its offset.' }),
    to: Type.String({ format: 'date-time', description: 'End of the period, not included; later than from.' }),
    livemode: Type.Optional(Type.Boolean({ description: 'Only live (true) or only test (false) entries; both when not given.' })),
  },
  { additionalProperties: false },
);
export type VenueLiabilityQuery = Static<typeof VenueLiabilityQuery>;

export const VenueLiability = Type.Object(
  {
    venue_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: "The venue; null: what belongs to no venue (imports and a chain key's adjustments made without venue_id).",
    }),
    earned: Figure('Cashback earned at checks of the venue, less what voids and refunds there took back.'),
    campaign: Figure('Campaign credits (D22): welcome and birthday credits at the venue of the enrolment or the home venue.'),
    redeemed: Figure('Cashback spent at checks of the venue, less what voids and refunds there gave back; positive.'),
    expired: Figure('Cashback earned at the venue that expired (charged to where it was earned, whenever it expired); positive.'),
    adjusted: Figure('Manual adjustments made at the venue (by its key, or a chain key naming it), signed.'),
    imported: Figure('Opening balances of member imports sent at the venue.'),
    net: Figure('earned + campaign + adjusted + imported − redeemed − expired: what the row adds to what members hold.'),
  },
  { title: 'VenueLiability' },
);
export type VenueLiability = Static<typeof VenueLiability>;

export const VenueLiabilityList = ListOf(VenueLiability);
export type VenueLiabilityList = Static<typeof VenueLiabilityList>;
