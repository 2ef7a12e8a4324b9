// Nothing on the till's path grows with history (issue 21): each statement its requests send touches as many pages
// of PostgreSQL's storage with ten times a venue's past checks, holds and ledger (and the member's own) as with a tenth
// of them, in the plan PostgreSQL keeps for the statement (its generic plan). PostgreSQL counts the pages itself: the
// blocks its tables, indexes and TOAST fetched in the transaction (pg_stat_get_xact_blocks_fetched), writes in a
// statement's CTEs included. A statement that inserts a new row is not measured: run again, it meets its own id.
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, seedLedger, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();

type Statement = { sql: string; parameters: readonly unknown[] };

/** The statements one request sent, with their parameters (it must succeed). */
async function statementsOf(send: () => Promise<{ status: number; body: unknown }>): Promise<Statement[]> {
  const from = t.testDatabase.statements.length;
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return t.testDatabase.statements.slice(from);
}

class RolledBack extends Error {}
let prepared = 0;

/** Blocks every table, index and TOAST table of ours fetched so far in this transaction (ours: past the catalogue's oids). */
const blocksFetched = sql<{ blocks: string }>`select coalesce(sum(pg_stat_get_xact_blocks_fetched(oid)), 0)::text as blocks
  from pg_class where oid >= 16384`;

/**
 * The pages a statement touches in its generic plan, the plan a prepared statement keeps: prepared, then run with the
 * parameters it was sent with, in a transaction rolled back (its locks, claims and writes leave nothing). Undefined
 * for a write that, run again, meets the row it inserted.
 */
async function pagesRead(statement: Statement): Promise<number | undefined> {
  let pages: number | undefined;
  // PREPARE outlives the transaction rolled back: each gets a name of its own.
  const name = `history_${++prepared}`;
  await t.db
    .transaction()
    .execute(async (trx) => {
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      await trx.executeQuery(CompiledQuery.raw(`prepare ${name} as ${statement.sql}`));
      // EXECUTE takes its arguments as literals, written as pg writes the values it sends.
      const args = statement.parameters.map((v) => (v === null || v === undefined ? 'null' : pg.escapeLiteral(String(pgUtils.prepareValue(v))))).join(', ');
      const before = Number((await blocksFetched.execute(trx)).rows[0]!.blocks);
      await trx.executeQuery(CompiledQuery.raw(`execute ${name}${args ? `(${args})` : ''}`));
      pages = Number((await blocksFetched.execute(trx)).rows[0]!.blocks) - before;
      throw new RolledBack();
    })
    .catch((err: unknown) => {
      const inserted = (err as { code?: string }).code === '23505' && /\binsert\b/i.test(statement.sql);
      if (!(err instanceof RolledBack) && !inserted) throw err;
    });
  return pages;
}

/**
 * `times` past checks at the venue on the till's register (other members' and the member's own on earlier days),
 * released holds of the member, and ledger entries of the member and of another (entries of nothing, so totals stay
 * true); with statistics, as a busy venue's.
 */
async function addHistory(memberId: string, otherId: string, times: number) {
  await sql`insert into transactions
    select (jsonb_populate_record(null::transactions, to_jsonb(x) || jsonb_build_object(
      'id', gen_random_uuid(), 'external_id', 'PAST-' || gen_random_uuid(),
      'member_id', case when n % 2 = 0 then x.member_id end, 'venue_day', x.venue_day - (1 + n % 300)))).*
    from (select * from transactions where member_id = ${memberId} limit 1) x, generate_series(1, ${times}) n`.execute(t.db);
  await sql`insert into holds
    select (jsonb_populate_record(null::holds, to_jsonb(h) || jsonb_build_object('id', gen_random_uuid(), 'status', 'released', 'finished_at', now()))).*
    from (select * from holds where member_id = ${memberId} limit 1) h, generate_series(1, ${times})`.execute(t.db);
  await sql`insert into ledger_entries
    select (jsonb_populate_record(null::ledger_entries, to_jsonb(l) || jsonb_build_object('id', gen_random_uuid(), 'cashback', 0, 'spend', 0, 'visits', 0, 'stamps', 0))).*
    from (select distinct on (member_id) * from ledger_entries where member_id in (${memberId}, ${otherId}) order by member_id, id) l,
      generate_series(1, ${times} / 2)`.execute(t.db);
  await sql`analyze`.execute(t.db);
}

describe('history', () => {
  it('each statement of a look-up, a calculate, a check, a hold and its capture, a refund and a void touches as many pages with ten times the history (inserts of new rows aside)', { timeout: 120_000 }, async () => {
    const { venue, secret } = await venueWithKey(t, { rules: { max_cashback_per_day: 10_000 } });
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
    const api = client(t, secret);
    await api.put('/api/v1/catalog/products/WINE', { name: 'Rioja', category: 'wine' });
    const card = newCardNumber();
    const member = (await api.post('/api/v1/members', { card_number: card, consent: true })).body;
    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 5_000, reason: 'seed' });
    const other = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    await seedLedger(t, venue, { memberId: other.id, kind: 'adjustment', cashback: 100, reason: 'seed' });
    const lines = [{ sku: 'WINE', name: 'Rioja', quantity: 1, unit_price: 2_000 }, { name: 'Steak', quantity: 2, unit_price: 1_500 }];
    const till = { register_id: 'till-7' };
    await api.post('/api/v1/checks', { ...till, external_id: 'H-0', member_id: member.id, line_items: lines });
    const past = await api.post('/api/v1/holds', { member_id: member.id, amount: 100 });
    await api.post(`/api/v1/holds/${past.body.id}/release`);
    await addHistory(member.id, other.id, 1_000);

    const sent: Statement[] = [
      ...(await statementsOf(() => api.get(`/api/v1/members/lookup?card_number=${card}`))),
      ...(await statementsOf(() => api.post('/api/v1/checks/calculate', { member_id: member.id, redeem_amount: 100, line_items: lines }))),
      ...(await statementsOf(() => api.post('/api/v1/checks', { ...till, external_id: 'H-1', member_id: member.id, redeem_amount: 100, line_items: lines }, { 'idempotency-key': 'history-1' }))),
    ];
    let hold = { status: 0, body: { id: '' } };
    sent.push(...(await statementsOf(async () => (hold = await api.post('/api/v1/holds', { member_id: member.id, amount: 300 })))));
    sent.push(
      ...(await statementsOf(() => api.post('/api/v1/checks', { ...till, external_id: 'H-2', member_id: member.id, line_items: lines }))),
      ...(await statementsOf(() => api.post(`/api/v1/holds/${hold.body.id}/capture`, { ...till, external_id: 'H-2' }))),
      ...(await statementsOf(() => api.post('/api/v1/transactions/H-1/refunds', { ...till, external_id: 'R-1', amount: 500 }))),
      ...(await statementsOf(() => api.post('/api/v1/transactions/H-0/void', till))),
      ...(await statementsOf(() => api.get('/api/v1/transactions/H-1?register_id=till-7'))),
    );
    const statements = sent.filter((s) => !/^\s*(begin|commit|rollback)\b/i.test(s.sql));
    const before: (number | undefined)[] = [];
    for (const s of statements) before.push(await pagesRead(s));
    // Every statement was measured but the writes of new rows, whose ids are taken.
    expect(statements.filter((s, i) => before[i] === undefined && !/\binsert\b/i.test(s.sql))).toEqual([]);
    expect(before.filter((p) => p !== undefined).length).toBe(15);
    // PostgreSQL counted: every statement measured read something.
    expect(before.filter((p) => p === 0)).toEqual([]);
    await addHistory(member.id, other.id, 9_000);
    const grown: string[] = [];
    for (const [i, s] of statements.entries()) {
      const after = await pagesRead(s);
      // An index one level deeper costs a page per scan; walking 9,000 more entries costs more than four pages even
      // in a deduplicated index (about six bytes an entry).
      if (after !== before[i] && (after === undefined || before[i] === undefined || after > before[i]! + 4)) grown.push(`${before[i]} → ${after} pages: ${s.sql.slice(0, 300)}`);
    }
    expect(grown).toEqual([]);
  });
});
