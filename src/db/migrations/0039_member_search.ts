// The members directory (issue 41, D27): `last_visit_at` on the member row, and what finds a member by any part of
// their name, accents and case ignored, among 100,000. Indexes as measured (docs/members.md, "Search").
import { sql, type Kysely } from 'kysely';
import { rewriteStoredAnswers, withAddedFields } from '../stored-answers.js';

export async function up(db: Kysely<any>): Promise<void> {
  // Both are trusted extensions: the database's owner may create them. PGlite loads them at start (database.ts).
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create extension if not exists unaccent`.execute(db);
  // unaccent() is only stable (its dictionary could change), so an index cannot use it: this wrapper names the
  // dictionary and is declared immutable, with the schema the extension lives in written into it.
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
  const schema = sql.id(rows[0]!.schema);
  await sql`create function f_unaccent(text) returns text language sql immutable parallel safe strict
    return ${schema}.unaccent(${sql.lit(`${rows[0]!.schema}.unaccent`)}::regdictionary, $1)`.execute(db);
  // A name's search key, kept by the database on every write of the name: reads compare and sort it without
  // unaccenting every row again (a two-letter search, which no trigram index serves, went from 420 to 127 ms p50 on PGlite).
  await sql`alter table members add column name_key text generated always as (lower(f_unaccent(name))) stored`.execute(db);
  await sql`create index members_name_search on members using gin (name_key gin_trgm_ops) where erased_at is null`.execute(db);
  await sql`create index members_by_name on members (chain_id, (name is null), coalesce(name_key, ''), id)`.execute(db);

  await sql`alter table members add column last_visit_at timestamptz`.execute(db);
  // A member's last visit: when their latest check closed (else was received), voided ones too (the guest came), or
  // their latest visit recorded without a check (POST /v1/visits), whichever is later.
  await sql`update members m set last_visit_at = t.at
    from (select chain_id, member_id, max(at) as at from (
            select chain_id, member_id, coalesce(closed_at, created_at) as at from transactions where member_id is not null
            union all select chain_id, member_id, created_at from ledger_entries where kind = 'visit') v
          group by chain_id, member_id) t
    where m.chain_id = t.chain_id and m.id = t.member_id`.execute(db);
  await rewriteStoredAnswers(db, (body) => withAddedFields(body, (object) => (object === 'member' ? { last_visit_at: null } : undefined)));
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table members drop column last_visit_at`.execute(db);
  await sql`alter table members drop column name_key`.execute(db);
  await sql`drop function f_unaccent(text)`.execute(db);
}
