// Scopes, venue register rules (D12) and the account resource.
import { Type, type Static } from 'typebox';
import { Program } from '../programs/schemas.js';

export const SCOPES = [
  'members:read',
  'members:write',
  'members:adjust',
  'transactions:write',
  'menu:read',
  'menu:write',
  'orders:read',
  'orders:write',
  'devices:write',
  'catalog:read',
  'catalog:write',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

const Money = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

export const VenueSettings = Type.Object(
  {
    redeem_only_via_holds: Type.Boolean({ description: 'Cashback is redeemed only by capturing a hold.' }),
    checks_numbered_per_register: Type.Boolean({ description: 'external_id is unique per register_id, which is then required.' }),
    max_check_age_seconds: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'Checks whose closed_at is older are refused (check_too_old); null for no limit.',
    }),
    max_cashback_per_check: Money('Most cashback one check earns, in minor units; null for no cap.'),
    max_cashback_per_day: Money("Most cashback a member earns per day (venue's time zone), in minor units; null for no cap."),
    card_scan_required: Type.Boolean({ description: 'A check needs a card this key scanned shortly before.' }),
    manual_adjustments_allowed: Type.Boolean({ description: 'Balance adjustments through the API are allowed.' }),
    hold_ttl_seconds: Type.Integer({ minimum: 30, maximum: 86_400, description: 'Lifetime of a hold before it expires.' }),
  },
  { additionalProperties: false },
);
export type VenueSettings = Static<typeof VenueSettings>;

export const KeyRules = Type.Partial(VenueSettings, { additionalProperties: false });
export type KeyRules = Static<typeof KeyRules>;

export const DEFAULT_VENUE_SETTINGS: VenueSettings = {
  redeem_only_via_holds: false,
  checks_numbered_per_register: false,
  max_check_age_seconds: null,
  max_cashback_per_check: null,
  max_cashback_per_day: null,
  card_scan_required: false,
  manual_adjustments_allowed: false,
  hold_ttl_seconds: 900,
};

export const Account = Type.Object({
  object: Type.Literal('account'),
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  currency: Type.String({ description: 'ISO 4217; all amounts are in its minor units.' }),
  locale: Type.String(),
  timezone: Type.String(),
  country: Type.String(),
  livemode: Type.Boolean({ description: "The calling key's mode." }),
  api_key: Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    prefix: Type.String({ description: 'First characters of the key, for recognising it.' }),
    scopes: Type.Array(Type.String(), { description: 'Empty: full access.' }),
  }),
  settings: VenueSettings,
  programs: Type.Array(Program, { description: "The venue's programs; members join the default one unless told otherwise." }),
  created_at: Type.String({ format: 'date-time' }),
}, { title: 'Account' });
export type Account = Static<typeof Account>;

/** What authentication knows about a key (cached between requests). */
export interface KeyIdentity {
  venueId: string;
  keyId: string;
  keyName: string;
  keyPrefix: string;
  livemode: boolean;
  scopes: Scope[];
  /** The venue's rules with this key's own values applied. */
  settings: VenueSettings;
  venue: VenueLocale;
}

/** The calling key at the time of one request; services receive it as plain data. */
export interface Caller extends KeyIdentity {
  /** The request's time by the app's clock: what "now" means for holds and per-day caps. */
  now: Date;
}

/** What rules and display text need to know of the venue. */
export interface VenueLocale {
  name: string;
  country: string;
  currency: string;
  locale: string;
  timezone: string;
}
