// Factories for venues, owners and keys, through the domain services as the CLI and dashboard use them.
import { randomBytes } from 'node:crypto';
import * as accounts from '../../src/modules/accounts/service.js';
import type { TestApp } from './app.js';

export async function createVenue(t: TestApp, input: Partial<accounts.NewVenue> = {}): Promise<accounts.Venue> {
  const suffix = randomBytes(4).toString('hex');
  return accounts.createVenue(t.db, { name: `Venue ${suffix}`, slug: `venue-${suffix}`, ...input });
}

export interface KeyInput {
  scopes?: string[];
  livemode?: boolean;
  rules?: Record<string, unknown>;
  name?: string;
}

export async function createKey(t: TestApp, venue: accounts.Venue, input: KeyInput = {}) {
  return accounts.createApiKey(t.db, t.pepper, {
    venueId: venue.id,
    name: input.name ?? 'test till',
    livemode: input.livemode ?? false,
    scopes: input.scopes,
    rules: input.rules,
  });
}

export async function revokeKey(t: TestApp, key: accounts.ApiKeyInfo) {
  return t.db.transaction().execute((trx) => accounts.revokeApiKey(trx, { venueId: key.venueId, keyId: key.id, at: t.clock.now() }));
}

/** A new venue with a full-access test key: the usual starting point of a test. */
export async function venueWithKey(t: TestApp, input: KeyInput = {}) {
  const venue = await createVenue(t);
  const { key, secret } = await createKey(t, venue, input);
  return { venue, key, secret };
}
