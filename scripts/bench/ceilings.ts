// The ceilings, each run as its own process like the service: bare Fastify answering fixed JSON; a bare Fastify
// route reading one member by card (pg with a named statement, or PGlite); and a bare loop doing an applied
// check's row work (pg with named statements, or PGlite). Nothing of the service is imported.
//   node --import tsx scripts/bench/ceilings.ts fastify|read-pg|read-pglite|apply-pg|apply-pglite
// with BENCH_CEILING={databaseUrl?, dataDir?, poolSize, concurrency, warmupSeconds, durationSeconds, runId}.
// Servers print "READY <port>" and stop on SIGTERM; loops print "MEASURE" when the warm-up ends, then
// "RESULT <json>" and exit.
import Fastify from 'fastify';
import pg from 'pg';
import { createPglite } from '../../src/db/database.js';
import { LOCK_MEMBER, TARGETS_SQL, WRITE_CHECK, checkParams, type Target } from './rowwork.js';
import { Latencies, round } from './stats.js';

interface CeilingOptions {
  databaseUrl?: string;
  dataDir?: string;
  poolSize: number;
  concurrency: number;
  warmupSeconds: number;
  durationSeconds: number;
  runId: string;
}

const options = JSON.parse(process.env.BENCH_CEILING ?? '{}') as CeilingOptions;
const mode = process.argv[2];

// Cards and members are the chain's (a venue key's caller carries its chain).
const READ_BY_CARD = `select m.* from member_cards c join members m on m.chain_id = c.chain_id and m.id = c.member_id
  where c.chain_id = $1 and c.card_number = $2`;

async function serve(app: ReturnType<typeof Fastify>, close: () => Promise<void> = async () => {}): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(close)
      .finally(() => process.exit(0));
  });
}

async function bareFastify(): Promise<void> {
  const app = Fastify({ logger: false });
  const answer = { object: 'ping', status: 'ok', service: 'bench', version: 1 };
  app.get('/fixed', async () => answer);
  await serve(app);
}

async function readPg(): Promise<void> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
  const app = Fastify({ logger: false });
  app.get<{ Querystring: { chain: string; c: string } }>('/read', async (req, reply) => {
    const { rows } = await pool.query({ name: 'bench_read_by_card', text: READ_BY_CARD, values: [req.query.chain, req.query.c] });
    if (!rows[0]) return reply.code(404).send({ error: 'not found' });
    return rows[0];
  });
  await serve(app, () => pool.end());
}

async function readPglite(): Promise<void> {
  const db = await createPglite({ dataDir: options.dataDir });
  const app = Fastify({ logger: false });
  app.get<{ Querystring: { chain: string; c: string } }>('/read', async (req, reply) => {
    const { rows } = await db.query(READ_BY_CARD, [req.query.chain, req.query.c]);
    if (!rows[0]) return reply.code(404).send({ error: 'not found' });
    return rows[0];
  });
  await serve(app, () => db.close());
}

/** Runs `once` from `concurrency` workers: a warm-up, then the measured seconds. */
async function loop(once: (n: number) => Promise<void>): Promise<void> {
  const latencies = new Latencies();
  let n = 0;
  let errors = 0;
  let firstError: string | undefined;
  let measuring = false;
  let done = 0;
  const warmEnd = Date.now() + options.warmupSeconds * 1000;
  const end = warmEnd + options.durationSeconds * 1000;
  let measuredFrom = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (;;) {
        const now = Date.now();
        if (now >= end) return;
        if (!measuring && now >= warmEnd) {
          measuring = true;
          measuredFrom = performance.now();
          process.stdout.write('MEASURE\n');
        }
        const counted = measuring;
        const t0 = performance.now();
        try {
          await once(n++);
          if (counted) {
            latencies.push(performance.now() - t0);
            done++;
          }
        } catch (err) {
          errors++;
          firstError ??= (err as Error).message;
        }
      }
    }),
  );
  const seconds = (performance.now() - measuredFrom) / 1000;
  const result = { requests: done, seconds: round(seconds, 3), req_per_s: round(done / seconds, 1), errors, first_error: firstError ?? null, ...latencies.summary() };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

function pick(targets: Target[]): (n: number) => Target {
  // A fixed stride through the members: every worker on a different member, as random choice would be.
  return (n) => targets[(n * 7919) % targets.length]!;
}

async function applyPg(): Promise<void> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.concurrency });
  const { rows } = await pool.query(TARGETS_SQL);
  const targets: Target[] = rows.map((r) => ({ chainId: r.chain_id, venueId: r.venue_id, memberId: r.member_id, endpointId: r.endpoint_id }));
  const target = pick(targets);
  const clients = await Promise.all(Array.from({ length: options.concurrency }, () => pool.connect()));
  const free = [...clients];
  await loop(async (n) => {
    const client = free.pop()!;
    const t = target(n);
    try {
      await client.query('begin');
      await client.query({ name: 'bench_lock_member', text: LOCK_MEMBER, values: [t.chainId, t.memberId] });
      await client.query({ name: 'bench_write_check', text: WRITE_CHECK, values: checkParams(t, n, options.runId) });
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      free.push(client);
    }
  });
  for (const c of clients) c.release();
  await pool.end();
}

async function applyPglite(): Promise<void> {
  const db = await createPglite({ dataDir: options.dataDir });
  const { rows } = await db.query<{ chain_id: string; venue_id: string; member_id: string; endpoint_id: string }>(TARGETS_SQL);
  const targets: Target[] = rows.map((r) => ({ chainId: r.chain_id, venueId: r.venue_id, memberId: r.member_id, endpointId: r.endpoint_id }));
  const target = pick(targets);
  await loop(async (n) => {
    const t = target(n);
    await db.transaction(async (tx) => {
      await tx.query(LOCK_MEMBER, [t.chainId, t.memberId]);
      await tx.query(WRITE_CHECK, checkParams(t, n, options.runId));
    });
  });
  await db.close();
}

const modes: Record<string, () => Promise<void>> = {
  fastify: bareFastify,
  'read-pg': readPg,
  'read-pglite': readPglite,
  'apply-pg': applyPg,
  'apply-pglite': applyPglite,
};

const run = mode ? modes[mode] : undefined;
if (!run) {
  process.stderr.write(`usage: ceilings.ts ${Object.keys(modes).join('|')}\n`);
  process.exit(2);
}
run().catch((err) => {
  process.stderr.write(`ceiling ${mode} failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
