// Applies the migrations in src/db/migrations; Kysely's Migrator holds a Postgres advisory lock meanwhile.
import { Migrator, type Kysely, type Migration } from 'kysely';
import * as foundation from './migrations/0001_foundation.js';
import * as webhookDelivery from './migrations/0002_webhook_delivery.js';
import * as programsMembers from './migrations/0003_programs_members.js';
import * as menuOrders from './migrations/0004_menu_orders.js';
import * as catalogue from './migrations/0005_catalogue.js';
import * as transactions from './migrations/0006_transactions.js';
import * as holds from './migrations/0007_holds.js';
import * as visitsScans from './migrations/0008_visits_scans.js';
import * as checkDays from './migrations/0009_check_days.js';
import * as memberTotals from './migrations/0010_member_totals.js';
import * as dashboardSessions from './migrations/0011_dashboard_sessions.js';
import * as registerExternalIds from './migrations/0012_register_external_ids.js';
import * as cashbackLots from './migrations/0013_cashback_lots.js';
import * as memberImports from './migrations/0014_member_imports.js';
import * as memberErasure from './migrations/0015_member_erasure.js';
import * as hardening from './migrations/0016_hardening.js';
import * as chains from './migrations/0017_chains.js';
import * as categoryVenueRules from './migrations/0018_category_venue_rules.js';
import * as ownersByChain from './migrations/0019_owners_by_chain.js';
import * as lotsOfNoVenue from './migrations/0020_lots_of_no_venue.js';
import * as catalogueVersion from './migrations/0021_catalogue_version.js';
import * as deliveriesByEndpoint from './migrations/0022_deliveries_by_endpoint.js';
import * as visitCountedWhile from './migrations/0023_visit_counted_while.js';
import * as campaigns from './migrations/0024_campaigns.js';
import * as checkCampaigns from './migrations/0025_check_campaigns.js';
import * as levelPeriod from './migrations/0026_level_period.js';
import * as auditEvents from './migrations/0027_audit_events.js';
import * as userRoles from './migrations/0028_user_roles.js';
import * as userLinks from './migrations/0029_user_links.js';
import * as userVenues from './migrations/0030_user_venues.js';
import * as chainBrands from './migrations/0031_chain_brands.js';
import * as passGeneration from './migrations/0032_pass_generation.js';
import * as applePassRegistrations from './migrations/0033_apple_pass_registrations.js';
import * as walletUpdates from './migrations/0034_wallet_updates.js';
import * as integrations from './migrations/0035_integrations.js';
import * as handledState from './migrations/0036_handled_state.js';
import * as signupRequests from './migrations/0037_signup_requests.js';
import * as memberEmail from './migrations/0038_member_email.js';
import * as memberSearch from './migrations/0039_member_search.js';
import * as ledgerChecks from './migrations/0040_ledger_checks.js';
import * as cardPassStamp from './migrations/0041_card_pass_stamp.js';
import * as campaignEndedAt from './migrations/0042_campaign_ended_at.js';

const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_webhook_delivery': webhookDelivery,
  '0003_programs_members': programsMembers,
  '0004_menu_orders': menuOrders,
  '0005_catalogue': catalogue,
  '0006_transactions': transactions,
  '0007_holds': holds,
  '0008_visits_scans': visitsScans,
  '0009_check_days': checkDays,
  '0010_member_totals': memberTotals,
  '0011_dashboard_sessions': dashboardSessions,
  '0012_register_external_ids': registerExternalIds,
  '0013_cashback_lots': cashbackLots,
  '0014_member_imports': memberImports,
  '0015_member_erasure': memberErasure,
  '0016_hardening': hardening,
  '0017_chains': chains,
  '0018_category_venue_rules': categoryVenueRules,
  '0019_owners_by_chain': ownersByChain,
  '0020_lots_of_no_venue': lotsOfNoVenue,
  '0021_catalogue_version': catalogueVersion,
  '0022_deliveries_by_endpoint': deliveriesByEndpoint,
  '0023_visit_counted_while': visitCountedWhile,
  '0024_campaigns': campaigns,
  '0025_check_campaigns': checkCampaigns,
  '0026_level_period': levelPeriod,
  '0027_audit_events': auditEvents,
  '0028_user_roles': userRoles,
  '0029_user_links': userLinks,
  '0030_user_venues': userVenues,
  '0031_chain_brands': chainBrands,
  '0032_pass_generation': passGeneration,
  '0033_apple_pass_registrations': applePassRegistrations,
  '0034_wallet_updates': walletUpdates,
  '0035_integrations': integrations,
  '0036_handled_state': handledState,
  '0037_signup_requests': signupRequests,
  '0038_member_email': memberEmail,
  '0039_member_search': memberSearch,
  '0040_ledger_checks': ledgerChecks,
  '0041_card_pass_stamp': cardPassStamp,
  '0042_campaign_ended_at': campaignEndedAt,
};

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return migrateTo(db, undefined);
}

/** Migrates up to and including `target` (a migration's name; undefined: the latest), as tests of a migration need. */
export async function migrateTo(db: Kysely<any>, target: string | undefined): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
