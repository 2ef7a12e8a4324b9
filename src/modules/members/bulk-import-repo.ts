// SQL of the members import: one set-based statement per batch writes the members, their cards and their `import`
// ledger entries; the chain's import lock; the erased members' card numbers an import skips, as keyed hashes.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Lot } from './expiry.js';

/** One member as a batch carries it: ids, serial and referral code drawn by the caller, figures in minor units. */
export interface ImportedMember {
  id: string;
  ledger_id: string;
  serial: string;
  referral_code: string;
  card_number: string;
  /** The card number's keyed hash as an erased card would be recorded (erased-cards.ts), null if none can be. */
  card_hash: string | null;
  phone: string | null;
  /** Trimmed and lower-cased; no other member of the chain has it (bulk-import.ts checks). */
  email: string | null;
  name: string | null;
  consented_at: string;
  cashback: number;
  spend: number;
  visits: number;
  stamps: number;
}

export interface ImportBatchTarget {
  chainId: string;
  /** The venue the import comes from: its members' home venue, where their `import` entries happened; null: none. */
  venueId: string | null;
  programId: string;
  livemode: boolean;
  /** What the ledger entries name as their source: the import's id or the file's name. */
  reference: string;
  at: Date;
  /** The lot opening balances form when the program expires cashback (members/expiry-service.ts openingLots). */
  lot?: Lot | null;
}

/**
 * Runs a chain's imports one batch at a time: a batch waits for another process's batch of the same chain (from
 * any of its venues: card numbers are the chain's), so two runs of one file never both find a card number free.
 * Call first in the batch's transaction.
 */
export async function lockVenueImports(trx: Db, chainId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`member_import:${chainId}`}, 0))`.execute(trx);
}

/** The chain's key for hashing erased card numbers; with `create`, drawn (`secret`) if the chain has none yet. */
export async function erasureKey(db: Db, chainId: string, create?: { secret: string }): Promise<string | undefined> {
  if (create) await db.insertInto('member_erasure_keys').values({ chain_id: chainId, secret: create.secret }).onConflict((oc) => oc.column('chain_id').doNothing()).execute();
  const row = await db.selectFrom('member_erasure_keys').select('secret').where('chain_id', '=', chainId).executeTakeFirst();
  return row?.secret;
}

/**
 * Of `emails`, those a member of the chain has who holds none of the card numbers the lines give with it: a line
 * whose card is already that member's is skipped as imported before, any other would give a second member the address.
 */
export async function emailsTaken(db: Db, chainId: string, lines: { email: string; card_number: string }[]): Promise<Set<string>> {
  if (lines.length === 0) return new Set();
  const { rows } = await sql<{ email: string }>`
    select i.email from jsonb_to_recordset(cast(${JSON.stringify(lines)} as jsonb)) as i(email text, card_number text)
    join members m on m.chain_id = ${chainId} and m.email = i.email
    where not exists (select 1 from member_cards c where c.chain_id = ${chainId} and c.member_id = m.id and c.card_number = i.card_number)`.execute(db);
  return new Set(rows.map((r) => r.email));
}

/** Records erased card numbers by their keyed hashes (an import skips them). */
export async function insertErasedCards(db: Db, chainId: string, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await db.insertInto('erased_cards').values(hashes.map((card_hash) => ({ chain_id: chainId, card_hash }))).onConflict((oc) => oc.doNothing()).execute();
}

/**
 * Inserts the members whose card number the chain does not have yet, with their cards and one `import` ledger
 * entry each carrying the opening balance, spend, visits and stamps; the member row's totals are written from the
 * same figures by the same statement, so `ledger verify` holds. The only place `import` entries are written.
 * Returns the card numbers it imported; the others were there already, or were an erased member's.
 */
export async function insertImportedMembers(trx: Db, target: ImportBatchTarget, members: ImportedMember[]): Promise<Set<string>> {
  if (members.length === 0) return new Set();
  const { rows } = await sql<{ card_number: string }>`
    with input as (
      select * from jsonb_to_recordset(cast(${JSON.stringify(members)} as jsonb)) as r(
        id uuid, ledger_id uuid, serial text, referral_code text, card_number text, card_hash text, phone text, email text, name text, consented_at timestamptz,
        cashback bigint, spend bigint, visits integer, stamps integer)
    ), fresh as (
      select i.* from input i
      where not exists (select 1 from member_cards c where c.chain_id = ${target.chainId} and c.card_number = i.card_number)
        and not exists (select 1 from erased_cards e where e.chain_id = ${target.chainId} and e.card_hash = i.card_hash)
    ), new_members as (
      insert into members (chain_id, id, home_venue_id, program_id, serial, referral_code, phone, email, name, consented_at, livemode, created_at, cashback, spend, visits, stamps)
      select ${target.chainId}, f.id, ${target.venueId}, ${target.programId}, f.serial, f.referral_code, f.phone, f.email, f.name, f.consented_at, ${target.livemode}, ${target.at},
        f.cashback, f.spend, f.visits, f.stamps
      from fresh f
      returning id
    ), new_cards as (
      insert into member_cards (chain_id, card_number, member_id, created_at)
      select ${target.chainId}, f.card_number, f.id, ${target.at} from fresh f
    ), import_entries as (
      insert into ledger_entries (chain_id, venue_id, id, member_id, kind, cashback, spend, visits, stamps, reason, reference, livemode, created_at)
      select ${target.chainId}, ${target.venueId}, f.ledger_id, f.id, 'import', f.cashback, f.spend, f.visits, f.stamps, 'Imported opening figures',
        ${target.reference}, ${target.livemode}, ${target.at}
      from fresh f
    )${
      target.lot
        ? sql`, import_lots as (
      insert into cashback_lots (chain_id, member_id, venue_id, day, expires_on, expires_at, remaining, warn_at)
      select ${target.chainId}, f.id, ${target.lot.venueId}, ${target.lot.day}, ${target.lot.expiresOn}, ${target.lot.expiresAt}, f.cashback, ${target.lot.warnAt ?? null}
      from fresh f where f.cashback > 0
    )`
        : sql``
    }
    select f.card_number from fresh f join new_members n on n.id = f.id`.execute(trx);
  return new Set(rows.map((r) => r.card_number));
}
