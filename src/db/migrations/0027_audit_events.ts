// The audit log (D24, issue 24): who changed what, append-only. A trigger refuses every UPDATE and TRUNCATE, and every
// DELETE of a row younger than the retention period: the one the worker's purge sets for its own transaction, else
// the longest a configuration may give (36,500 days), so nothing but the purge deletes an entry.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table audit_events (
    chain_id uuid not null,
    id uuid not null,
    actor_type text not null,
    actor_id text,
    action text not null,
    target_type text not null,
    target_id text,
    changes jsonb not null default '{}'::jsonb,
    venue_id uuid,
    address text,
    created_at timestamptz not null default now(),
    primary key (chain_id, id)
  )`.execute(db);
  await sql`create index audit_events_by_action on audit_events (chain_id, action, id)`.execute(db);
  await sql`create index audit_events_by_target on audit_events (chain_id, target_id, id)`.execute(db);
  // The list's from/to within a chain, and the purge across chains.
  await sql`create index audit_events_by_time on audit_events (chain_id, created_at)`.execute(db);
  await sql`create index audit_events_purge on audit_events (created_at)`.execute(db);
  await sql`create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        raise exception 'audit_events is append-only: a row cannot be changed' using errcode = '42501';
      end if;
      if old.created_at > now() - make_interval(days => coalesce(nullif(current_setting('venue_loyalty.audit_retention_days', true), '')::int, 36500)) then
        raise exception 'audit_events is append-only: a row younger than the retention period cannot be deleted' using errcode = '42501';
      end if;
      return old;
    end $$`.execute(db);
  await sql`create trigger audit_events_append_only before update or delete on audit_events
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`create function audit_events_no_truncate() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: it cannot be truncated' using errcode = '42501';
    end $$`.execute(db);
  await sql`create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_no_truncate()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table audit_events`.execute(db);
  await sql`drop function audit_events_no_truncate()`.execute(db);
  await sql`drop function audit_events_append_only()`.execute(db);
}
