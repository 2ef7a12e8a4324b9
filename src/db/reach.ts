// The condition that keeps a query within what a caller may reach (D21): a chain, and one venue of it when named.
import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * `chain_id = …` and, unless `venueId` is null (a chain key naming no venue), `venue_id = …` on a venue's table;
 * `alias` names the table when the query has several.
 */
export function inReach(reach: { chainId: string; venueId: string | null }, alias?: string): Expression<SqlBool> {
  const column = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return reach.venueId === null
    ? sql<SqlBool>`${column('chain_id')} = ${reach.chainId}`
    : sql<SqlBool>`${column('chain_id')} = ${reach.chainId} and ${column('venue_id')} = ${reach.venueId}`;
}
