// Every statement the check, look-up, hold and refund paths send filters every tenant table by chain_id (D21), as
// PostgreSQL itself plans it: each statement is explained again with its parameters, and every scan of a tenant
// table must carry chain_id in its own condition or in the join that feeds it. Nothing here is a list kept by hand.
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, seedLedger, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';
import { LOCAL_TABLES, REFERENCE_TABLES } from '../support/tenancy.js';

const t = useTestApp();

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [condition: string]: unknown;
}

const CONDITIONS = ['Index Cond', 'Recheck Cond', 'Filter', 'Hash Cond', 'Join Filter', 'Merge Cond', 'TID Cond'];
const conditionsOf = (node: PlanNode) => CONDITIONS.map((c) => node[c]).filter((c): c is string => typeof c === 'string');

/** Scans of `tables` in the plan that no condition on them, or on a join above them, restricts by chain_id. */
function unfiltered(node: PlanNode, tables: Set<string>, above: string[] = []): string[] {
  const here = conditionsOf(node);
  const found: string[] = [];
  const relation = node['Relation Name'];
  if (relation && tables.has(relation) && node['Node Type'] !== 'ModifyTable') {
    const alias = node.Alias ?? relation;
    const own = here.some((c) => /\bchain_id\b/.test(c));
    const joined = above.some((c) => new RegExp(`\\b${alias}\\.chain_id\\b`).test(c));
    if (!own && !joined) found.push(`${node['Node Type']} on ${relation} ${alias}`);
  }
  for (const child of node.Plans ?? []) found.push(...unfiltered(child, tables, [...above, ...here]));
  return found;
}

async function tenantTables(): Promise<Set<string>> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'chain_id'`.execute(t.db);
  return new Set(rows.map((r) => r.table_name).filter((name) => !(name in REFERENCE_TABLES) && !(name in LOCAL_TABLES)));
}

/** The statements one request sent, with their parameters (it must succeed). */
async function statementsOf(send: () => Promise<{ status: number; body: unknown }>) {
  const from = t.testDatabase.statements.length;
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return t.testDatabase.statements.slice(from);
}

/** Each statement that reads a tenant table without chain_id, with what it missed; [] when all of them filter. */
async function breaches(statements: { sql: string; parameters: readonly unknown[] }[]) {
  const tables = await tenantTables();
  const found: string[] = [];
  for (const s of statements.filter((x) => /^\s*(select|with|update|delete|insert)\b/i.test(x.sql))) {
    const result = await t.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(CompiledQuery.raw(`explain (format json) ${s.sql}`, [...s.parameters]));
    const plan = result.rows[0]!['QUERY PLAN'][0].Plan;
    for (const miss of unfiltered(plan, tables)) found.push(`${miss}: ${s.sql.slice(0, 160)}`);
  }
  return found;
}

describe('the hot paths filter every tenant table by chain_id', () => {
  it('reads the plans: a statement without chain_id is reported (the check itself can fail)', async () => {
    const probe = await breaches([{ sql: 'select id from members where id = $1', parameters: ['00000000-0000-7000-8000-000000000000'] }]);
    expect(probe).toHaveLength(1);
    expect(probe[0]).toMatch(/on members/);
  });

  it('look-ups, scans, calculate, a check with redemption and Idempotency-Key, a hold and its capture, refund and void', async () => {
    const { venue, secret } = await venueWithKey(t, { rules: { max_cashback_per_day: 10_000 } });
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
    const api = client(t, secret);
    await api.put('/api/v1/catalog/products/WINE', { name: 'Rioja', category: 'wine' });
    const card = newCardNumber();
    const member = (await api.post('/api/v1/members', { card_number: card, consent: true, phone: '087 222 3344' })).body;
    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 5_000, reason: 'seed' });
    const lines = [{ sku: 'WINE', name: 'Rioja', quantity: 1, unit_price: 2_000 }];

    const sent = [
      ...(await statementsOf(() => api.get(`/api/v1/members/lookup?card_number=${card}`))),
      ...(await statementsOf(() => api.get(`/api/v1/members/lookup?phone=${encodeURIComponent(member.phone)}`))),
      ...(await statementsOf(() => api.get(`/api/v1/members/lookup?barcode=${encodeURIComponent(member.barcode.value)}`))),
      ...(await statementsOf(() => api.get(`/api/v1/members/${member.id}`))),
      ...(await statementsOf(() => api.post('/api/v1/scans', { code: card }))),
      ...(await statementsOf(() => api.post('/api/v1/checks/calculate', { member_id: member.id, redeem_amount: 100, line_items: lines }))),
      ...(await statementsOf(() => api.post('/api/v1/checks', { external_id: 'S-1', member_id: member.id, redeem_amount: 100, line_items: lines }, { 'idempotency-key': 'chain-s-1' }))),
    ];
    let hold = { status: 0, body: { id: '' } };
    sent.push(...(await statementsOf(async () => (hold = await api.post('/api/v1/holds', { member_id: member.id, amount: 300 })))));
    sent.push(
      ...(await statementsOf(() => api.post('/api/v1/checks', { external_id: 'S-2', hold_id: hold.body.id, line_items: lines }))),
      ...(await statementsOf(() => api.post('/api/v1/transactions/S-1/refunds', { external_id: 'R-1', amount: 500 }))),
      ...(await statementsOf(() => api.post('/api/v1/transactions/S-2/void', {}))),
      ...(await statementsOf(() => api.post('/api/v1/holds', { member_id: member.id, amount: 100 }))),
    );
    expect(sent.length).toBeGreaterThan(20);
    expect(await breaches(sent)).toEqual([]);
  });
});
