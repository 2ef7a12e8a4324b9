// Nothing on the till's path grows with history (issue 21): each read its requests send touches as many pages of
// PostgreSQL's storage with ten times a venue's past checks, holds and ledger as with a tenth of them, in the plan
// PostgreSQL keeps for the statement (its generic plan), measured by PostgreSQL itself (EXPLAIN … BUFFERS).
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, seedLedger, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();

interface PlanNode {
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
}

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

/**
 * The pages a statement touches in its generic plan, the plan a prepared statement keeps: prepared, then run under
 * EXPLAIN with the parameters it was sent with, in a transaction rolled back (its locks and claims leave nothing).
 * Undefined for a write that, run again, meets the row it wrote (a check's external id).
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
      const run = CompiledQuery.raw(`explain (analyze, buffers, format json) execute ${name}${args ? `(${args})` : ''}`);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(run);
      const plan = rows[0]!['QUERY PLAN'][0].Plan;
      pages = plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
      throw new RolledBack();
    })
    .catch((err: unknown) => {
      const rewritten = (err as { code?: string }).code === '23505' && /\binsert\b/i.test(statement.sql);
      if (!(err instanceof RolledBack) && !rewritten) throw err;
    });
  return pages;
}

/**
 * `times` past checks at the venue on the till's register (other members' and the member's own on earlier days),
 * released holds of the member, and another member's ledger (entries of nothing, so totals stay true); with statistics, as a busy venue's.
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
    from (select * from ledger_entries where member_id = ${otherId} limit 1) l, generate_series(1, ${times})`.execute(t.db);
  await sql`analyze`.execute(t.db);
}

describe('history', () => {
  it('each read of a check, a look-up, a calculate, a hold and its capture, a refund and a void touches as many pages with ten times the history', async () => {
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
    await addHistory(member.id, other.id, 300);

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
    const statements = sent.filter((s) => /^\s*(select|with)\b/i.test(s.sql));
    const before: (number | undefined)[] = [];
    for (const s of statements) before.push(await pagesRead(s));
    // Every statement was measured but the writes of new rows, whose ids are taken.
    expect(statements.filter((s, i) => before[i] === undefined && !/\binsert\b/i.test(s.sql))).toEqual([]);
    expect(before.filter((p) => p !== undefined).length).toBe(15);
    await addHistory(member.id, other.id, 2_700);
    const grown: string[] = [];
    for (const [i, s] of statements.entries()) {
      const after = await pagesRead(s);
      // An index one level deeper costs a page per scan; a read that walks the history costs hundreds.
      if (after !== before[i] && (after === undefined || before[i] === undefined || after > before[i]! + 4)) grown.push(`${before[i]} → ${after} pages: ${s.sql.slice(0, 300)}`);
    }
    expect(grown).toEqual([]);
  });
});
