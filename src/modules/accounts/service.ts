// Venues, owners and API keys: creation, revocation, and the account a key sees.
import { EventEmitter } from 'node:events';
import { Value } from 'typebox/value';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { formatNullableTimestamp, formatTimestamp } from '../../shared/time.js';
import { DISPLAY_PREFIX_LENGTH, generateKeySecret, hashKeySecret } from './api-key-format.js';
import * as programs from '../programs/service.js';
import * as repo from './repo.js';
import {

  DEFAULT_VENUE_SETTINGS,
  KeyRules,
  VenueSettings,
  isScope,
  type Account,
  type Caller,
  type Scope,
} from './schemas.js';

// argon2 is needed only when an owner signs up or in: loaded then, not by every API process at start.
const argon2 = () => import('@node-rs/argon2');
const argon2Hash = async (password: string) => (await argon2()).hash(password);
const argon2Verify = async (hashed: string, password: string) => (await argon2()).verify(hashed, password);

export interface Venue {
  id: string;
  slug: string;
  name: string;
  currency: string;
  locale: string;
  timezone: string;
  country: string;
  settings: VenueSettings;
  createdAt: string;
}

export interface NewVenue {
  name: string;
  slug: string;
  currency?: string;
  locale?: string;
  timezone?: string;
  country?: string;
  settings?: Partial<VenueSettings>;
}

export interface ApiKeyInfo {
  id: string;
  venueId: string;
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

function invalid(param: string, message: string): ApiError {
  return new ApiError('parameter_invalid', { param, message });
}

/**
 * Any IANA zone the runtime can use. Intl.supportedValuesOf lists only canonical names, and on Node 20 those are
 * the old ones (Asia/Calcutta, not Asia/Kolkata), so a name is tried rather than looked up.
 */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function checkVenueFields(v: Required<Omit<NewVenue, 'settings'>>): void {
  if (!v.name.trim()) throw invalid('name', 'name must not be empty.');
  if (!SLUG.test(v.slug)) throw invalid('slug', 'slug must be 1-48 lowercase letters, digits or dashes.');
  if (!Intl.supportedValuesOf('currency').includes(v.currency)) throw invalid('currency', `Unknown currency ${v.currency}.`);
  if (!isTimeZone(v.timezone)) throw invalid('timezone', `Unknown time zone ${v.timezone}.`);
  if (!/^[A-Z]{2}$/.test(v.country)) throw invalid('country', 'country must be an ISO 3166 alpha-2 code such as IE.');
  try {
    Intl.getCanonicalLocales(v.locale);
  } catch {
    throw invalid('locale', `Unknown locale ${v.locale}.`);
  }
}

export async function createVenue(db: Db, input: NewVenue): Promise<Venue> {
  const fields = {
    name: input.name,
    slug: input.slug,
    currency: input.currency ?? 'EUR',
    locale: input.locale ?? 'en-IE',
    timezone: input.timezone ?? 'Europe/Dublin',
    country: input.country ?? 'IE',
  };
  checkVenueFields(fields);
  const settings = { ...DEFAULT_VENUE_SETTINGS, ...input.settings };
  if (!Value.Check(VenueSettings, settings)) throw invalid('settings', 'settings has an unknown field or a wrong value.');
  if (await repo.findVenueBySlug(db, fields.slug)) throw invalid('slug', `A venue with slug "${fields.slug}" exists.`);
  return presentVenue(await repo.insertVenue(db, { venue_id: newId(), ...fields, settings: JSON.stringify(settings) }));
}

function presentVenue(row: repo.VenueRow): Venue {
  return {
    id: row.venue_id,
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

export async function createOwner(db: Db, input: { venueId: string; email: string; password: string }) {
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) throw invalid('email', 'email must be an e-mail address.');
  if (input.password.length < 10) throw invalid('password', 'password must have at least 10 characters.');
  const row = await repo.insertOwner(db, {
    venue_id: input.venueId,
    id: newId(),
    email: input.email.toLowerCase(),
    password_hash: await argon2Hash(input.password),
  });
  return { id: row.id, venueId: row.venue_id, email: row.email };
}

export interface Owner {
  id: string;
  venueId: string;
  email: string;
}

// Verified when the e-mail is unknown, so a wrong address takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

/** The owner with this e-mail and password, or undefined (for the dashboard's sign-in). */
export async function verifyOwnerPassword(db: Db, email: string, password: string): Promise<Owner | undefined> {
  const row = await repo.findOwnerByEmail(db, email);
  if (!row) {
    await argon2Verify(await (dummyHash ??= argon2Hash('not a password of anyone')), password).catch(() => false);
    return undefined;
  }
  const ok = await argon2Verify(row.password_hash, password).catch(() => false);
  return ok ? { id: row.id, venueId: row.venue_id, email: row.email } : undefined;
}

export async function findOwner(db: Db, venueId: string, ownerId: string): Promise<Owner | undefined> {
  const row = await repo.findOwner(db, venueId, ownerId);
  return row && { id: row.id, venueId: row.venue_id, email: row.email };
}

/** Changes an owner's password after checking the current one. */
export async function changeOwnerPassword(db: Db, owner: Owner, current: string, next: string): Promise<void> {
  const row = await repo.findOwner(db, owner.venueId, owner.id);
  if (!row || !(await argon2Verify(row.password_hash, current).catch(() => false))) {
    throw invalid('current_password', 'The current password is wrong.');
  }
  if (next.length < 10) throw invalid('new_password', 'password must have at least 10 characters.');
  await repo.setOwnerPasswordHash(db, owner.venueId, owner.id, await argon2Hash(next));
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

/** Changes a venue's details and default rules; every process's key cache forgets the venue's keys. */
export async function updateVenue(db: Db, venueId: string, changes: VenueChanges): Promise<Venue> {
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
  if (!Value.Check(VenueSettings, settings)) throw invalid('settings', 'settings has an unknown field or a wrong value.');
  const { slug: _slug, ...rest } = fields;
  const row = await repo.updateVenue(db, venueId, { ...rest, settings: JSON.stringify(settings) });
  await forgetKeysOf(db, venueId);
  return presentVenue(row!);
}

async function forgetKeysOf(db: Db, venueId: string): Promise<void> {
  for (const secretHash of await repo.keyHashesOfVenue(db, venueId)) {
    await repo.notifyAuthChanged(db, secretHash);
    localAuthChanges.emit('changed', secretHash);
  }
}

/** Replaces a key's own rules (D12), which override the venue's; undefined when the venue has no such key. */
export async function setApiKeyRules(db: Db, venueId: string, keyId: string, rules: Record<string, unknown>): Promise<ApiKeyInfo | undefined> {
  if (!Value.Check(KeyRules, rules)) throw invalid('rules', 'rules has an unknown field or a wrong value.');
  const row = await repo.setApiKeyRules(db, venueId, keyId, JSON.stringify(rules));
  if (!row) return undefined;
  await repo.notifyAuthChanged(db, row.secret_hash);
  localAuthChanges.emit('changed', row.secret_hash);
  return presentKey(row);
}

export interface NewApiKey {
  venueId: string;
  name: string;
  livemode: boolean;
  scopes?: string[];
  rules?: Record<string, unknown>;
}

/** Creates a key; the secret is returned here only and never stored. */
export async function createApiKey(db: Db, pepper: string, input: NewApiKey): Promise<{ key: ApiKeyInfo; secret: string }> {
  const scopes = input.scopes ?? [];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw invalid('scopes', `Unknown scope(s): ${unknown.join(', ')}.`);
  const rules = input.rules ?? {};
  if (!Value.Check(KeyRules, rules)) throw invalid('rules', 'rules has an unknown field or a wrong value.');
  const secret = generateKeySecret(input.livemode);
  const row = await repo.insertApiKey(db, {
    venue_id: input.venueId,
    id: newId(),
    name: input.name,
    livemode: input.livemode,
    secret_hash: hashKeySecret(secret, pepper),
    display_prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
    scopes: [...new Set(scopes)],
    rules: JSON.stringify(rules),
  });
  return { key: presentKey(row), secret };
}

function presentKey(row: repo.ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
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

export async function listApiKeys(db: Db, venueId: string): Promise<ApiKeyInfo[]> {
  return (await repo.listApiKeys(db, venueId)).map(presentKey);
}

/**
 * Revokes a key. Takes effect on the next request in every process: the commit notifies each
 * process's authentication cache (see authenticator.ts).
 */
export async function revokeApiKey(db: Db, input: { venueId: string; keyId: string; at: Date }): Promise<ApiKeyInfo | undefined> {
  const row = await repo.revokeApiKey(db, input.venueId, input.keyId, input.at);
  if (!row) return undefined;
  await repo.notifyAuthChanged(db, row.secret_hash);
  localAuthChanges.emit('changed', row.secret_hash);
  return presentKey(row);
}

export async function getAccount(db: Db, caller: Caller): Promise<Account> {
  const venue = await repo.findVenue(db, caller.venueId);
  if (!venue) throw new ApiError('api_key_invalid');
  return {
    object: 'account',
    id: venue.venue_id,
    name: venue.name,
    slug: venue.slug,
    currency: venue.currency,
    locale: venue.locale,
    timezone: venue.timezone,
    country: venue.country,
    livemode: caller.livemode,
    api_key: { id: caller.keyId, name: caller.keyName, prefix: caller.keyPrefix, scopes: caller.scopes },
    settings: caller.settings,
    programs: (await programs.listPrograms(db, caller.venueId)).map(programs.presentProgram),
    created_at: formatTimestamp(venue.created_at),
  };
}

/** The caller for the owner's own tools (CLI, demo seed, dashboard): full access, live, the venue's rules. */
export function ownerCaller(venue: Venue): Caller {
  return {
    venueId: venue.id,
    keyId: 'owner',
    keyName: 'Owner',
    keyPrefix: '',
    livemode: true,
    scopes: [],
    settings: venue.settings,
    venue: { name: venue.name, country: venue.country, currency: venue.currency, locale: venue.locale, timezone: venue.timezone },
    now: new Date(),
  };
}

export async function ownerEmailTaken(db: Db, email: string): Promise<boolean> {
  return (await repo.findOwnerByEmail(db, email.trim())) !== undefined;
}
