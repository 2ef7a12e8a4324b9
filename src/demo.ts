// First run (D18): an empty database gets a demo venue, its owner and a test key, once.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './db/database.js';
import * as accounts from './modules/accounts/service.js';
import * as members from './modules/members/service.js';
import * as programs from './modules/programs/service.js';

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
    await seedDemoMembers(trx, venue);
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

const DEMO_MEMBERS = [
  { name: 'Aoife Murphy', card: 'DEMO-0001', phone: '+353871000001', spend: 12_450, cashback: 373 },
  { name: 'Ciarán Kelly', card: 'DEMO-0002', phone: '+353871000002', spend: 61_200, cashback: 2_410 },
  { name: 'Niamh Walsh', card: 'DEMO-0003', phone: '+353871000003', spend: 184_990, cashback: 9_875 },
  { name: 'Seán Byrne', card: 'DEMO-0004', phone: null, spend: 0, cashback: 0 },
  { name: 'Emma Doyle', card: 'DEMO-0005', phone: '+353871000005', spend: 4_800, cashback: 144 },
];

/** A cashback program with three levels, and members at each, their past spend imported into the ledger. */
async function seedDemoMembers(trx: Db, venue: accounts.Venue): Promise<void> {
  await programs.createProgram(trx, venue.id, {
    name: 'Demo Café Rewards',
    type: 'cashback',
    settings: {
      levels: [
        { name: 'Bronze', min_spend: 0, percent: 3 },
        { name: 'Silver', min_spend: 50_000, percent: 5 },
        { name: 'Gold', min_spend: 150_000, percent: 7 },
      ],
      max_redeem_percent: 50,
    },
  });
  const owner = { ...accounts.ownerCaller(venue), livemode: false };
  for (const m of DEMO_MEMBERS) {
    const member = await members.enrolMember(trx, owner, { card_number: m.card, consent: true, name: m.name, phone: m.phone ?? undefined });
    if (m.spend || m.cashback) {
      await members.appendLedger(trx, owner, [
        { memberId: member.id, kind: 'import', spend: m.spend, cashback: m.cashback, reason: 'Imported from the previous loyalty system' },
      ]);
    }
  }
}
