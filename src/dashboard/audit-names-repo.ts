// SQL for the audit log in words: the names of the people, keys and things its entries point at, by id, in one chain.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** What each kind of id is called: a member by name (else card, else serial), a user by e-mail, a check by number. */
const NAMED = {
  member: sql`select chain_id, id, coalesce(name, (select card_number from member_cards c where c.chain_id = m.chain_id and c.member_id = m.id order by c.created_at limit 1), serial) as name from members m`,
  user: sql`select chain_id, id, email as name from owners`,
  api_key: sql`select chain_id, id, name from api_keys`,
  program: sql`select chain_id, id, name from programs`,
  campaign: sql`select chain_id, id, name from campaigns`,
  webhook_endpoint: sql`select chain_id, id, url as name from webhook_endpoints`,
  integration: sql`select chain_id, id, name from integrations`,
  venue: sql`select chain_id, venue_id as id, name from venues`,
  transaction: sql`select chain_id, id, 'check ' || external_id as name from transactions`,
} as const;

export type NamedKind = keyof typeof NAMED;
export const isNamedKind = (kind: string): kind is NamedKind => kind in NAMED;

/** The names of these ids (uuids), keyed `kind:id`; an id of another chain, or gone, has none. */
export async function namesOf(db: Db, chainId: string, ids: Map<NamedKind, Set<string>>): Promise<Map<string, string>> {
  const parts = [...ids].filter(([, set]) => set.size > 0);
  if (parts.length === 0) return new Map();
  const { rows } = await sql<{ kind: string; id: string; name: string | null }>`${sql.join(
    parts.map(([kind, set]) => sql`select ${kind}::text as kind, n.id::text as id, n.name from (${NAMED[kind]}) n where n.chain_id = ${chainId} and n.id in (${sql.join([...set])})`),
    sql` union all `,
  )}`.execute(db);
  return new Map(rows.filter((r) => r.name !== null).map((r) => [`${r.kind}:${r.id}`, r.name!]));
}
