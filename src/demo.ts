// First run (D18): an empty database gets a demo venue, its owner and a test key, once.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './db/database.js';
import * as accounts from './modules/accounts/service.js';

export interface DemoVenue {
  venue: accounts.Venue;
  ownerEmail: string;
  ownerPassword: string;
  testKey: string;
}

export async function seedDemoIfEmpty(db: Db, pepper: string): Promise<DemoVenue | undefined> {
  return db.transaction().execute(async (trx) => {
    // Two processes starting together on one PostgreSQL must not both seed.
    await sql`select pg_advisory_xact_lock(hashtext('venue-loyalty:demo-seed'))`.execute(trx);
    if ((await accounts.listVenues(trx)).length > 0) return undefined;
    const venue = await accounts.createVenue(trx, {
      name: 'Demo Café',
      slug: 'demo',
      settings: { manual_adjustments_allowed: true },
    });
    const ownerEmail = 'owner@demo.test';
    const ownerPassword = randomBytes(12).toString('base64url');
    await accounts.createOwner(trx, { venueId: venue.id, email: ownerEmail, password: ownerPassword });
    const { secret } = await accounts.createApiKey(trx, pepper, { venueId: venue.id, name: 'Demo till', livemode: false });
    return { venue, ownerEmail, ownerPassword, testKey: secret };
  });
}

export function demoBanner(demo: DemoVenue, baseUrl: string): string {
  return [
    '',
    'Welcome to Venue Loyalty. A demo venue was created; these secrets are shown only now:',
    `  Venue:          ${demo.venue.name} (slug ${demo.venue.slug}, id ${demo.venue.id})`,
    `  Owner sign-in:  ${demo.ownerEmail} / ${demo.ownerPassword}  (${baseUrl}/dashboard)`,
    `  Test API key:   ${demo.testKey}`,
    '',
    `  Try it:  curl -H "Authorization: Bearer ${demo.testKey}" ${baseUrl}/api/v1/account`,
    `  API reference: ${baseUrl}/api/docs`,
    '',
  ].join('\n');
}
