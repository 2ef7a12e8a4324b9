// Factories for venues, owners and keys, through the domain services as the CLI and dashboard use them.
import { SYSTEM } from '../../src/modules/audit/service.js';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import * as accounts from '../../src/modules/accounts/service.js';
import * as members from '../../src/modules/members/service.js';
import * as menu from '../../src/modules/menu/service.js';
import type { ProgramType } from '../../src/modules/programs/schemas.js';
import * as programs from '../../src/modules/programs/service.js';
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
    by: SYSTEM,
  });
}

/** A chain key (D21): it acts at any venue of the chain, naming it with venue_id. */
export async function createChainKey(t: TestApp, chainId: string, input: KeyInput = {}) {
  return accounts.createApiKey(t.db, t.pepper, {
    chainId,
    name: input.name ?? 'chain key',
    livemode: input.livemode ?? false,
    scopes: input.scopes,
    rules: input.rules,
    by: SYSTEM,
  });
}

export async function revokeKey(t: TestApp, key: accounts.ApiKeyInfo) {
  return t.db.transaction().execute((trx) => accounts.revokeApiKey(trx, { chainId: key.chainId, keyId: key.id, at: t.clock.now(), by: SYSTEM }));
}

/** A new venue with a full-access test key: the usual starting point of a test. */
export async function venueWithKey(t: TestApp, input: KeyInput = {}) {
  const venue = await createVenue(t);
  const { key, secret } = await createKey(t, venue, input);
  return { venue, key, secret };
}

export const PROGRAM_SETTINGS: Record<ProgramType, Record<string, unknown>> = {
  cashback: {
    levels: [
      { name: 'Bronze', min_spend: 0, percent: 3 },
      { name: 'Silver', min_spend: 50_000, percent: 5 },
      { name: 'Gold', min_spend: 150_000, percent: 7.5 },
    ],
  },
  stamps: { stamps_required: 5, reward_name: 'Free coffee' },
  visit_discount: { tiers: [{ min_visits: 0, percent: 0 }, { min_visits: 3, percent: 5 }, { min_visits: 10, percent: 10 }] },
  vip: { levels: [{ name: 'Guest', min_spend: 0, percent: 0 }, { name: 'VIP', min_spend: 100_000, percent: 10 }, { name: 'Black', min_spend: 500_000, percent: 20 }] },
};

export async function createProgram(
  t: TestApp,
  venue: accounts.Venue,
  type: ProgramType = 'cashback',
  input: Partial<programs.NewProgram> = {},
) {
  return programs.createProgram(t.db, venue.chainId, { name: `${type} program`, type, settings: PROGRAM_SETTINGS[type], ...input });
}

export const newCardNumber = () => `C${randomBytes(5).toString('hex').toUpperCase()}`;

/** Records spend, visits, stamps or cashback straight in the ledger, as applied checks will. */
export async function seedLedger(t: TestApp, venue: accounts.Venue, entry: members.LedgerInput) {
  return t.db.transaction().execute((trx) => members.appendLedger(trx, { chainId: venue.chainId, venueId: venue.id, livemode: false }, [entry]));
}

export async function createTable(t: TestApp, venue: accounts.Venue, name = `Table ${randomBytes(2).toString('hex')}`) {
  return menu.createTable(t.db, accounts.placeOf(venue), { name }, SYSTEM);
}

/** Σ of one ledger column for a member, read straight from the table: what balances must equal. */
export async function ledgerSum(t: TestApp, memberId: string, column: 'cashback' | 'stamps' | 'spend' = 'cashback'): Promise<number> {
  const { rows } = await sql<{ total: string | number }>`
    select coalesce(sum(${sql.ref(column)}), 0) as total from ledger_entries where member_id = ${memberId}`.execute(t.db);
  return Number(rows[0]!.total);
}

/**
 * An unforeseen refusal, made to order: the database refuses to store `cardNumber` for this venue (a trigger), so
 * a test can see what a write does when a batch fails for a reason no validation knew. Returns the undo.
 */
export async function refuseCard(t: TestApp, venue: accounts.Venue, cardNumber: string): Promise<() => Promise<void>> {
  await sql
    .raw(
      `create or replace function refuse_card() returns trigger language plpgsql as $$ begin
         if new.card_number = '${cardNumber}' and new.chain_id = '${venue.chainId}' then raise exception '${cardNumber} refused'; end if; return new; end $$`,
    )
    .execute(t.db);
  await sql.raw('create trigger refuse_card before insert on member_cards for each row execute function refuse_card()').execute(t.db);
  return async () => {
    await sql.raw('drop trigger refuse_card on member_cards').execute(t.db);
    await sql.raw('drop function refuse_card()').execute(t.db);
  };
}
