// The one list of error codes (D5) with their HTTP status, type and meaning, and the ApiError that carries them.
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'api_error';

interface CodeSpec {
  status: number;
  type: ErrorType;
  /** Default message, and the entry in the error reference. */
  message: string;
}

const spec = (status: number, type: ErrorType, message: string): CodeSpec => ({ status, type, message });
const INVALID = 'invalid_request_error';

/**
 * Where in the owner's dashboard (D16) something is set: page and field as the dashboard labels them, so a message
 * can send the reader there. A test holds these to the labels in web/src.
 */
export const DASHBOARD_PLACES = {
  newKey: { page: 'API keys', field: 'New API key' },
  keyRules: { page: 'API keys', field: 'Rules' },
  redeemOnlyViaHolds: { page: 'Venue and rules', field: 'Pay with cashback only through a hold' },
  checksNumberedPerRegister: { page: 'Venue and rules', field: 'Checks numbered per till' },
  maxCheckAge: { page: 'Venue and rules', field: 'Oldest check accepted (seconds)' },
  cardScanRequired: { page: 'Venue and rules', field: 'Card scan required' },
  adjustmentsAllowed: { page: 'Venue and rules', field: 'Balance changes from other software' },
  categoryEdit: { page: 'Categories', field: 'Edit' },
  earnsCashback: { page: 'Categories', field: 'Earns cashback' },
  payableWithCashback: { page: 'Categories', field: 'Payable with cashback' },
  ownCashbackPercent: { page: 'Categories', field: 'Own cashback percent' },
} as const;

export type DashboardPlace = keyof typeof DASHBOARD_PLACES;

const placeText = (place: DashboardPlace) => `${DASHBOARD_PLACES[place].page} → ${DASHBOARD_PLACES[place].field}`;

/** A register rule (D12): the venue's default on Venue and rules, a key's own value under its Rules. */
export const whereRuleIsSet = (place: DashboardPlace): string =>
  `The venue's owner sets this rule in the dashboard: ${placeText(place)}, or for one key: ${placeText('keyRules')}.`;

/** Where a category's money rules are set (the owner's only): Categories → Edit, then the fields named. */
export const categoryRulesPlace = (places: DashboardPlace[]): string =>
  `in the dashboard: ${placeText('categoryEdit')} → ${places.map((p) => DASHBOARD_PLACES[p].field).join(', ')}`;

export const ERROR_CODES = {
  parameter_invalid: spec(400, INVALID, 'A field is missing or has a wrong format.'),
  redeem_not_supported: spec(400, INVALID, "The member's program has no cashback balance to redeem."),
  visit_not_supported: spec(400, INVALID, 'A visit was sent for a cashback program; send a check with an amount.'),
  hold_required: spec(400, INVALID, `This venue redeems cashback only through holds; create one with POST /v1/holds. ${whereRuleIsSet('redeemOnlyViaHolds')}`),
  register_id_required: spec(400, INVALID, `This venue numbers checks per register, so register_id is required. ${whereRuleIsSet('checksNumberedPerRegister')}`),
  check_too_old: spec(400, INVALID, `closed_at is older than this venue accepts. ${whereRuleIsSet('maxCheckAge')}`),
  api_key_missing: spec(401, 'authentication_error', 'No API key was sent. Send it as "Authorization: Bearer <API_KEY>".'),
  api_key_invalid: spec(401, 'authentication_error', 'The API key is malformed or unknown.'),
  api_key_revoked: spec(401, 'authentication_error', `The API key was revoked. The venue's owner creates a new one in the dashboard: ${placeText('newKey')}.`),
  session_required: spec(401, 'authentication_error', 'Sign in to the dashboard: this call needs a dashboard session.'),
  pass_unauthorized: spec(401, 'authentication_error', "The Authorization header is not this pass's: ApplePass and the pass's authentication token."),
  sign_in_failed: spec(401, 'authentication_error', 'The e-mail address or the password is wrong.'),
  signature_invalid: spec(401, 'authentication_error', "The request's signature does not match the connection's signature key: nothing was done."),
  no_reward_available: spec(402, INVALID, 'The member has no earned reward to redeem.'),
  insufficient_balance: spec(402, INVALID, 'The amount exceeds the available cashback; see `available`.'),
  refund_exceeds_check: spec(402, INVALID, 'The refund is more than what is left of the check; see `refundable`.'),
  redeem_limit_exceeded: spec(402, INVALID, 'redeem_amount exceeds what this check may be paid with; see `max_redeem`.'),
  missing_scope: spec(403, 'permission_error', 'The API key lacks the scope this call needs.'),
  scan_required: spec(403, 'permission_error', `This venue accepts this only for a card this key scanned shortly before. ${whereRuleIsSet('cardScanRequired')}`),
  adjustments_disabled: spec(403, 'permission_error', `This venue does not allow balance adjustments through the API. ${whereRuleIsSet('adjustmentsAllowed')}`),
  owner_only: spec(403, 'permission_error', `Only the venue's owner can change this, ${categoryRulesPlace(['earnsCashback', 'payableWithCashback', 'ownCashbackPercent'])}.`),
  role_forbidden: spec(403, 'permission_error', "Your role in this chain does not allow this; the chain's owner can change your role."),
  csrf_token_invalid: spec(403, 'permission_error', 'The X-CSRF-Token header is missing or does not match this session; reload the dashboard.'),
  api_key_not_accepted: spec(403, 'permission_error', 'The dashboard API does not accept API keys; sign in to the dashboard instead.'),
  signup_closed: spec(403, 'permission_error', 'Sign-up is closed on this server (DASHBOARD_SIGNUP; closed by default with NODE_ENV=production); ask the operator for an account.'),
  route_not_found: spec(404, INVALID, 'No such route. See the API reference at /api/docs.'),
  venue_not_allowed: spec(403, 'permission_error', "This key belongs to one venue: venue_id may be omitted or name that venue only."),
  chain_key_not_accepted: spec(403, 'permission_error', 'The POS API (/api/pos/v1) takes venue keys only; call /api/v1 with a chain key, naming venue_id.'),
  member_not_found: spec(404, INVALID, 'No member of this chain matches.'),
  venue_not_found: spec(404, INVALID, 'No venue with this id in the chain.'),
  transaction_not_found: spec(404, INVALID, 'No transaction with this external_id at this venue.'),
  hold_not_found: spec(404, INVALID, 'No hold with this id at this venue.'),
  dish_not_found: spec(404, INVALID, 'No dish with this external_id at this venue.'),
  order_not_found: spec(404, INVALID, 'No order with this id at this venue.'),
  product_not_found: spec(404, INVALID, 'No product with this SKU in this chain.'),
  category_not_found: spec(404, INVALID, 'No category with this external_id in this chain.'),
  webhook_endpoint_not_found: spec(404, INVALID, 'No webhook endpoint with this id at this venue.'),
  integration_not_found: spec(404, INVALID, 'No point-of-sale connection with this id in the chain.'),
  integration_log_entry_not_found: spec(404, INVALID, "No entry with this id in the connection's log."),
  integration_entry_not_retryable: spec(409, INVALID, 'Only an entry that failed or is waiting can be tried again.'),
  event_not_found: spec(404, INVALID, 'No event with this id at this venue.'),
  menu_not_found: spec(404, INVALID, 'No venue menu at this address.'),
  table_not_found: spec(404, INVALID, 'No table with this code at this venue.'),
  program_not_found: spec(404, INVALID, 'No program with this id in this chain.'),
  campaign_not_found: spec(404, INVALID, 'No campaign with this id in this chain.'),
  api_key_not_found: spec(404, INVALID, 'No API key with this id at this venue.'),
  user_not_found: spec(404, INVALID, 'No dashboard user with this id in this chain.'),
  member_import_not_found: spec(404, INVALID, 'No member import with this id in this chain.'),
  session_not_found: spec(404, INVALID, 'No dashboard session with this id for this owner.'),
  logo_not_found: spec(404, INVALID, 'This chain has no logo; the owner sets one on the Brand page.'),
  link_not_found: spec(404, INVALID, 'This link is not valid: it was mistyped, withdrawn or replaced by a newer one; ask for a new one.'),
  method_not_allowed: spec(405, INVALID, 'This route does not accept this HTTP method.'),
  email_taken: spec(409, INVALID, 'An owner with this e-mail address already exists; sign in instead.'),
  card_number_taken: spec(409, INVALID, 'Another member of this chain already has this card number.'),
  member_email_taken: spec(409, INVALID, 'Another member of this chain already has this e-mail address.'),
  member_ambiguous: spec(409, INVALID, 'More than one member of this chain has this phone; look them up by card number or e-mail.'),
  invalid_status_transition: spec(409, INVALID, 'The order or campaign cannot move from its status to the one sent; see `status`.'),
  dish_unavailable: spec(409, INVALID, 'A dish in the order is on the stop list; see `external_ids`.'),
  hold_expired: spec(409, INVALID, 'The hold expired; create a new one.'),
  hold_captured: spec(409, INVALID, 'The hold was already captured; create a new one.'),
  hold_released: spec(409, INVALID, 'The hold was released; create a new one.'),
  external_id_reused: spec(409, INVALID, 'This external_id was already used with a different body.'),
  wallet_not_configured: spec(409, INVALID, 'Wallet passes are not set up on this server; the message names the settings missing (see docs/wallet.md).'),
  last_owner: spec(409, INVALID, 'A chain keeps at least one owner: make another user owner first.'),
  balance_conflict: spec(409, INVALID, 'The balance changed during the call; retry with the same external_id.'),
  idempotency_key_in_use: spec(409, 'idempotency_error', 'A request with this Idempotency-Key is still being processed; retry shortly.'),
  idempotency_key_reused: spec(400, 'idempotency_error', 'This Idempotency-Key was already used with a different request.'),
  link_expired: spec(410, INVALID, 'This link has expired (an invitation lasts 7 days, a password reset 24 hours); ask for a new one.'),
  link_used: spec(410, INVALID, 'This link was already used; sign in, or ask for a new one.'),
  request_body_too_large: spec(413, INVALID, 'The request body is larger than this server accepts.'),
  unsupported_content_type: spec(415, INVALID, 'Requests with a body must use Content-Type: application/json.'),
  rate_limited: spec(429, 'rate_limit_error', 'Too many requests: the limit is 300 requests per minute per key.'),
  internal_error: spec(500, 'api_error', 'Something went wrong on our side; retry with the same Idempotency-Key or external_id.'),
  service_unavailable: spec(503, 'api_error', 'The service is briefly unavailable; retry with backoff.'),
} satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiErrorOptions {
  message?: string;
  param?: string;
  /** Fields that go at the top level of `error` (available, refundable, max_redeem…): ERROR_FIELDS in src/http/responses.ts types them per code. */
  details?: Record<string, unknown>;
  /** Response headers that belong to this error (Retry-After). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly param?: string;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    options: ApiErrorOptions = {},
  ) {
    const known = ERROR_CODES[code];
    super(options.message ?? known.message);
    this.status = known.status;
    this.type = known.type;
    this.param = options.param;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  /** The `error` object of the envelope. */
  toBody(docBaseUrl: string): ErrorBody {
    return {
      type: this.type,
      code: this.code,
      message: this.message,
      ...(this.param === undefined ? {} : { param: this.param }),
      ...this.details,
      doc_url: `${docBaseUrl}/api/errors#${this.code}`,
    };
  }
}

/** parameter_invalid for one field: `param` names it, `message` says what is wrong with it. */
export const parameterInvalid = (param: string, message: string): ApiError => new ApiError('parameter_invalid', { param, message });

export interface ErrorBody {
  type: ErrorType;
  code: string;
  message: string;
  param?: string;
  doc_url: string;
  [extra: string]: unknown;
}

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);
