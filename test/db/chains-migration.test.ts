// Owns the proof that migrating a database from 0016 to the latest (0017_chains on) keeps what venue keys see working.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { verifyTotals } from '../../src/modules/members/service.js';
import { sealStoredSecrets } from '../../src/modules/webhooks/service.js';
import { createServer, LOG_REDACT, type Running } from '../../src/server.js';
import { ManualClock } from '../../src/shared/clock.js';
import { openSecretBox } from '../../src/shared/secret-box.js';
import { testConfig } from '../support/app.js';
import { installContractChecks } from '../support/contract.js';
import { openEmptyDatabase } from '../support/database.js';
import { logSink } from '../support/log-grep.js';

/**
 * test/fixtures/previous-schema.json: every row of a database at 0016 that the code of that time filled over its
 * HTTP API (two venues, members, checks, holds, a refund, a void, an adjustment, a webhook endpoint, keys), and that
 * code's answers to the reads a till makes, taken at `clock`. The generator was a scratch vitest file run in a
 * worktree of the 0016 commit; the keys are test keys of that throwaway database.
 */
interface Fixture {
  migration: string;
  clock: string;
  pepper: string;
  keys: { venue_id: string; name: string; scopes: string[]; revoked: boolean; secret: string }[];
  scenario: {
    cafe: { venue_id: string; key: number; limited_key: number; revoked_key: number };
    bar: { venue_id: string; key: number };
    cashback_members: string[];
    active_hold: { id: string; member_id: string; amount: number };
    bar_member: string;
    replays: {
      check: { body: Record<string, unknown> };
      enrolment: { idempotency_key: string; body: Record<string, unknown> };
    };
  };
  rows: Record<string, Record<string, unknown>[]>;
  expected: { answers: { key: number; path: string; status: number; body: unknown }[] };
}

const fx: Fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/previous-schema.json'), 'utf8'));
const { cafe, bar } = fx.scenario;

let database: Database;
let server: Running;

beforeAll(async () => {
  database = await openEmptyDatabase();
  await migrateTo(database.db, fx.migration);
  await loadRows(database.db, fx.rows);
  await migrateToLatest(database.db);
  const config = testConfig();
  // What a real start does before serving (openStorage in src/server.ts): it refuses to start when a stored webhook
  // signing secret no longer opens, for instance because the venue/chain it is sealed to changed.
  await sealStoredSecrets(database.db, openSecretBox(config));
  // The clock the answers were taken at: holds expire and idempotency keys lapse by it.
  const clock = new ManualClock(fx.clock);
  const dns = new Map([['hooks.example.com', ['93.184.216.34']]]);
  const resolveHost = async (host: string) => dns.get(host) ?? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
  // Logged like every test app, into the run's directory, so the log grep covers the fixture's keys too.
  const logger = { level: 'trace', redact: LOG_REDACT, stream: logSink(inject('testLogDir'), `app-${process.pid}`) };
  server = await createServer(config, database, fx.pepper, { clock, resolveHost }, logger);
  installContractChecks(server.app);
});

afterAll(async () => {
  await server?.close();
  await database?.close();
});

/**
 * Inserts the fixture's rows, each table after the tables its foreign keys point to (read from the catalogue, so
 * the order follows the schema). The fixture must name every table of the schema: a table it missed would be a
 * table this test does not cover.
 */
async function loadRows(db: Kysely<any>, rows: Fixture['rows']): Promise<void> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_migration%'`.execute(db);
  expect(Object.keys(rows).sort()).toEqual(tables.map((t) => t.name).sort());
  const { rows: references } = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint c
      join pg_class child on child.oid = c.conrelid
      join pg_class parent on parent.oid = c.confrelid
      join pg_namespace n on n.oid = child.relnamespace
    where c.contype = 'f' and n.nspname = 'public'`.execute(db);
  const loaded = new Set<string>();
  const pending = Object.keys(rows);
  while (pending.length) {
    // A self-reference needs no order: PostgreSQL checks foreign keys at the end of the one INSERT.
    const ready = pending.findIndex((table) => references.every((r) => r.child !== table || r.parent === table || loaded.has(r.parent)));
    if (ready < 0) throw new Error(`foreign keys form a cycle among ${pending.join(', ')}`);
    const [table] = pending.splice(ready, 1) as [string];
    if (rows[table]!.length) {
      const { numAffectedRows } = await sql`
        insert into ${sql.table(table)} select * from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows[table])}::json)`.execute(db);
      expect(Number(numAffectedRows), table).toBe(rows[table]!.length);
    }
    loaded.add(table);
  }
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

/** A request over the app's HTTP stack with one of the fixture's keys (by index). Secrets never reach a message. */
async function send(key: number, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await server.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${fx.keys[key]!.secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body ? res.json() : undefined };
}

/** A read that must succeed; its body. */
async function read(key: number, url: string): Promise<any> {
  const res = await send(key, 'GET', url);
  expect(res.status, `GET ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/**
 * Where `newValue` departs from `oldValue`, or undefined when every field of the old answer is in the new one with
 * the same value. New fields are allowed (the API may grow); arrays must keep their length and order.
 */
function containsOld(newValue: unknown, oldValue: unknown, at = '$'): string | undefined {
  if (Array.isArray(oldValue)) {
    if (!Array.isArray(newValue)) return `${at}: an array became ${JSON.stringify(newValue)}`;
    if (newValue.length !== oldValue.length) return `${at}: ${oldValue.length} items became ${newValue.length}`;
    for (let i = 0; i < oldValue.length; i++) {
      const difference = containsOld(newValue[i], oldValue[i], `${at}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (oldValue !== null && typeof oldValue === 'object') {
    if (newValue === null || typeof newValue !== 'object' || Array.isArray(newValue)) return `${at}: an object became ${JSON.stringify(newValue)}`;
    for (const [field, value] of Object.entries(oldValue)) {
      if (!(field in newValue)) return `${at}.${field}: missing`;
      const difference = containsOld((newValue as Record<string, unknown>)[field], value, `${at}.${field}`);
      if (difference) return difference;
    }
    return undefined;
  }
  return Object.is(newValue, oldValue) ? undefined : `${at}: ${JSON.stringify(oldValue)} became ${JSON.stringify(newValue)}`;
}

const ledgerSum = async (memberId: string) =>
  Number((await sql<{ total: unknown }>`select coalesce(sum(cashback), 0) as total from ledger_entries where member_id = ${memberId}`.execute(database.db)).rows[0]!.total);

describe('migrating a 0016 database with data to the latest schema', () => {
  it('checks the comparison itself: new fields pass, a changed or missing one is named by its path', () => {
    expect(containsOld({ a: 1, b: [{ c: 'x', d: 2 }], e: null }, { a: 1, b: [{ c: 'x' }], e: null })).toBeUndefined();
    expect(containsOld({ a: 1, b: [{ c: 'y' }] }, { a: 1, b: [{ c: 'x' }] })).toBe('$.b[0].c: "x" became "y"');
    expect(containsOld({ a: 1 }, { a: 1, b: null })).toBe('$.b: missing');
    expect(containsOld({ list: [1, 2, 3] }, { list: [1, 2] })).toBe('$.list: 2 items became 3');
  });

  // First, before anything below changes a balance: the answers are those of the moment they were taken at.
  it('answers every read the old server answered, with every old field present and equal', async () => {
    const differences: string[] = [];
    for (const old of fx.expected.answers) {
      const res = await send(old.key, 'GET', old.path);
      const difference = res.status === old.status ? containsOld(res.body, old.body) : `status ${old.status} became ${res.status}: ${JSON.stringify(res.body)}`;
      if (difference) differences.push(`GET ${old.path} (${fx.keys[old.key]!.name}): ${difference}`);
    }
    expect(differences).toEqual([]);
    expect(fx.expected.answers.length).toBeGreaterThan(30);
  });

  it("keeps each member's cashback equal to the sum of their ledger rows", async () => {
    for (const id of fx.scenario.cashback_members) {
      const member = await read(cafe.key, `/api/v1/members/${id}`);
      expect(member.balance, id).toBe(await ledgerSum(id));
    }
  });

  it('applies a new check for an existing member with an old key, moving the balance by what it answers', async () => {
    const id = fx.scenario.cashback_members[0]!;
    const before = await read(cafe.key, `/api/v1/members/${id}`);
    const res = await send(cafe.key, 'POST', '/api/v1/checks', {
      external_id: 'T-2001',
      member_id: id,
      line_items: [{ sku: 'PASTA-1', name: 'Carbonara', quantity: 1, unit_price: 1450 }, { name: 'Flat white', quantity: 2, unit_price: 350 }],
      redeem_amount: 50,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ external_id: 'T-2001', member_id: id, status: 'completed', redeemed: 50 });
    expect(res.body.earned).toBeGreaterThan(0);
    const after = await read(cafe.key, `/api/v1/members/${id}`);
    expect(after.balance).toBe(before.balance + res.body.earned - 50);
    expect(after.total_spend).toBe(before.total_spend + res.body.paid);
    expect(await ledgerSum(id)).toBe(after.balance);
    const history = (await read(cafe.key, `/api/v1/members/${id}/history?limit=100`)).data;
    const ofCheck = history.filter((e: { reference: string | null }) => e.reference === 'T-2001');
    expect(ofCheck.reduce((sum: number, e: { cashback: number }) => sum + e.cashback, 0)).toBe(res.body.earned - 50);
  });

  it('answers a retried old check (same external_id) with that check, applying nothing again', async () => {
    const { check } = fx.scenario.replays;
    const oldCheck = fx.expected.answers.find((a) => a.key === cafe.key && a.path === `/api/v1/transactions/${check.body.external_id}`)!.body as { member_id: string };
    const balance = (await read(cafe.key, `/api/v1/members/${oldCheck.member_id}`)).balance;
    const replayed = await send(cafe.key, 'POST', '/api/v1/checks', check.body);
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(containsOld(replayed.body, oldCheck)).toBeUndefined();
    expect((await read(cafe.key, `/api/v1/members/${oldCheck.member_id}`)).balance).toBe(balance);
  });

  // The stored answer was written by the old code: it must still go out, though the new schema may have more fields.
  it('answers a retried old Idempotency-Key with the answer stored before the migration', async () => {
    const { enrolment } = fx.scenario.replays;
    const enrolled = await send(cafe.key, 'POST', '/api/v1/members', enrolment.body, { 'idempotency-key': enrolment.idempotency_key });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    expect(enrolled.headers['idempotent-replayed']).toBe('true');
    const stored = fx.rows.idempotency_keys!.find((r) => r.key === enrolment.idempotency_key)!.response_body;
    expect(containsOld(enrolled.body, stored)).toBeUndefined();
    expect(enrolled.body.id).toBe(fx.scenario.cashback_members[0]);
  });

  it('captures the hold left active before the migration', async () => {
    const hold = fx.scenario.active_hold;
    expect((await read(cafe.key, `/api/v1/holds/${hold.id}`)).status).toBe('active');
    const res = await send(cafe.key, 'POST', '/api/v1/checks', {
      external_id: 'T-2002',
      member_id: hold.member_id,
      hold_id: hold.id,
      line_items: [{ name: 'Lunch menu', quantity: 1, unit_price: 2200 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ hold_id: hold.id, redeemed: hold.amount });
    expect((await read(cafe.key, `/api/v1/holds/${hold.id}`))).toMatchObject({ status: 'captured', captured_by: 'T-2002', captured_amount: hold.amount });
    const member = await read(cafe.key, `/api/v1/members/${hold.member_id}`);
    expect(member).toMatchObject({ held: 0, available: member.balance });
    expect(await ledgerSum(hold.member_id)).toBe(member.balance);
  });

  it("keeps each venue's data its own, and each key's limits: another venue's key, a limited key, a revoked key", async () => {
    const annaId = fx.scenario.cashback_members[0]!;
    const refused = async (key: number, url: string) => {
      const res = await send(key, 'GET', url);
      return [res.status, res.body.error?.code];
    };
    expect(await refused(bar.key, `/api/v1/members/${annaId}`)).toEqual([404, 'member_not_found']);
    expect(await refused(cafe.key, `/api/v1/members/${fx.scenario.bar_member}`)).toEqual([404, 'member_not_found']);
    // Both venues gave out card 4000101: each key finds its own venue's member.
    expect((await read(bar.key, '/api/v1/members/lookup?card_number=4000101')).id).toBe(fx.scenario.bar_member);
    expect((await read(cafe.key, '/api/v1/members/lookup?card_number=4000101')).id).toBe(annaId);

    const limited = await send(cafe.limited_key, 'POST', '/api/v1/checks', { external_id: 'T-2003', line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] });
    expect([limited.status, limited.body.error?.code]).toEqual([403, 'missing_scope']);
    const revoked = await send(cafe.revoked_key, 'GET', '/api/v1/account');
    expect([revoked.status, revoked.body.error?.code]).toEqual([401, 'api_key_revoked']);
  });

  it('keeps the webhook endpoint: it can be read and changed, and its sealed secret opened at start (beforeAll)', async () => {
    const [endpoint] = (await read(cafe.key, '/api/v1/webhook_endpoints')).data;
    expect(endpoint).toMatchObject({ url: 'https://hooks.example.com/loyalty', status: 'enabled' });
    expect((await read(cafe.key, `/api/v1/webhook_endpoints/${endpoint.id}`)).id).toBe(endpoint.id);
    const changed = await send(cafe.key, 'PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, { description: 'Accounting sync (after the migration)' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.description).toBe('Accounting sync (after the migration)');
  });

  it('makes each venue a chain of one, whose id is the venue id', async () => {
    for (const venue of [cafe, bar]) {
      const account = await read(venue.key, '/api/v1/account');
      expect(account.id).toBe(venue.venue_id);
      expect(account.chain?.id).toBe(venue.venue_id);
      expect(account.chain.venues.map((v: { id: string }) => v.id)).toEqual([venue.venue_id]);
    }
  });

  // Last: after the writes above too, every member's stored totals equal the ledger (`ledger verify`).
  it('leaves no member whose stored totals differ from the ledger', async () => {
    expect(await verifyTotals(database.db)).toEqual([]);
  });
});
