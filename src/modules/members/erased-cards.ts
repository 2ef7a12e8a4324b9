// An erased member's card numbers, kept as keyed hashes only, so that re-running an old import file never enrols them
// again: the hash an import batch compares its cards by, and what an erasure records.
import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import * as repo from './bulk-import-repo.js';

const cardHash = (key: string, card: string) => createHmac('sha256', key).update(card).digest('hex');

/**
 * How an import recognises an erased member's card: the card number's keyed hash, as erasure records it, or null
 * when the chain has erased no one (and so has no key).
 */
export async function erasedCardHasher(db: Db, chainId: string): Promise<(card: string) => string | null> {
  const key = await repo.erasureKey(db, chainId);
  return (card) => (key ? cardHash(key, card) : null);
}

/**
 * Records an erased member's card numbers as keyed hashes under the chain's key (drawn at the first erasure). Taken
 * as an import batch takes it, under the chain's import lock, so no batch reads the cards as neither held nor erased.
 */
export async function recordErasedCards(trx: Db, chainId: string, cards: string[]): Promise<void> {
  await repo.lockVenueImports(trx, chainId);
  const key = await repo.erasureKey(trx, chainId, { secret: randomBytes(32).toString('hex') });
  await repo.insertErasedCards(trx, chainId, cards.map((card) => cardHash(key!, card)));
}
