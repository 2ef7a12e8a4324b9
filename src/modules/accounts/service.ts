// Venues, owners and API keys: creation, revocation, and the account a key sees.
import { EventEmitter } from 'node:events';
import { Value } from 'typebox/value';
import type { Db } from '../../db/database.js';
import { writeTogether } from '../../db/statement.js';
import { ApiError, parameterInvalid } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { formatNullableTimestamp, formatTimestamp, isTimeZone } from '../../shared/time.js';
import { DISPLAY_PREFIX_LENGTH, generateKeySecret, hashKeySecret } from './api-key-format.js';
import * as audit from '../audit/service.js';
import type { Who } from '../audit/service.js';
import * as repo from './repo.js';
import {

  DEFAULT_VENUE_SETTINGS,
  KeyRules,
  VenueSettings,
  isScope,
  type Account,
  type Caller,
  type KeyIdentity,
  type Place,
  type PlaceCaller,
  type Scope,
} from './schemas.js';

export interface Venue {
  id: string;
  /** The chain the venue belongs to (D21): members, balances and programs are the chain's. */
  chainId: string;
  slug: string;
  name: string;
  currency: string;
  locale: string;
  timezone: string;
  country: string;
  settings: VenueSettings;
  createdAt: string;
}

/** The venue as the place where things happen: what every query of a venue's own tables filters by. */
export const placeOf = (venue: Venue): Place => ({ chainId: venue.chainId, venueId: venue.id });

export interface NewVenue {
  name: string;
  slug: string;
  /** The chain to join (its currency is taken); none: a new chain of one whose slug is the venue's. */
  chainId?: string;
  currency?: string;
  locale?: string;
  timezone?: string;
  country?: string;
  settings?: Partial<VenueSettings>;
}

export interface ApiKeyInfo {
  id: string;
  chainId: string;
  /** Null: a chain key (D21). */
  venueId: string | null;
  name: string;
  livemode: boolean;
  prefix: string;
  scopes: Scope[];
  rules: KeyRules;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** In-process news of changed keys, so this process's cache forgets before the NOTIFY arrives. */
export const localAuthChanges = new EventEmitter<{ changed: [secretHash: string] }>();

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;

export function effectiveSettings(venueSettings: unknown, keyRules: unknown): VenueSettings {
  return { ...DEFAULT_VENUE_SETTINGS, ...(venueSettings as object), ...(keyRules as object) };
}

function checkVenueFields(v: Required<Omit<NewVenue, 'settings' | 'chainId'>>): void {
  if (!v.name.trim()) throw parameterInvalid('name', 'name must not be empty.');
  if (!SLUG.test(v.slug)) throw parameterInvalid('slug', 'slug must be 1-48 lowercase letters, digits or dashes.');
  if (!Intl.supportedValuesOf('currency').includes(v.currency)) throw parameterInvalid('currency', `Unknown currency ${v.currency}.`);
  if (!isTimeZone(v.timezone)) throw parameterInvalid('timezone', `Unknown time zone ${v.timezone}.`);
  if (!/^[A-Z]{2}$/.test(v.country)) throw parameterInvalid('country', 'country must be an ISO 3166 alpha-2 code such as IE.');
  try {
    Intl.getCanonicalLocales(v.locale);
  } catch {
    throw parameterInvalid('locale', `Unknown locale ${v.locale}.`);
  }
}

/** A venue's fields with their defaults, checked (400 on the field that is wrong); a chain's venue takes its currency. */
function venueFieldsOf(input: NewVenue, chainCurrency?: string) {
  const fields = {
    name: input.name,
    slug: input.slug,
    currency: chainCurrency ?? input.currency ?? 'EUR',
    locale: input.locale ?? 'en-IE',
    timezone: input.timezone ?? 'Europe/Dublin',
    country: input.country ?? 'IE',
  };
  checkVenueFields(fields);
  return fields;
}

/** Checks a new chain's first venue as `createVenue` will, before its slug is chosen (a sign-up, before its link is used). */
export const checkNewChainVenue = (input: Omit<NewVenue, 'slug' | 'chainId'>): void => void venueFieldsOf({ ...input, slug: 'slug' });

export async function createVenue(db: Db, input: NewVenue): Promise<Venue> {
  const chain = input.chainId === undefined ? undefined : await repo.findChain(db, input.chainId);
  if (input.chainId !== undefined && !chain) throw new ApiError('venue_not_found', { message: `No chain ${input.chainId}.` });
  if (chain && input.currency !== undefined && input.currency !== chain.currency) {
    throw parameterInvalid('currency', `The chain "${chain.slug}" counts in ${chain.currency}: every venue of a chain uses its currency, so ${input.currency} cannot join it.`);
  }
  const fields = venueFieldsOf(input, chain?.currency);
  const settings = { ...DEFAULT_VENUE_SETTINGS, ...input.settings };
  if (!Value.Check(VenueSettings, settings)) throw parameterInvalid('settings', 'settings has an unknown field or a wrong value.');
  if (await repo.findVenueBySlug(db, fields.slug)) throw parameterInvalid('slug', `A venue with slug "${fields.slug}" exists.`);
  let chainId = chain?.chain_id;
  if (!chainId) {
    if (await repo.findChainBySlug(db, fields.slug)) throw parameterInvalid('slug', `A chain with slug "${fields.slug}" exists.`);
    chainId = (await repo.insertChain(db, { chain_id: newId(), slug: fields.slug, name: fields.name, currency: fields.currency })).chain_id;
  }
  const venue = presentVenue(await repo.insertVenue(db, { venue_id: newId(), chain_id: chainId, ...fields, settings: JSON.stringify(settings) }));
  // The chain's keys may act at the new venue from now on.
  if (chain) await forgetKeysOf(db, chainId);
  return venue;
}

export interface Chain {
  id: string;
  slug: string;
  name: string;
  currency: string;
  venues: Venue[];
}

async function presentChain(db: Db, row: repo.ChainRow): Promise<Chain> {
  const venues = (await repo.venuesOfChain(db, row.chain_id)).map(presentVenue);
  return { id: row.chain_id, slug: row.slug, name: row.name, currency: row.currency, venues };
}

/** A chain by its id or slug, with its venues; undefined when there is none. */
export async function findChain(db: Db, idOrSlug: string): Promise<Chain | undefined> {
  const row = /^[0-9a-f-]{36}$/i.test(idOrSlug) ? await repo.findChain(db, idOrSlug) : await repo.findChainBySlug(db, idOrSlug);
  return row && presentChain(db, row);
}

export async function listChains(db: Db): Promise<Chain[]> {
  return Promise.all((await repo.listChains(db)).map((row) => presentChain(db, row)));
}

function presentVenue(row: repo.VenueRow): Venue {
  return {
    id: row.venue_id,
    chainId: row.chain_id,
    slug: row.slug,
    name: row.name,
    currency: row.currency,
    locale: row.locale,
    timezone: row.timezone,
    country: row.country,
    settings: effectiveSettings(row.settings, {}),
    createdAt: formatTimestamp(row.created_at),
  };
}

/** A venue by its id or slug, for the CLI; undefined when there is none. */
export async function findVenue(db: Db, idOrSlug: string): Promise<Venue | undefined> {
  const row = /^[0-9a-f-]{36}$/i.test(idOrSlug) ? await repo.findVenue(db, idOrSlug) : await repo.findVenueBySlug(db, idOrSlug);
  return row && presentVenue(row);
}

export async function findVenueBySlug(db: Db, slug: string): Promise<Venue | undefined> {
  const row = await repo.findVenueBySlug(db, slug);
  return row && presentVenue(row);
}

export async function listVenues(db: Db): Promise<Venue[]> {
  return (await repo.listVenues(db)).map(presentVenue);
}

export interface VenueChanges {
  name?: string;
  currency?: string;
  locale?: string;
  timezone?: string;
  country?: string;
  /** Register rules (D12) as the venue's defaults; fields not sent keep their value. */
  settings?: Partial<VenueSettings>;
}

const VENUE_FIELDS = ['name', 'currency', 'locale', 'timezone', 'country'] as const;

/** Changes a venue's details and default rules, recorded in the audit log; every process's key cache forgets the venue's keys. */
export async function updateVenue(db: Db, venueId: string, changes: VenueChanges, by: Who): Promise<Venue> {
  const current = await repo.findVenue(db, venueId);
  if (!current) throw new ApiError('route_not_found');
  const fields = {
    name: changes.name ?? current.name,
    slug: current.slug,
    currency: changes.currency ?? current.currency,
    locale: changes.locale ?? current.locale,
    timezone: changes.timezone ?? current.timezone,
    country: changes.country ?? current.country,
  };
  checkVenueFields(fields);
  const settings = effectiveSettings(current.settings, changes.settings ?? {});
  if (!Value.Check(VenueSettings, settings)) throw parameterInvalid('settings', 'settings has an unknown field or a wrong value.');
  if (fields.currency !== current.currency) {
    // Balances are amounts in the chain's currency: once money is on the books, changing it would re-denominate them.
    if (await repo.chainHasLedgerEntries(db, current.chain_id)) {
      throw parameterInvalid('currency', `The currency cannot change once members of the chain have balances or history (it is ${current.currency}).`);
    }
    await repo.setChainCurrency(db, current.chain_id, fields.currency);
  }
  const { slug: _slug, currency: _currency, ...rest } = fields;
  const row = await repo.updateVenue(db, venueId, { ...rest, settings: JSON.stringify(settings) });
  await forgetKeysOf(db, current.chain_id);
  const [before, after] = [presentVenue(current), presentVenue(row!)];
  // Each default rule changed on its own line (settings.hold_ttl_seconds), not the whole settings object.
  const audited = {
    ...audit.changedFields({ ...before }, { ...after, currency: fields.currency }, VENUE_FIELDS),
    ...Object.fromEntries(Object.entries(audit.changedFields(before.settings, after.settings, Object.keys(after.settings) as (keyof VenueSettings)[])).map(([k, v]) => [`settings.${k}`, v])),
  };
  await audit.recordAudit(db, { chainId: current.chain_id, venueId, ...by }, { action: 'venue.updated', target: { type: 'venue', id: venueId }, changes: audited });
  return after;
}

/** Every process forgets the chain's keys: each caches the venues it may act at (authenticator.ts). */
async function forgetKeysOf(db: Db, chainId: string): Promise<void> {
  for (const secretHash of await repo.keyHashesOfChain(db, chainId)) {
    await repo.notifyAuthChanged(db, secretHash);
    localAuthChanges.emit('changed', secretHash);
  }
}

/** Replaces a key's own rules (D12), which override the venue's; undefined when the chain has no such key. */
export async function setApiKeyRules(db: Db, chainId: string, keyId: string, rules: Record<string, unknown>, by: Who): Promise<ApiKeyInfo | undefined> {
  if (!Value.Check(KeyRules, rules)) throw parameterInvalid('rules', 'rules has an unknown field or a wrong value.');
  const before = await repo.findApiKey(db, chainId, keyId);
  const row = before && (await repo.setApiKeyRules(db, chainId, keyId, JSON.stringify(rules)));
  if (!row) return undefined;
  const changes = audit.changedFields({ rules: before.rules }, { rules: row.rules }, ['rules']);
  await audit.recordAudit(db, { chainId, venueId: row.venue_id, ...by }, { action: 'api_key.updated', target: { type: 'api_key', id: keyId }, changes });
  await repo.notifyAuthChanged(db, row.secret_hash);
  localAuthChanges.emit('changed', row.secret_hash);
  return presentKey(row);
}

/** A venue's key (`venueId`), or a chain key (`chainId` alone: it acts at any venue of the chain, D21). */
export interface NewApiKey {
  venueId?: string;
  chainId?: string;
  name: string;
  livemode: boolean;
  scopes?: string[];
  rules?: Record<string, unknown>;
  /** Who creates it, for the audit log. */
  by: Who;
}

/** Creates a key; the secret is returned here only and never stored. */
export async function createApiKey(db: Db, pepper: string, input: NewApiKey): Promise<{ key: ApiKeyInfo; secret: string }> {
  const scopes = input.scopes ?? [];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw parameterInvalid('scopes', `Unknown scope(s): ${unknown.join(', ')}.`);
  const rules = input.rules ?? {};
  if (!Value.Check(KeyRules, rules)) throw parameterInvalid('rules', 'rules has an unknown field or a wrong value.');
  const secret = generateKeySecret(input.livemode);
  const venue = input.venueId === undefined ? undefined : await repo.findVenue(db, input.venueId);
  const chainId = venue?.chain_id ?? input.chainId;
  if (!chainId || (input.venueId !== undefined && !venue) || (input.chainId !== undefined && input.chainId !== chainId)) throw new ApiError('venue_not_found');
  const id = newId();
  const kept = { name: input.name, livemode: input.livemode, scopes: [...new Set(scopes)], rules };
  const entry = { action: 'api_key.created' as const, target: { type: 'api_key', id }, changes: audit.changedFields(null, kept, ['name', 'livemode', 'scopes', 'rules']) };
  // The key and its audit entry in one statement: neither without the other.
  const [row] = await writeTogether<repo.ApiKeyRow>(
    db,
    [
      repo.insertApiKeyStep(db, {
        chain_id: chainId,
        venue_id: input.venueId ?? null,
        id,
        ...kept,
        secret_hash: hashKeySecret(secret, pepper),
        display_prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
        rules: JSON.stringify(rules),
      }),
      ...audit.auditSteps(db, { chainId, venueId: input.venueId ?? null, ...input.by }, entry),
    ],
    'key',
  );
  return { key: presentKey(row!), secret };
}

function presentKey(row: repo.ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    chainId: row.chain_id,
    venueId: row.venue_id,
    name: row.name,
    livemode: row.livemode,
    prefix: row.display_prefix,
    scopes: row.scopes as Scope[],
    rules: row.rules as KeyRules,
    createdAt: formatTimestamp(row.created_at),
    revokedAt: formatNullableTimestamp(row.revoked_at),
    lastUsedAt: formatNullableTimestamp(row.last_used_at),
  };
}

/** A venue's keys, or with `venueId` null the chain's own keys. */
export async function listApiKeys(db: Db, owner: { chainId: string; venueId: string | null }): Promise<ApiKeyInfo[]> {
  return (await repo.listApiKeys(db, owner.chainId, owner.venueId)).map(presentKey);
}

/**
 * Revokes a key. Takes effect on the next request in every process: the commit notifies each
 * process's authentication cache (see authenticator.ts).
 */
export async function revokeApiKey(db: Db, input: { chainId: string; keyId: string; at: Date; by: Who }): Promise<ApiKeyInfo | undefined> {
  const row = await repo.revokeApiKey(db, input.chainId, input.keyId, input.at);
  // Revoked before: nothing happens now, and nothing is recorded.
  if (!row || row.revoked_at?.getTime() !== input.at.getTime()) return row && presentKey(row);
  const entry = { action: 'api_key.revoked' as const, target: { type: 'api_key', id: row.id }, changes: { revoked_at: [null, formatTimestamp(input.at)] as [unknown, unknown] } };
  await audit.recordAudit(db, { chainId: input.chainId, venueId: row.venue_id, ...input.by }, entry);
  await repo.notifyAuthChanged(db, row.secret_hash);
  localAuthChanges.emit('changed', row.secret_hash);
  return presentKey(row);
}

/**
 * The account a key sees: its venue, or for a chain key the chain (in the locale of its first venue); the chain's
 * programs are the programs module's to give (`programs`), as it stands above this one.
 */
export async function getAccount(db: Db, caller: Caller, programs: Account['programs']): Promise<Account> {
  const chain = await repo.findChain(db, caller.chainId);
  if (!chain) throw new ApiError('api_key_invalid');
  const venues = await repo.venuesOfChain(db, chain.chain_id);
  const own = venues.find((v) => v.venue_id === caller.keyVenueId);
  const { locale, timezone, country } = own ?? venues[0]!;
  return {
    object: 'account',
    id: own?.venue_id ?? chain.chain_id,
    name: own?.name ?? chain.name,
    slug: own?.slug ?? chain.slug,
    currency: chain.currency,
    locale,
    timezone,
    country,
    venue: own ? { id: own.venue_id, name: own.name, slug: own.slug, timezone: own.timezone } : null,
    livemode: caller.livemode,
    api_key: { id: caller.keyId, name: caller.keyName, prefix: caller.keyPrefix, scopes: caller.scopes },
    settings: caller.settings,
    programs,
    created_at: formatTimestamp((own ?? chain).created_at),
    chain: {
      id: chain.chain_id,
      name: chain.name,
      currency: chain.currency,
      venues: venues.map((v) => ({ id: v.venue_id, name: v.name, slug: v.slug, timezone: v.timezone })),
    },
  };
}

/** The caller for the owner's own tools (CLI, demo seed, dashboard): full access, live, the venue's rules. */
export function ownerCaller(venue: Venue): PlaceCaller {
  return {
    chainId: venue.chainId,
    keyVenueId: venue.id,
    venueId: venue.id,
    rules: {},
    keyId: 'owner',
    keyName: 'Owner',
    keyPrefix: '',
    livemode: true,
    scopes: [],
    settings: venue.settings,
    venue: { name: venue.name, country: venue.country, currency: venue.currency, locale: venue.locale, timezone: venue.timezone },
    now: new Date(),
    // The service itself, unless the dashboard (its user) or the CLI says who.
    ...audit.SYSTEM,
  };
}

/**
 * The caller a key makes acting at `venueId` (one of the venues it may act at), or at its own venue when null; a
 * chain key naming none acts at no venue, with the defaults and its own rules, in the locale of its chain's first venue.
 * `address`: the request's, for the audit log.
 */
export function callerAt(key: KeyIdentity, venueId: string | null, now: Date, address?: string): Caller {
  const at = venueId ?? key.keyVenueId;
  let byVenue = callers.get(key);
  if (!byVenue) callers.set(key, (byVenue = new Map()));
  let caller = byVenue.get(at);
  if (!caller) {
    const { venues, ...identity } = key;
    const venue = at === null ? undefined : venues.get(at);
    if (at !== null && !venue) throw new ApiError('venue_not_found', { param: 'venue_id' });
    const locale = (venue ?? venues.values().next().value!).locale;
    caller = { ...identity, venueId: at, settings: Object.freeze(effectiveSettings(venue?.settings ?? {}, key.rules)), venue: locale };
    byVenue.set(at, caller);
  }
  return address === undefined ? { ...caller, now } : { ...caller, now, address };
}

// The caller a key makes at a venue, worked out once per key (issue 21): a key's identity is made afresh whenever the
// key or its venues change (accounts/authenticator.ts), so an entry never outlives what it was made from.
const callers = new WeakMap<KeyIdentity, Map<string | null, Omit<Caller, 'now'>>>();

// Owners are this module's too; their file keeps this one readable.
export * from './owners.js';
export * from './links.js';
export * from './signups.js';
export * from './brand.js';
