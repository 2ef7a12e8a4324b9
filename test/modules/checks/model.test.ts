// Model-based test (issue 9): random sequences of checks, calculations, replays, voids, partial refunds, holds,
// captures (both paths), adjustments, visits and clock moves go through HTTP to the real app; every answer and,
// after every command, every member is compared with the reference model in test/support/money-model.ts (written
// from D11/D12 alone), and with a tally of the figures the answers themselves gave.
//
// MODEL_RUNS (default 200) sequences of 32–36 commands on any database; on PostgreSQL also MODEL_CONCURRENT_RUNS
// (default 30) sequences of concurrent batches, where any serial order of each batch may explain the answers.
// MODEL_SEED (and MODEL_PATH) replay a reported run; MODEL_SHRINK=0 reports the first failure without shrinking it;
// MODEL_STATS=1 prints how often each answer came and where the time went.
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import {
  checkMembers,
  cmdText,
  commandArb,
  compare,
  compareMembers,
  configArb,
  expectedText,
  membersText,
  nowText,
  readMembers,
  reqText,
  resolve,
  resText,
  send,
  sequenceOf,
  setUpWorld,
  touched,
  type Cmd,
  type SequenceConfig,
  type World,
} from '../../support/money-model-commands.js';
import type { Expected, ModelRequest, MoneyModel } from '../../support/money-model.js';
import type { Response } from '../../support/http.js';
import { needs } from '../../support/services.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000_000 } });
// The concurrent property runs in the PostgreSQL pass (PGlite has one connection: nothing runs at once there).
const postgres = await needs('postgres');

const RUNS = Number(process.env.MODEL_RUNS ?? 200);
const CONCURRENT_RUNS = Number(process.env.MODEL_CONCURRENT_RUNS ?? 30);
const SEED = process.env.MODEL_SEED === undefined ? undefined : Number(process.env.MODEL_SEED);
const PATH = process.env.MODEL_PATH;
const SHRINK = process.env.MODEL_SHRINK !== '0';
/** MODEL_STATS=1 prints how often each kind of answer came, and where the time went. */
const STATS = process.env.MODEL_STATS === '1';
const stats = new Map<string, number>();
const count = (key: string, by = 1) => STATS && stats.set(key, (stats.get(key) ?? 0) + by);

function params(numRuns: number): fc.Parameters<unknown> {
  return { numRuns, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH === undefined ? {} : { path: PATH }), endOnFailure: !SHRINK, verbose: 1 };
}

function configText(cfg: SequenceConfig): string {
  const keys = cfg.keys
    .map(
      (k, i) =>
        `K${i}{${[
          k.perCheck === null ? '' : `max_cashback_per_check=${k.perCheck}`,
          k.perDay === null ? '' : `max_cashback_per_day=${k.perDay}`,
          k.maxAge === null ? '' : `max_check_age_seconds=${k.maxAge}`,
          k.viaHolds ? 'redeem_only_via_holds' : '',
        ]
          .filter(Boolean)
          .join(' ')}}`,
    )
    .join(' ');
  return (
    `venue ${cfg.timezone}, max_redeem_percent ${cfg.maxRedeemPercent}, levels Bronze 0 3% / Silver 5000 5% / Gold 15000 7.5%, ` +
    `categories tobacco (earns no cashback), alcohol (not payable with cashback), desserts 12.5%, misc (no rules); ` +
    `stamps: 5 required, 2 per visit, min_check_amount 500; ${keys}; ` +
    `opening m0 balance=${cfg.balances[0]} spend=${cfg.spends[0]}, m1 balance=${cfg.balances[1]} spend=${cfg.spends[1]}`
  );
}

function failure(world: World, problems: string[]): Error {
  return new Error(
    [
      '',
      configText(world.cfg),
      ...world.trace,
      '',
      ...problems.map((p) => `  ✗ ${p}`),
      `  now ${nowText(world)}`,
      `  app members: ${membersText(world.seen)}`,
    ].join('\n'),
  );
}

/** One request: the model's answer, the app's, and the members it may have changed. */
async function step(world: World, i: string, req: ModelRequest) {
  const text = reqText(world, req);
  const t0 = performance.now();
  const expected = world.model.apply(req);
  const t1 = performance.now();
  const res = await send(world, req);
  const t2 = performance.now();
  count(`answer ${req.op} ${res.status} ${res.body?.error?.code ?? ''}${res.headers['idempotent-replayed'] ? ' replayed' : ''}`);
  if (STATS) {
    if ((expected.kind === 'transaction' || expected.kind === 'refund') && expected.tx.earnCapped) count(`model: ${req.op} answer earn_capped`);
    if (expected.kind === 'calculation' && expected.calc.earnCapped) count('model: calculation earn_capped');
    if (expected.kind === 'error' && req.op === 'capture' && expected.code === 'insufficient_balance' && !expected.details) count('model: capture refused for overdraw');
    for (const m of ['m0', 'm1']) if (world.model.available(m) < 0) count(`model: ${m} in debt after ${req.op}`);
    for (const m of ['m0', 'm1']) count(`model: level ${world.model.memberView(m).level}`);
    if (req.op === 'check' && req.body.closedAt !== undefined && expected.kind === 'transaction' && !expected.replayed) count('model: check applied with closed_at');
  }
  count('ms model', t1 - t0);
  count(`ms send ${req.op}`, t2 - t1);
  world.trace.push(`#${i} ${text} → ${resText(res)}`);
  const problems = compare(expected, res).map((p) => `#${i} ${p}`);
  if (problems.length) problems.unshift(`#${i} model expected: ${expectedText(expected)}`);
  world.tally.observe(world, req, res);
  // A calculation writes nothing, and a refusal nothing either: to keep the run short, their members are read
  // with the next command that changes them (and all at the end), so a change would still be found there.
  const refusedAlike = expected.kind === 'error' && problems.length === 0;
  const t3 = performance.now();
  if (req.op !== 'calculate' && !refusedAlike) {
    problems.push(...(await checkMembers(world, [{ req, res }], touched(world, req))).map((p) => `after #${i}: ${p}`));
  }
  count('ms read', performance.now() - t3);
  if (problems.length) throw failure(world, problems);
}

async function runSequence(cfg: SequenceConfig, cmds: Cmd[]) {
  const t0 = performance.now();
  const world = await setUpWorld(t, cfg);
  count('ms setup', performance.now() - t0);
  count('sequences');
  world.trace.push(`start ${nowText(world)}; ${membersText(world.seen)}`);
  for (const [i, cmd] of cmds.entries()) {
    const reqs = resolve(world, cmd);
    if (reqs.length === 0) world.trace.push(`#${i} ${cmdText(cmd)}: nothing to act on, skipped`);
    count(`command ${cmd.c}${reqs.length ? '' : ' skipped'}`);
    for (const req of reqs) await step(world, String(i), req);
  }
  const problems = await checkMembers(world, []);
  if (problems.length) throw failure(world, problems.map((p) => `at the end: ${p}`));
}


describe('the money engine against the reference model (issue 9)', () => {
  afterAll(() => {
    if (STATS) console.log([...stats].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}: ${Math.round(v)}`).join('\n'));
  });

  it(
    `${RUNS} random sequences of 32–36 commands, one at a time`,
    async () => {
      await fc.assert(fc.asyncProperty(configArb, sequenceOf(commandArb(), 32, 36), runSequence), params(RUNS));
    },
    60 * 60_000,
  );

  postgres.it(
    `${CONCURRENT_RUNS} random sequences of concurrent batches (PostgreSQL): some serial order explains every answer`,
    async () => {
      const batchArb = fc.record({
        advance: fc.option(fc.integer({ min: 1, max: 30 * 3600 }), { freq: 4 }),
        cmds: fc.array(commandArb({ check: 30, calc: 4, replay: 6, void: 8, refund: 10, refundAgain: 3, hold: 12, release: 4, capture: 10, adjust: 6, visit: 4 }), {
          minLength: 2,
          maxLength: 4,
        }),
        dup: fc.constantFrom(false, false, true),
      });
      await fc.assert(fc.asyncProperty(configArb, sequenceOf(batchArb, 12, 20), runConcurrent), params(CONCURRENT_RUNS));
    },
    60 * 60_000,
  );
});

// ---------------------------------------------------------------- concurrent batches

/** Every order of 0…n−1, the order sent first. */
function permutations(n: number): number[][] {
  const all = (k: number): number[][] =>
    k <= 1 ? [[...Array(k).keys()]] : all(k - 1).flatMap((p) => Array.from({ length: k }, (_, i) => [...p.slice(0, k - 1 - i), k - 1, ...p.slice(k - 1 - i)]));
  return all(n);
}

interface Batch {
  advance: number | null;
  cmds: Cmd[];
  dup: boolean;
}

async function runConcurrent(cfg: SequenceConfig, batches: Batch[]) {
  const world = await setUpWorld(t, cfg);
  count('concurrent sequences');
  world.trace.push(`start ${nowText(world)}; ${membersText(world.seen)}`);
  for (const [i, batch] of batches.entries()) {
    if (batch.advance !== null) {
      const req: ModelRequest = { op: 'advance', ms: batch.advance * 1000 };
      world.model.apply(req);
      await send(world, req);
      world.trace.push(`#${i} clock +${batch.advance}s`);
      const problems = await checkMembers(world, []);
      if (problems.length) throw failure(world, problems.map((p) => `after #${i} clock: ${p}`));
    }
    const reqs = batch.cmds.flatMap((c) => resolve(world, c));
    const firstCheck = reqs.find((r) => r.op === 'check');
    if (batch.dup && firstCheck) reqs.push(firstCheck);
    if (reqs.length === 0) continue;
    const texts = reqs.map((r) => reqText(world, r));
    const answers = await Promise.all(reqs.map((r) => send(world, r)));
    for (const [j, r] of reqs.entries()) count(`concurrent answer ${r.op} ${answers[j]!.status} ${answers[j]!.body?.error?.code ?? ''}`);
    world.trace.push(`#${i} at once:`);
    texts.forEach((text, j) => world.trace.push(`   [${j}] ${text} → ${resText(answers[j]!)}`));
    const members = await readMembers(world);

    // Some serial order of the batch must give every answer and leave the members as the app shows them.
    let chosen: { model: MoneyModel; order: number[] } | null = null;
    let closest: { order: number[]; problems: string[]; expected: Expected[] } | null = null;
    for (const order of permutations(reqs.length)) {
      const model = world.model.clone();
      const expected: Expected[] = [];
      const problems: string[] = [];
      for (const j of order) {
        const e = model.apply(reqs[j]!);
        expected[j] = e;
        problems.push(...compare(e, answers[j]!).map((p) => `[${j}] ${p}`));
      }
      problems.push(...compareMembers(model, members));
      if (problems.length === 0) {
        chosen = { model, order };
        count(`batch of ${reqs.length} explained by ${order.every((j, k) => j === k) ? 'the order sent' : 'another order'}`);
        break;
      }
      if (!closest || problems.length < closest.problems.length) closest = { order, problems, expected };
    }
    if (!chosen) {
      world.seen = members;
      throw failure(world, [
        `#${i}: no serial order of the batch explains the answers; the closest, order ${closest!.order.join(' → ')}, expected:`,
        ...closest!.expected.map((e, j) => `   [${j}] ${expectedText(e)}`),
        ...closest!.problems,
      ]);
    }
    world.model = chosen.model;
    // The tally takes the answers in the order that explains them (a capture's or a void's figures depend on it).
    for (const j of chosen.order) world.tally.observe(world, reqs[j]!, answers[j]!);
    const invariants = world.tally.check(
      world,
      members,
      reqs.map((req, j) => ({ req, res: answers[j]! as Response })),
    );
    world.seen = members;
    if (invariants.length) throw failure(world, invariants.map((p) => `after #${i}: ${p}`));
  }
}
