// Bonus campaigns in checks (D22, issue 22): each check keeps what every campaign credited it and on what terms, so a
// refund reverses it in proportion, a void in full, and a capture judges it again; a member's credits by a campaign
// are counted for max_per_member, and summed as the spent of a campaign without a budget.
import { sql, type Kysely } from 'kysely';
import { rewriteStoredAnswers, withAddedFields } from '../stored-answers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table transactions add column campaigns jsonb not null default '[]'::jsonb`.execute(db);
  await sql`alter table refunds add column campaigns_reversed jsonb not null default '[]'::jsonb`.execute(db);
  // A member's credits by a campaign (max_per_member) and a campaign's without a budget (its spent), read from the index alone.
  await sql`create index ledger_by_campaign on ledger_entries (chain_id, campaign_id, member_id) include (cashback, stamps, kind, reference)
    where campaign_id is not null`.execute(db);
  // Transactions and refunds answered before this had no campaign credit: empty lists.
  await rewriteStoredAnswers(db, (body) => withAddedFields(body, (object) => ADDED[object]));
}

const ADDED: Record<string, Record<string, unknown>> = { transaction: { campaigns: [] }, refund: { campaigns_reversed: [] } };

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index ledger_by_campaign`.execute(db);
  await sql`alter table refunds drop column campaigns_reversed`.execute(db);
  await sql`alter table transactions drop column campaigns`.execute(db);
}
