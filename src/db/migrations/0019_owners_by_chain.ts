// An owner runs their whole chain (D21): a dashboard session is at any venue of it, so the session finds its owner by
// chain, not by the venue the owner signed up at.
import { sql, type Kysely } from 'kysely';

const run = (db: Kysely<any>, statements: string[]) => statements.reduce((p, s) => p.then(() => sql.raw(s).execute(db).then(() => undefined)), Promise.resolve());

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, [
    'alter table dashboard_sessions drop constraint dashboard_sessions_owner_fkey',
    'alter table owners add constraint owners_chain_id_key unique (chain_id, id)',
    'alter table dashboard_sessions add constraint dashboard_sessions_owner_fkey foreign key (chain_id, owner_id) references owners (chain_id, id)',
    'alter table dashboard_sessions add constraint dashboard_sessions_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'drop index dashboard_sessions_owner_idx',
    'create index dashboard_sessions_owner_idx on dashboard_sessions (chain_id, owner_id, id desc)',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, [
    // A session switched to a sibling venue has no owner row at that venue: it goes back to the owner's own.
    'update dashboard_sessions s set venue_id = o.venue_id from owners o where o.chain_id = s.chain_id and o.id = s.owner_id and s.venue_id <> o.venue_id',
    'drop index dashboard_sessions_owner_idx',
    'create index dashboard_sessions_owner_idx on dashboard_sessions (venue_id, owner_id, id desc)',
    'alter table dashboard_sessions drop constraint dashboard_sessions_venue_fkey',
    'alter table dashboard_sessions drop constraint dashboard_sessions_owner_fkey',
    'alter table owners drop constraint owners_chain_id_key',
    'alter table dashboard_sessions add constraint dashboard_sessions_owner_fkey foreign key (venue_id, owner_id) references owners (venue_id, id)',
  ]);
}
