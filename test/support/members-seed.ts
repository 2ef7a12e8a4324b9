// Many members made by one SQL statement per 20,000 (the directory's benchmark and browser test): names from the
// lists below, accents and all; each member a phone, an e-mail and a card; spend and cashback spread; last visits over
// a year, a tenth never came; the ledger holds each member's totals as one import entry. Member i's phone, e-mail and
// card follow from i. Also a members file for the import, whose every figure follows from the line's number.
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

export const FIRST_NAMES = ['Aoife', 'Seán', 'Zoë', 'José', 'Élodie', 'Liam', 'Niamh', 'Conor', 'Saoirse', 'Oisín', 'Emma', 'Jack', 'Chloé', 'Darragh', 'Ciara', 'Pádraig', 'Maëlle', 'Tomás', 'Róisín', 'Eoin'];
export const LAST_NAMES = ['Murphy', 'Kelly', "O'Brien", 'Byrne', 'Ryan', 'García', 'Walsh', 'Ní Bhriain', 'Doyle', 'McCarthy', 'Müller', 'Lynch', 'Ó Súilleabháin', 'Quinn', 'Dupont', 'Nolan', 'Brennan', 'Kavanagh', 'Whelan', 'Fitzgerald'];

export const seededPhone = (i: number) => `+35386${String(i).padStart(7, '0')}`;
export const seededEmail = (i: number) => `guest${i}@example.ie`;
export const seededCard = (i: number) => `BENCH-${i}`;
/** Member i's name: a first and a last name from the lists, and every third member their number too. */
export const seededName = (i: number) => `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]}${i % 3 === 0 ? ` ${i}` : ''}`;

export async function seedMembers(db: Db, at: { chainId: string; venueId: string; programId: string }, count: number): Promise<void> {
  for (let from = 0; from < count; from += 20_000) {
    const to = Math.min(count, from + 20_000) - 1;
    await sql`insert into members (chain_id, id, home_venue_id, program_id, serial, phone, email, name, consented_at, referral_code, livemode, created_at,
        cashback, spend, visits, last_visit_at)
      select ${at.chainId}, gen_random_uuid(), ${at.venueId}, ${at.programId}, 'S' || lpad(i::text, 9, '0'), '+35386' || lpad(i::text, 7, '0'),
        'guest' || i || '@example.ie',
        (${FIRST_NAMES}::text[])[1 + i % ${FIRST_NAMES.length}] || ' ' || (${LAST_NAMES}::text[])[1 + (i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}]
          || case when i % 3 = 0 then ' ' || i else '' end,
        now() - interval '2 years', 'R' || lpad(i::text, 9, '0'), true, now() - (i || ' minutes')::interval,
        (i * 37) % 5000, (i * 7919) % 300000, i % 40,
        case when i % 10 = 0 then null else now() - ((i * 13) % 365 || ' days')::interval end
      from generate_series(${from}::int, ${to}::int) i`.execute(db);
    const these = sql`m.chain_id = ${at.chainId} and m.serial between ${`S${String(from).padStart(9, '0')}`} and ${`S${String(to).padStart(9, '0')}`}`;
    await sql`insert into member_cards (chain_id, member_id, card_number)
      select m.chain_id, m.id, 'BENCH-' || substr(m.serial, 2)::int from members m where ${these}`.execute(db);
    // The ledger holds what the totals say, as an import's opening entry would.
    await sql`insert into ledger_entries (chain_id, id, venue_id, member_id, kind, cashback, spend, visits, livemode, created_at)
      select m.chain_id, gen_random_uuid(), null, m.id, 'import', m.cashback, m.spend, m.visits, m.livemode, m.created_at from members m where ${these}`.execute(db);
  }
}

export const IMPORT_HEADER = 'card_number,phone,name,consent_date,opening_balance,total_spend,visits,stamps';

/** Member i of a generated members file: its figures follow from i, so a test knows every one without reading them back. */
export const generatedMember = (i: number) => ({
  card: `G${String(i).padStart(7, '0')}`,
  phone: `+35387${String(1_000_000 + i).slice(-7)}`,
  balance: (i * 7) % 1000,
  spend: i * 10,
  visits: i % 20,
});

/** Writes members 0..count-1 as the import's CSV. */
export function writeMembersFile(file: string, count: number): void {
  const lines = [IMPORT_HEADER];
  for (let i = 0; i < count; i++) {
    const m = generatedMember(i);
    lines.push(`${m.card},${m.phone},Guest ${i},2024-03-01,${m.balance},${m.spend},${m.visits},0`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
}
