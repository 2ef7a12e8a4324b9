// Statements Kysely builds and compiles once per shape (issue 21): built with stand-ins where the values go, each run
// puts the request's values in their places, so a hot read costs no query building on the request path.
import { CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './database.js';

/**
 * Where one value goes. Only where Kysely passes the value on as a parameter: never an `in` list (its length shapes
 * the text) or a value that may be null (`= null` and `is null` are different texts).
 */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A statement of one shape: `build` receives stand-ins for `values` (use them as the values), once; each call runs the
 * text it compiled to with the values given.
 */
export function builtOnce<V extends Record<string, unknown>, Row>(build: (db: Db, values: V) => Compilable<Row>) {
  let compiled: { sql: string; parameters: readonly unknown[] } | undefined;
  return async (db: Db, values: V): Promise<Row[]> => {
    compiled ??= build(db, new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as V).compile();
    const parameters = compiled.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    return (await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters))).rows;
  };
}
