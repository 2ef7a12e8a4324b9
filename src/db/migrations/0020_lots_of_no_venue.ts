// A cashback lot of no venue (D20, D21): cashback imported at no venue (a chain key's import naming none) goes into a
// lot whose venue_id is null, so that its expiry belongs to no venue (the venue liability report's row of no venue)
// rather than to the chain's first venue. PostgreSQL 14 has no NULLS NOT DISTINCT, so the primary key names the lot's
// venue through `lot_venue`, a stored column that reads the nil uuid for no venue; the foreign key on
// (chain_id, venue_id) stays, and a lot of no venue is not checked by it. Every lot so far keeps its venue.
import { sql, type Kysely } from 'kysely';

const run = (db: Kysely<any>, statements: string[]) => statements.reduce((p, s) => p.then(() => sql.raw(s).execute(db).then(() => undefined)), Promise.resolve());

/** The chain's first venue (oldest, then by id), as GET /v1/account lists them: where lots of no venue were formed before 0020. */
const FIRST_VENUE = `(select v.venue_id from venues v where v.chain_id = l.chain_id order by v.created_at, v.venue_id limit 1)`;

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, [
    'alter table cashback_lots drop constraint cashback_lots_pkey',
    'alter table cashback_lots alter column venue_id drop not null',
    "alter table cashback_lots add column lot_venue uuid generated always as (coalesce(venue_id, '00000000-0000-0000-0000-000000000000'::uuid)) stored not null",
    'alter table cashback_lots add constraint cashback_lots_pkey primary key (chain_id, member_id, lot_venue, day)',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, [
    // Lots of no venue go back to the chain's first venue, as before 0020: added to that venue's lot of the same day
    // when there is one (which keeps its dates).
    `insert into cashback_lots (chain_id, member_id, venue_id, day, expires_on, expires_at, remaining, warn_at, warned_at)
      select l.chain_id, l.member_id, ${FIRST_VENUE}, l.day, l.expires_on, l.expires_at, l.remaining, l.warn_at, l.warned_at
      from cashback_lots l where l.venue_id is null
      on conflict (chain_id, member_id, lot_venue, day) do update set remaining = cashback_lots.remaining + excluded.remaining`,
    'delete from cashback_lots where venue_id is null',
    // A check's redemption recorded from a lot of no venue (":day") names that venue's lot instead.
    `update transactions t set redeemed_lots = (
        select jsonb_object_agg(k.key, k.amount) from (
          select case when e.key like ':%' then (select v.venue_id from venues v where v.chain_id = t.chain_id order by v.created_at, v.venue_id limit 1)::text || e.key else e.key end as key,
            sum(e.value::bigint) as amount
          from jsonb_each_text(t.redeemed_lots) e group by 1) k)
      where t.redeemed_lots is not null and exists (select 1 from jsonb_object_keys(t.redeemed_lots) k where k like ':%')`,
    'alter table cashback_lots drop constraint cashback_lots_pkey',
    'alter table cashback_lots add constraint cashback_lots_pkey primary key (chain_id, member_id, venue_id, day)',
    'alter table cashback_lots drop column lot_venue',
    'alter table cashback_lots alter column venue_id set not null',
  ]);
}
