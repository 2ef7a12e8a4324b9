// `chain merge <venue> --into <chain>` (D21): a venue, the only one of its chain, joins another chain with its members,
// their money and history, its keys and everything else of its chain; or, when anything would clash, nothing moves and
// every clash is listed. The rules are in docs/chains.md, "Merging a venue into a chain".
import type { Db } from '../db/database.js';
import type { SecretBox } from '../shared/secret-box.js';
import { lockVenueImports } from '../modules/members/bulk-import.js';
import { programsChanged } from '../modules/programs/cache.js';
import { storeSecret } from '../modules/webhooks/repo.js';
import { endpointSecret, secretContext } from '../modules/webhooks/sender.js';
import * as linksRepo from '../modules/accounts/links-repo.js';
import * as repo from '../modules/accounts/repo.js';
import { findChain, findVenue, localAuthChanges } from '../modules/accounts/service.js';
import * as audit from '../modules/audit/service.js';

type Code = 'card_number' | 'serial';

/** Something both chains have that one chain may hold only once; the merge needs it resolved first. */
export type MergeConflict =
  /** A code a scan or look-up would find in both: each side says whether it is that member's card number or serial. */
  | { kind: Code; value: string; source: { memberId: string; as: Code }; target: { memberId: string; as: Code } }
  /** A phone held by a member of each chain, neither erased. */
  | { kind: 'phone'; value: string; source: { memberId: string }; target: { memberId: string } }
  /** An e-mail held by a member of each chain: a chain's e-mail names one member. */
  | { kind: 'email'; value: string; source: { memberId: string }; target: { memberId: string } }
  /** A category external_id in both whose name or money rules differ. */
  | { kind: 'category'; value: string; source: CategoryFields; target: CategoryFields }
  /** A catalogue SKU in both whose name, category or price differ. */
  | { kind: 'product'; value: string; source: ProductFields; target: ProductFields };

export interface CategoryFields {
  name: string;
  earnsCashback: boolean;
  payableWithCashback: boolean;
  /** Basis points; null: the member's level. */
  cashbackPercentBp: number | null;
}

export interface ProductFields {
  name: string;
  category: string | null;
  price: number | null;
}

interface Named {
  id: string;
  slug: string;
}

export type MergeOutcome =
  /** Nothing was changed: the reason says why the merge cannot be done as asked. */
  | { status: 'refused'; reason: string }
  /** Nothing was changed: every clash, in a stable order. */
  | { status: 'conflicts'; venue: Named; into: Named; conflicts: MergeConflict[] }
  | {
      status: 'merged';
      venue: Named;
      /** The chain that held the venue, now deleted. */
      from: Named;
      into: Named & { venues: string[] };
      /** Rows moved, per table. */
      moved: Record<repo.MergedTable | 'venues', number>;
      /** The source's default program, which stopped being the default because the target has one. */
      programNoLongerDefault: { id: string; name: string } | null;
      /** Equal in both chains: the target's row stays, the source's copy was dropped. */
      foldedCategories: string[];
      foldedProducts: string[];
      /** Whose erasure key the chain keeps: the source's (it carried erased cards over), else the target's own. */
      erasureKey: 'source' | 'target';
      /** The source chain's own webhook endpoints, now the venue's (their secrets sealed again for it). */
      endpointsGivenToVenue: string[];
    };

/**
 * Merges the venue (id or slug) into the chain (id or slug), in the transaction given. Checks first, then moves:
 * a refusal or a conflict returns having written nothing. `secrets` seals the webhook signing secrets of the source
 * chain's own endpoints again, bound to the venue they now belong to.
 */
export async function mergeVenueIntoChain(trx: Db, secrets: SecretBox, venueRef: string, chainRef: string): Promise<MergeOutcome> {
  const venue = await findVenue(trx, venueRef);
  if (!venue) return refused(`No venue with id or slug "${venueRef}".`);
  const into = await findChain(trx, chainRef);
  if (!into) return refused(`No chain with id or slug "${chainRef}".`);
  if (venue.chainId === into.id) return refused(`The venue "${venue.slug}" is in the chain "${into.slug}" already.`);
  const fromId = venue.chainId;

  // Nothing joins either chain meanwhile (a venue, an import batch, an erasure's card hashes); locks in a fixed order.
  await repo.lockChains(trx, [fromId, into.id]);
  for (const chainId of [fromId, into.id].sort()) await lockVenueImports(trx, chainId);
  const from = (await findChain(trx, fromId))!;

  const siblings = from.venues.filter((v) => v.id !== venue.id);
  if (siblings.length) {
    return refused(
      `The venue "${venue.slug}" shares its chain "${from.slug}" with ${siblings.map((v) => `"${v.slug}"`).join(', ')}: its members are the whole chain's, ` +
        'so merging one venue would have to split them. Only the only venue of a chain can be merged.',
    );
  }
  if (from.currency !== into.currency) {
    return refused(`The venue "${venue.slug}" counts in ${from.currency} and the chain "${into.slug}" in ${into.currency}: balances cannot change currency.`);
  }
  const chainKeys = await repo.activeChainKeys(trx, fromId);
  if (chainKeys.length) {
    return refused(
      `The chain "${from.slug}" has chain keys that work (${chainKeys.map((k) => `${k.id} "${k.name}"`).join(', ')}): merged, they would act at every venue of ` +
        `"${into.slug}". Revoke them first (key revoke <id> --chain ${from.slug}); the venue's own keys keep working.`,
    );
  }
  const imports = await repo.unfinishedImportIds(trx, fromId);
  if (imports.length) {
    return refused(`The chain "${from.slug}" has member imports not finished yet (${imports.join(', ')}): merge once they have finished.`);
  }
  const erasedHere = await repo.hasErasedCards(trx, fromId);
  if (erasedHere && (await repo.hasErasedCards(trx, into.id))) {
    return refused(
      `Both chains have erased members whose card numbers they keep as hashes, each under its own key: "${into.slug}" could not recognise ` +
        `the cards "${from.slug}" erased, and an old import file would enrol those members again. A chain holds one erasure key, so these two cannot be merged.`,
    );
  }

  const named = { venue: { id: venue.id, slug: venue.slug }, into: { id: into.id, slug: into.slug } };
  const categories = await repo.sharedCategories(trx, fromId, into.id);
  const products = await repo.sharedProducts(trx, fromId, into.id);
  const conflicts: MergeConflict[] = [
    ...(await repo.codeClashes(trx, fromId, into.id)).map(
      (c): MergeConflict => ({
        kind: c.source_field === 'card_number' || c.target_field === 'card_number' ? 'card_number' : 'serial',
        value: c.code,
        source: { memberId: c.source_member, as: c.source_field },
        target: { memberId: c.target_member, as: c.target_field },
      }),
    ),
    ...(await repo.phoneClashes(trx, fromId, into.id)).map(
      (c): MergeConflict => ({ kind: 'phone', value: c.phone, source: { memberId: c.source_member }, target: { memberId: c.target_member } }),
    ),
    ...(await repo.emailClashes(trx, fromId, into.id)).map(
      (c): MergeConflict => ({ kind: 'email', value: c.email, source: { memberId: c.source_member }, target: { memberId: c.target_member } }),
    ),
    ...categories
      .filter((c) => !c.same)
      .map(
        (c): MergeConflict => ({
          kind: 'category',
          value: c.external_id,
          source: { name: c.source_name, earnsCashback: c.source_earns, payableWithCashback: c.source_payable, cashbackPercentBp: c.source_percent_bp },
          target: { name: c.target_name, earnsCashback: c.target_earns, payableWithCashback: c.target_payable, cashbackPercentBp: c.target_percent_bp },
        }),
      ),
    ...products
      .filter((p) => !p.same)
      .map(
        (p): MergeConflict => ({
          kind: 'product',
          value: p.sku,
          source: { name: p.source_name, category: p.source_category, price: p.source_price },
          target: { name: p.target_name, category: p.target_category, price: p.target_price },
        }),
      ),
  ];
  if (conflicts.length) return { status: 'conflicts', ...named, conflicts };

  // The source chain's own endpoints become the venue's: their secrets are sealed bound to their owner (sender.ts).
  const endpoints = await repo.chainEndpointSecrets(trx, fromId);
  let resealed: { id: string; text: string }[];
  try {
    resealed = endpoints.map((e) => ({ id: e.id, text: secrets.seal(secrets.open(endpointSecret(e)), secretContext({ ...e, venue_id: venue.id })).text }));
  } catch (err) {
    return refused(`The signing secret of a webhook endpoint of "${from.slug}" cannot be opened with this server's SECRET_ENCRYPTION_KEY (${(err as Error).message}).`);
  }

  // Writes from here on. Equal products and categories: the target's rows serve both (a category's venue rules move
  // to the target's, and the source's copy is deleted once they have).
  await repo.deleteProducts(trx, fromId, products.map((p) => p.source_id));
  // One erasure key per chain: the one whose hashes exist (checked above that not both have some).
  await repo.deleteErasureKey(trx, erasedHere ? into.id : fromId);
  const targetDefault = (await repo.programsOfChain(trx, into.id)).find((p) => p.is_default);
  const sourceDefault = (await repo.programsOfChain(trx, fromId)).find((p) => p.is_default);

  const foldedCategories = Object.fromEntries(categories.map((c) => [c.source_id, c.target_id]));
  const moved = await repo.moveChainRows(trx, { from: fromId, into: into.id, venueId: venue.id, dropDefault: targetDefault !== undefined, foldedCategories });
  for (const e of resealed) await storeSecret(trx, into.id, e.id, e.text, secrets.keyId);
  await repo.deleteCategories(trx, fromId, Object.keys(foldedCategories));
  // Links the source's owners sent spoke for that chain: an invitation there is not one to the chain it joins.
  await linksRepo.deleteLinksOfChain(trx, fromId);
  await repo.deleteChain(trx, fromId);
  // Each chain's audit log keeps what was written in it (D24), and both record the merge (the operator's, by the CLI).
  const merged = { action: 'chain.merged' as const, target: { type: 'chain', id: fromId }, changes: { chain_id: [fromId, into.id] as [unknown, unknown] } };
  for (const chainId of [fromId, into.id]) await audit.recordAudit(trx, { chainId, venueId: venue.id, ...audit.CLI }, merged);

  // Every process forgets what it cached: programs by chain, and each key's chain and venues (both chains' keys).
  await programsChanged(trx, into.id);
  await programsChanged(trx, fromId);
  for (const secretHash of await repo.keyHashesOfChain(trx, into.id)) {
    await repo.notifyAuthChanged(trx, secretHash);
    localAuthChanges.emit('changed', secretHash);
  }

  return {
    status: 'merged',
    ...named,
    from: { id: from.id, slug: from.slug },
    into: { ...named.into, venues: (await repo.venuesOfChain(trx, into.id)).map((v) => v.slug) },
    moved,
    programNoLongerDefault: targetDefault && sourceDefault ? { id: sourceDefault.id, name: sourceDefault.name } : null,
    foldedCategories: categories.map((c) => c.external_id),
    foldedProducts: products.map((p) => p.sku),
    erasureKey: erasedHere ? 'source' : 'target',
    endpointsGivenToVenue: endpoints.map((e) => e.id),
  };
}

function refused(reason: string): MergeOutcome {
  return { status: 'refused', reason };
}

const codeName = (c: Code) => (c === 'card_number' ? 'card number' : 'serial');
const yesNo = (b: boolean) => (b ? 'yes' : 'no');
const describeCategory = (c: CategoryFields) =>
  `"${c.name}" (earns cashback ${yesNo(c.earnsCashback)}, payable with cashback ${yesNo(c.payableWithCashback)}, percent ${c.cashbackPercentBp === null ? "the member's level" : c.cashbackPercentBp / 100})`;
const describeProduct = (p: ProductFields) => `"${p.name}" (category ${p.category ?? 'none'}, price ${p.price ?? 'none'})`;

/** One line for a conflict, naming the venue's side by its slug and the target's by the chain's. */
export function conflictLine(c: MergeConflict, venueSlug: string, chainSlug: string): string {
  switch (c.kind) {
    case 'card_number':
    case 'serial':
      return (
        `${codeName(c.kind)} ${c.value}: the ${codeName(c.source.as)} of member ${c.source.memberId} of ${venueSlug} ` +
        `and the ${codeName(c.target.as)} of member ${c.target.memberId} of ${chainSlug}`
      );
    case 'phone':
    case 'email':
      return `${c.kind === 'phone' ? 'phone' : 'e-mail'} ${c.value}: member ${c.source.memberId} of ${venueSlug} and member ${c.target.memberId} of ${chainSlug}`;
    case 'category':
      return `category ${c.value}: ${describeCategory(c.source)} at ${venueSlug}, ${describeCategory(c.target)} in ${chainSlug}`;
    case 'product':
      return `product ${c.value}: ${describeProduct(c.source)} at ${venueSlug}, ${describeProduct(c.target)} in ${chainSlug}`;
  }
}
