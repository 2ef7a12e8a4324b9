// The audit log in words (D27): each entry of a page with who did it by e-mail or key name and what it was about by
// name, read for the whole page at once.
import type { Db } from '../db/database.js';
import type { AuditEvent } from '../modules/audit/schemas.js';
import { isUuid } from '../shared/ids.js';
import type { List } from '../shared/pagination.js';
import { isNamedKind, namesOf, type NamedKind } from './audit-names-repo.js';
import type { OwnerAuditEvent } from './schemas.js';

/** The kind of id an actor's id is. */
const ACTOR_KIND: Partial<Record<AuditEvent['actor']['type'], NamedKind>> = { user: 'user', api_key: 'api_key', integration: 'integration' };

export async function inWords(db: Db, chainId: string, list: List<AuditEvent>): Promise<List<OwnerAuditEvent>> {
  const wanted = new Map<NamedKind, Set<string>>();
  const want = (kind: NamedKind | undefined, id: string | null) => {
    if (kind && id && isUuid(id)) wanted.set(kind, (wanted.get(kind) ?? new Set()).add(id));
  };
  for (const e of list.data) {
    want(ACTOR_KIND[e.actor.type], e.actor.id);
    if (isNamedKind(e.target.type)) want(e.target.type, e.target.id);
  }
  const names = await namesOf(db, chainId, wanted);
  const nameOf = (kind: string | undefined, id: string | null) => (kind && id ? (names.get(`${kind}:${id}`) ?? null) : null);
  return {
    ...list,
    data: list.data.map((e) => ({ ...e, actor_name: nameOf(ACTOR_KIND[e.actor.type], e.actor.id), target_name: nameOf(e.target.type, e.target.id) })),
  };
}
