// Benchmark (not a test): applying checks over HTTP against a bare transaction doing the same row work (lock the
// member, update, insert) at the same concurrency. Run: DATABASE_URL=… npm run bench [-- seconds concurrency]
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import * as accounts from '../src/modules/accounts/service.js';
import * as members from '../src/modules/members/service.js';
import * as programs from '../src/modules/programs/service.js';
import { createServer } from '../src/server.js';

const seconds = Number(process.argv[2] ?? 10);
const concurrency = Number(process.argv[3] ?? 16);
const MEMBERS = 200;

async function run(label: string, once: (i: number) => Promise<void>): Promise<number> {
  let done = 0;
  let n = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await once(n++);
        done++;
      }
    }),
  );
  const rate = done / seconds;
  console.log(`${label}: ${done} in ${seconds} s = ${rate.toFixed(0)}/s at concurrency ${concurrency}`);
  return rate;
}

const config = { ...loadConfig({ ...process.env, RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'silent' }), redisUrl: undefined };
const database = await openDatabase(
  config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl, poolSize: concurrency + 4 } : { kind: 'pglite', dataDir: `/tmp/vl-bench-${randomBytes(3).toString('hex')}` },
);
await migrateToLatest(database.db);
const pepper = config.apiKeyPepper ?? 'bench-pepper-0123456789abcdef0123456789';
const venue = await accounts.createVenue(database.db, { name: 'Bench', slug: `bench-${randomBytes(3).toString('hex')}` });
await programs.createProgram(database.db, venue.id, { name: 'Cashback', type: 'cashback', settings: { levels: [{ name: 'A', min_spend: 0, percent: 5 }] } });
const { secret } = await accounts.createApiKey(database.db, pepper, { venueId: venue.id, name: 'bench', livemode: false });
const owner = { ...accounts.ownerCaller(venue), livemode: false };
const memberIds: string[] = [];
for (let i = 0; i < MEMBERS; i++) {
  const m = await members.enrolMember(database.db, owner, { card_number: `B-${i}`, consent: true });
  await members.appendLedger(database.db, owner, [{ memberId: m.id, kind: 'import', cashback: 1_000_000 }]);
  memberIds.push(m.id);
}

const server = await createServer(config, database, pepper);
const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
const runId = randomBytes(3).toString('hex');

const http = await run('apply a check over HTTP', async (i) => {
  const res = await fetch(`${base}/api/v1/checks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      external_id: `bench-${runId}-${i}`,
      member_id: memberIds[i % MEMBERS],
      line_items: [{ name: 'Coffee', quantity: 1, unit_price: 350 }, { name: 'Cake', quantity: 1, unit_price: 450 }],
      redeem_amount: 100,
    }),
  });
  if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
});

const bare = await run('bare transaction (lock member, update, insert)', async (i) => {
  await database.db.transaction().execute(async (trx) => {
    const memberId = memberIds[i % MEMBERS]!;
    await sql`select id from members where venue_id = ${venue.id} and id = ${memberId} for update`.execute(trx);
    await sql`update members set vip_level = null where venue_id = ${venue.id} and id = ${memberId}`.execute(trx);
    await sql`insert into ledger_entries (venue_id, id, member_id, kind, cashback, livemode)
      values (${venue.id}, gen_random_uuid(), ${memberId}, 'bench', 0, false)`.execute(trx);
  });
});

console.log(`ratio HTTP / bare = ${(http / bare).toFixed(2)} (the yardstick: at least 0.5)`);
await server.close();
await database.close();
