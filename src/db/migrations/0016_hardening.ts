// Hardening: holds the worker marks `expired` (found by expiry, across venues), and webhook signing secrets
// sealed at rest. A row's `secret_key_id` names the key that sealed its secret; null is a secret written before
// this migration, still plaintext, which every process start seals with the first key (src/shared/secret-box.ts).
// A migration cannot seal them itself: the key lives in the configuration (or the data directory), not here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table holds drop constraint holds_status_check`.execute(db);
  await sql`alter table holds add constraint holds_status_check check (status in ('active', 'captured', 'released', 'expired'))`.execute(db);
  await sql`create index holds_active_by_expiry on holds (expires_at) where status = 'active'`.execute(db);
  await db.schema.alterTable('webhook_endpoints').addColumn('secret_key_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // A version before this one would sign deliveries with the sealed text as the secret (garbage to every receiver),
  // and this migration cannot open it (no key here): refuse rather than break every endpoint silently.
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_endpoints where secret_key_id is not null`.execute(db);
  if (rows[0]!.n > 0) {
    throw new Error(
      `Cannot undo migration 0016_hardening: ${rows[0]!.n} webhook endpoint(s) have signing secrets sealed with SECRET_ENCRYPTION_KEY, ` +
        'which an older version cannot open (it would sign with the sealed text). Delete those endpoints first (and create them again ' +
        'after the downgrade), or stay on this version.',
    );
  }
  await db.schema.alterTable('webhook_endpoints').dropColumn('secret_key_id').execute();
  await sql`drop index holds_active_by_expiry`.execute(db);
  await sql`update holds set status = 'released' where status = 'expired'`.execute(db);
  await sql`alter table holds drop constraint holds_status_check`.execute(db);
  await sql`alter table holds add constraint holds_status_check check (status in ('active', 'captured', 'released'))`.execute(db);
}
