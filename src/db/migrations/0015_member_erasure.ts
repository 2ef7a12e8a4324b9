// When a member was erased (their personal data removed, their ledger and transactions kept anonymised): an erased
// member is found by no look-up. Their card numbers stay known to imports only as keyed hashes, so re-running an
// old import file does not bring the guest back; the key is the venue's own, drawn at its first erasure.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').addColumn('erased_at', 'timestamptz').execute();
  await db.schema
    .createTable('member_erasure_keys')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().primaryKey())
    // Random, hex: the HMAC-SHA256 key of the venue's erased card numbers.
    .addColumn('secret', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('erased_cards')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    // HMAC-SHA256 (hex) of the card number under the venue's erasure key; never the number itself.
    .addColumn('card_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('erased_cards_pkey', ['venue_id', 'card_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('erased_cards').execute();
  await db.schema.dropTable('member_erasure_keys').execute();
  await db.schema.alterTable('members').dropColumn('erased_at').execute();
}
