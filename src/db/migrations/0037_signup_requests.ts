// Sign-ups confirmed by a link (issue 45): a sign-up waits here, with its venue's details and the password's hash,
// until its link is used, so that the answer to a sign-up says nothing of whether the address has an account.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table signup_requests (
    id uuid primary key,
    email text not null,
    venue jsonb not null,
    password_hash text not null,
    token_hash text not null unique,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz
  )`.execute(db);
  await sql`create index signup_requests_expiry on signup_requests (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table signup_requests`.execute(db);
}
