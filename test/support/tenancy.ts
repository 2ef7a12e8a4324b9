// The tables outside the chain_id rule (D21): reference tables copied to every node, and local bookkeeping.

/**
 * Global look-ups a request makes before it knows its venue, kept whole on every node (Citus reference tables):
 * their own keys need not include chain_id.
 */
export const REFERENCE_TABLES: Record<string, string> = {
  chains: 'a venue names its chain; every venue row and the CLI look chains up by id or slug',
  venues: 'the guest menu and public orders find the venue by slug (venues_slug_key)',
  owners: 'dashboard sign-in finds the owner by email, across venues (owners_email_key)',
  api_keys: 'key authentication finds the key by the hash of the secret, which is all a request carries (api_keys_secret_hash_key)',
  dashboard_sessions: 'a dashboard request finds its session by the hash of the cookie token, as a key by its hash (dashboard_sessions_token_hash_key)',
  user_links: "an invitation or reset link's page finds it by the hash of the token, all the link carries (user_links_token_hash_key)",
  signup_requests: "a sign-up belongs to no chain until its link is used, and its page finds it by the hash of the token (signup_requests_token_hash_key)",
};

/** Tables outside the rule altogether: Kysely's migration bookkeeping, read only by the migrator on the coordinator. */
export const LOCAL_TABLES: Record<string, string> = {
  kysely_migration: 'which migrations ran; only the migrator reads it',
  kysely_migration_lock: "the migrator's lock row",
};
