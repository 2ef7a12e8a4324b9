// Reads and writes that share one statement, so a request's gather and its write are one round trip each.
import { sql, type Expression, type OperationNodeSource, type RawBuilder } from 'kysely';
import type { Db } from './database.js';

/** A scalar sub-query a module contributes to a gather, and how its value is read. */
export interface Read<T> {
  query: OperationNodeSource;
  parse(value: unknown): T;
}

type ReadValues<R> = { [K in keyof R]: R[K] extends Read<infer T> ? T : undefined };

/** A value a read filters by, or the column of the row being read that holds it (reads alongside a row: readsAlong). */
export type ValueOrRef<T> = T | Expression<T>;

/**
 * Runs every read given in one statement (none when all are undefined). Each sees the same snapshot, taken when
 * the statement starts: gather after the locks the decision depends on, never in the statement that waits for one.
 */
export async function readTogether<R extends Record<string, Read<unknown> | undefined>>(db: Db, reads: R): Promise<ReadValues<R>> {
  const given = Object.entries(reads).filter((e): e is [string, Read<unknown>] => e[1] !== undefined);
  const values: Record<string, unknown> = Object.fromEntries(Object.keys(reads).map((k) => [k, undefined]));
  if (given.length === 0) return values as ReadValues<R>;
  const { rows } = await sql<Record<string, unknown>>`select ${sql.join(given.map(([name, read]) => sql`(${read.query}) as ${sql.id(name)}`))}`.execute(db);
  for (const [name, read] of given) values[name] = read.parse(rows[0]![name]);
  return values as ReadValues<R>;
}

/**
 * Every read given as one expression of another statement (a column of its row: jsonb), so they see that statement's
 * snapshot; `parse` reads the column's value back as readTogether would. A read gives no timestamp of its own here
 * (jsonb spells it as text): those in the gathers come inside JSON already.
 */
export function readsAlong<R extends Record<string, Read<unknown> | undefined>>(reads: R): { expression: Expression<unknown>; parse(value: unknown): ReadValues<R> } {
  const given = Object.entries(reads).filter((e): e is [string, Read<unknown>] => e[1] !== undefined);
  return {
    expression: sql`jsonb_build_object(${sql.join(given.map(([name, read]) => sql`${sql.lit(name)}::text, (${read.query})`))})`,
    parse(value) {
      const row = (value ?? {}) as Record<string, unknown>;
      const values: Record<string, unknown> = Object.fromEntries(Object.keys(reads).map((k) => [k, undefined]));
      for (const [name, read] of given) values[name] = read.parse(row[name] ?? null);
      return values as ReadValues<R>;
    },
  };
}

/** One data-modifying step of a write; later steps may read earlier ones by `name`. */
export interface WriteStep {
  name: string;
  query: OperationNodeSource;
}

/**
 * Runs every step in one statement (data-modifying CTEs: each runs exactly once, to completion) and returns the
 * rows of the step named `returning`. Constraints are checked at the end of the statement, so a step may insert
 * rows that refer to another step's.
 */
export async function writeTogether<Row = never>(db: Db, steps: WriteStep[], returning?: string): Promise<Row[]> {
  if (steps.length === 0) return [];
  const { rows } = await sql<Row>`${withClause(steps)} ${returning ? sql`select * from ${sql.id(returning)}` : sql`select 1`}`.execute(db);
  return returning ? rows : [];
}

/** The steps as the WITH clause that begins a statement (none: nothing). */
export function withClause(steps: WriteStep[]): RawBuilder<unknown> {
  return steps.length === 0 ? sql`` : sql`with ${sql.join(steps.map((s) => sql`${sql.id(s.name)} as (${s.query})`))}`;
}

/** A number read back from SQL: sums come as numeric (strings), counts as int8. */
export const asNumber = (value: unknown): number => Number(value ?? 0);

/**
 * A request's Idempotency-Key for a write that claims it in its own first statement and keeps its answer in its own
 * write statement, so the key costs no round trip (src/http/idempotency.ts builds it; issue 21).
 */
export interface FoldedKey {
  /** The CTEs that claim the key, for the first statement, which reads `outcome` along and hands it to `settle`. */
  steps(): WriteStep[];
  readonly outcome: Expression<unknown>;
  /** Goes on when the key is this request's; throws otherwise (in use, reused, or the kept answer to replay). */
  settle(value: unknown): void;
  /** Claims the key in a statement of its own, where the first statement could not carry it. */
  claim(trx: Db): Promise<void>;
  /** The step of the write statement that keeps the write's answer. */
  recordStep(trx: Db, body: unknown): WriteStep;
}
