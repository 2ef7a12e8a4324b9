// Each chain's category rules, kept in this process by version: a check's own gather reads the chain's version
// (migration 0021), and a copy of another version is loaded again before it is used, so a change made in any
// process reaches the next check in every process, with no notification to wait for.
import type { Db } from '../../db/database.js';
import * as repo from './repo.js';

/** A chain's categories by external_id, at one version. */
export interface CategoryTable {
  version: string;
  byExternalId: Map<string, repo.CategoryRules['categories'][number]>;
}

/** How many chains' rules one process keeps; the least recently loaded go first. */
const MAX_CHAINS = 10_000;
const cached = new Map<string, CategoryTable>();

/** The chain's category rules at `version` (as a gather read it), or newer ones where they changed since. */
export async function categoriesAt(db: Db, chainId: string, version: string): Promise<CategoryTable> {
  const entry = cached.get(chainId);
  if (entry?.version === version) return entry;
  const loaded = await repo.categoryRulesOf(db, chainId);
  const table = { version: loaded.version, byExternalId: new Map(loaded.categories.map((c) => [c.external_id, c])) };
  cached.delete(chainId);
  if (cached.size >= MAX_CHAINS) cached.delete(cached.keys().next().value!);
  cached.set(chainId, table);
  return table;
}
