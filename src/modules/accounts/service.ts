// Venues, owners and API keys: creation, revocation, and the account a key sees.
import { EventEmitter } from 'node:events';
import { hash as argon2Hash } from '@node-rs/argon2';
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

function checkVenueFields(v: Required<Omit<NewVenue, 'settings'>>): void {
  if (!v.name.trim()) throw invalid('name', 'name must not be empty.');
  if (!SLUG.test(v.slug)) throw invalid('slug', 'slug must be 1-48 lowercase letters, digits or dashes.');
  if (!Intl.supportedValuesOf('currency').includes(v.currency)) throw invalid('currency', `Unknown currency ${v.currency}.`);
  if (!Intl.supportedValuesOf('timeZone').includes(v.timezone)) throw invalid('timezone', `Unknown time zone ${v.timezone}.`);
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
