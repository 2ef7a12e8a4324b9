// Campaigns (D22, issue 22): chain-wide bonuses, welcome, birthday and referral credits, each with an optional budget
// that the database itself never lets `spent` pass; ledger entries name the campaign that credited them.
import { sql, type Kysely } from 'kysely';
import { rewriteStoredAnswers, withAddedFields } from '../stored-answers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table campaigns (
    chain_id uuid not null references chains (chain_id),
    id uuid not null,
    name text not null,
    type text not null check (type in ('bonus', 'welcome', 'birthday', 'referral')),
    status text not null check (status in ('active', 'paused', 'ended')),
    venue_ids uuid[],
    starts_at timestamptz,
    ends_at timestamptz,
    budget bigint check (budget >= 0),
    spent bigint not null default 0 check (spent >= 0),
    max_per_member integer check (max_per_member >= 1),
    schedule jsonb,
    percent_bp integer check (percent_bp between 1 and 10000),
    stamps_multiplier integer check (stamps_multiplier >= 2),
    categories text[],
    min_check_amount bigint check (min_check_amount >= 0),
    amount bigint check (amount >= 1),
    stamps integer check (stamps >= 1),
    referrer_amount bigint check (referrer_amount >= 0),
    referee_amount bigint check (referee_amount >= 0),
    livemode boolean not null,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    primary key (chain_id, id),
    constraint campaigns_within_budget check (budget is null or spent <= budget)
  )`.execute(db);
  // A member's birthday as given: MM-DD, or YYYY-MM-DD (birthday campaigns; personal data, erased with the rest).
  await sql`alter table members add column birthday text, add column birthday_set_at timestamptz`.execute(db);
  // The worker's minutely look for due birthdays reads members by month and day.
  await sql`create index members_birthday on members (right(birthday, 5)) where birthday is not null and erased_at is null`.execute(db);
  // Every member has a code to refer friends with, unique in the chain; referred_by names the member whose code a new
  // member enrolled with. Codes drawn at random for the members already there, drawn again where two meet.
  await sql`alter table members add column referral_code text, add column referred_by uuid`.execute(db);
  await sql`update members set referral_code = upper(substr(md5(random()::text || id::text), 1, 10)) where erased_at is null`.execute(db);
  for (;;) {
    const { numAffectedRows } = await sql`update members m set referral_code = upper(substr(md5(random()::text || m.id::text), 1, 10))
      from (select chain_id, id, row_number() over (partition by chain_id, referral_code order by id) as n from members) d
      where d.chain_id = m.chain_id and d.id = m.id and d.n > 1 and m.referral_code is not null`.execute(db);
    if (!numAffectedRows) break;
  }
  await sql`create unique index members_referral_code on members (chain_id, referral_code)`.execute(db);
  // A `campaign` entry names the campaign that credited it; null on every other kind.
  await sql`alter table ledger_entries add column campaign_id uuid`.execute(db);
  // Answers kept from before are replayed with the fields members and history entries gained, as they were then.
  await rewriteStoredAnswers(db, (body) => withAddedFields(body, (object) => ADDED[object]));
  // Not valid: the rows before this have neither; every new row is held to it.
  await sql`alter table ledger_entries add constraint ledger_campaign_named check ((kind = 'campaign') = (campaign_id is not null)) not valid`.execute(db);
  // A birthday's credit (referenced birthday-<year>) can be written once only, whatever races. Only those: a check's
  // campaign credit and its reversals will share the check's number as their reference.
  await sql`create unique index ledger_campaign_once on ledger_entries (chain_id, campaign_id, member_id, reference)
    where campaign_id is not null and reference like 'birthday-%'`.execute(db);
}

/** The fields API objects gained here, as an object stored before had them. */
const ADDED: Record<string, Record<string, unknown>> = { member: { birthday: null, referral_code: null }, history_entry: { campaign_id: null } };

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index ledger_campaign_once`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_campaign_named`.execute(db);
  await sql`alter table ledger_entries drop column campaign_id`.execute(db);
  await sql`drop index members_birthday`.execute(db);
  await sql`alter table members drop column birthday, drop column birthday_set_at, drop column referral_code, drop column referred_by`.execute(db);
  await sql`drop table campaigns`.execute(db);
}
