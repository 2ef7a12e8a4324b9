// Scopes, venue register rules (D12) and the account resource.
import { Type, type Static } from 'typebox';
import type { Actor } from '../audit/schemas.js';
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
  'reports:read',
  'campaigns:read',
  'campaigns:write',
  'audit:read',
  'integrations:read',
  'integrations:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Dashboard users' roles (D24), from the least to the most a role may do: each may do what the ones before it may. */
export const ROLES = ['staff', 'manager', 'owner'] as const;
export type Role = (typeof ROLES)[number];

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
  venue: Type.Union(
    [Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), slug: Type.String(), timezone: Type.String() }), Type.Null()],
    { description: "The calling key's venue; null for a chain key, whose account is the chain (D21)." },
  ),
  livemode: Type.Boolean({ description: "The calling key's mode." }),
  api_key: Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    prefix: Type.String({ description: 'First characters of the key, for recognising it.' }),
    scopes: Type.Array(Type.String(), { description: 'Empty: full access.' }),
  }),
  settings: VenueSettings,
  programs: Type.Array(Program, { description: "The chain's programs; members join the default one unless told otherwise." }),
  created_at: Type.String({ format: 'date-time' }),
  chain: Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      name: Type.String(),
      currency: Type.String({ description: 'ISO 4217: every venue of the chain counts in it.' }),
      venues: Type.Array(
        Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), slug: Type.String(), timezone: Type.String() }),
        { description: "The chain's venues, oldest first." },
      ),
    },
    { description: 'The chain the venue belongs to (D21): its members, balances and programs are shared by all of its venues.' },
  ),
}, { title: 'Account' });
export type Account = Static<typeof Account>;

/** A venue as a key may act at it: its own register rules and what display text needs. */
export interface KeyVenue {
  settings: unknown;
  locale: VenueLocale;
}

/** What authentication knows about a key (cached between requests). */
export interface KeyIdentity {
  /** The tenant root: members, balances, programs and categories are the chain's (D21). */
  chainId: string;
  /** The key's own venue; null for a chain key, which names the venue of each call that happens at one (D21). */
  keyVenueId: string | null;
  keyId: string;
  keyName: string;
  keyPrefix: string;
  livemode: boolean;
  scopes: Scope[];
  /** The key's own rules (D12), applied over the rules of the venue it acts at. */
  rules: KeyRules;
  /** The venues the key may act at: its own, or every venue of a chain key's chain (oldest first). */
  venues: ReadonlyMap<string, KeyVenue>;
}

/** Where something happens: a venue of a chain. Every query of a venue's table filters by both (D21). */
export interface Place {
  chainId: string;
  venueId: string;
}

/** Where a list looks: one venue, or with `venueId` null every venue of the chain (a chain key naming none). */
export interface Reach {
  chainId: string;
  venueId: string | null;
}

/** The calling key at the time of one request; services receive it as plain data. */
export interface Caller extends Omit<KeyIdentity, 'venues'> {
  /** The venue the call acts at: the key's own, or the one a chain key named; null when a chain key named none. */
  venueId: string | null;
  /** The rules of that venue with the key's own applied (a chain key naming none: the defaults with its own). */
  settings: VenueSettings;
  /** That venue's locale (a chain key naming none: its chain's first venue's). */
  venue: VenueLocale;
  /** The request's time by the app's clock: what "now" means for holds and per-day caps. */
  now: Date;
  /** For the audit log: the dashboard user a caller acts for (absent: the key is the actor), the request's address. */
  actor?: Actor;
  address?: string | null;
}

/** A caller acting at a venue: what every call that happens at a place has (the route's venue rule saw to it). */
export type PlaceCaller = Caller & Place;

/** What rules and display text need to know of the venue. */
export interface VenueLocale {
  name: string;
  country: string;
  currency: string;
  locale: string;
  timezone: string;
}
