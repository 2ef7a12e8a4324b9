// Idempotency-Key answers kept from before a migration are replayed through today's response schemas, which require
// the fields the migration added: a migration that adds one gives every stored answer the field it would have had.
import { sql, type Kysely } from 'kysely';

/** Rewrites every stored answer's body with `rewrite` (given the namespace it was answered in), 500 rows at a time. */
export async function rewriteStoredAnswers(db: Kysely<any>, rewrite: (body: unknown, namespace: string) => unknown): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await sql<{ namespace: string; key: string; response_body: unknown }>`
      select namespace, key, response_body from idempotency_keys
      where (namespace::text || ' ' || key) > ${after} order by namespace::text || ' ' || key limit 500`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      await sql`update idempotency_keys set response_body = ${JSON.stringify(rewrite(row.response_body, row.namespace))}::jsonb
        where namespace = ${row.namespace} and key = ${row.key}`.execute(db);
    }
    after = `${rows.at(-1)!.namespace} ${rows.at(-1)!.key}`;
  }
}

/**
 * The value with every API object in it (by its `object`) given the fields `added` names for it, where missing;
 * `added` sees the object as answered, for a field that follows from its others.
 */
export function withAddedFields(value: unknown, added: (object: string, answered: Record<string, unknown>) => Record<string, unknown> | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => withAddedFields(v, added));
  if (value === null || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withAddedFields(v, added)]));
  for (const [field, given] of Object.entries(added(String(out.object), out) ?? {})) if (!(field in out)) out[field] = given;
  return out;
}
