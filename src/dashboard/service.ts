// The owner's dashboard: sign-up, sign-in, sessions, and the owner's view of the venue through the domain services.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { ApiError, parameterInvalid } from '../shared/errors.js';
import { newId, isUuid } from '../shared/ids.js';
import { formatTimestamp } from '../shared/time.js';
import { isTokenShaped, newToken, tokenHash } from '../shared/tokens.js';
import type { Role } from '../modules/accounts/schemas.js';
import * as accounts from '../modules/accounts/service.js';
import * as audit from '../modules/audit/service.js';
import type { Who } from '../modules/audit/service.js';
import type { PlaceCaller } from '../modules/accounts/schemas.js';
import type { ProgramInfo } from '../modules/programs/schemas.js';
import * as members from '../modules/members/service.js';
import * as programs from '../modules/programs/service.js';
import * as repo from './repo.js';
import type { NewChainVenue, SignUp } from './schemas.js';
import { routesAllowed } from './roles.js';

/** A session lasts this long from sign-in, however active. */
export const SESSION_TTL_MS = 7 * 24 * 3_600_000;
const TOUCH_EVERY_MS = 60_000;

export interface OwnerSession {
  id: string;
  owner: accounts.Owner;
  venue: accounts.Venue;
  csrfToken: string;
  expiresAt: Date;
  /** The address of the request it was presented with (the audit log's). */
  address?: string;
}

/** Derived from the cookie's secret token, so it needs no storage and nobody without the cookie can compute it. */
export const csrfTokenFor = (token: string) => createHmac('sha256', token).update('dashboard-csrf').digest('base64url');

export function csrfMatches(token: string, sent: string | undefined): boolean {
  if (!sent) return false;
  const expected = Buffer.from(csrfTokenFor(token));
  const given = Buffer.from(sent);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function presentVenue(v: accounts.Venue) {
  return {
    id: v.id,
    slug: v.slug,
    name: v.name,
    currency: v.currency,
    locale: v.locale,
    timezone: v.timezone,
    country: v.country,
    settings: v.settings,
    created_at: v.createdAt,
  };
}

/** The chain as the dashboard shows it: the venue switcher's list and the currency every venue counts in. */
export function presentChain(c: accounts.Chain) {
  return {
    id: c.id,
    slug: c.slug,
    name: c.name,
    currency: c.currency,
    venues: c.venues.map((v) => ({ id: v.id, slug: v.slug, name: v.name, timezone: v.timezone })),
  };
}

export async function presentSession(db: Db, s: OwnerSession) {
  const chain = await accounts.findChain(db, s.venue.chainId);
  if (!chain) throw new ApiError('session_required');
  return {
    object: 'dashboard_session' as const,
    owner: { id: s.owner.id, email: s.owner.email, role: s.owner.role },
    allowed: routesAllowed(s.owner.role),
    venue: presentVenue(s.venue),
    // The switcher lists what the user may open: a limited manager or staff their venues only.
    chain: presentChain({ ...chain, venues: chain.venues.filter((v) => accounts.userMayOpen(s.owner, v.id)) }),
    csrf_token: s.csrfToken,
    expires_at: formatTimestamp(s.expiresAt),
  };
}

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/** Opens a session for the owner; the token goes into the cookie and is stored only as a hash. */
export async function openSession(db: Db, owner: accounts.Owner, client: ClientInfo, now: Date): Promise<{ token: string; session: OwnerSession }> {
  // At the venue they were let in at, unless they are limited to others: then the first of those.
  const venue = await accounts.findVenue(db, accounts.userMayOpen(owner, owner.venueId) ? owner.venueId : owner.venueIds![0]!);
  if (!venue) throw new ApiError('sign_in_failed');
  const token = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const row = await repo.insertSession(db, {
    chain_id: venue.chainId,
    venue_id: venue.id,
    id: newId(),
    owner_id: owner.id,
    token_hash: tokenHash(token),
    user_agent: client.userAgent?.slice(0, 300) ?? null,
    ip: client.ip,
    created_at: now,
    last_seen_at: now,
    expires_at: expiresAt,
  });
  return { token, session: { id: row.id, owner, venue, csrfToken: csrfTokenFor(token), expiresAt } };
}

/** The live session of a cookie's token, or undefined. Its venue is the one the owner last switched to (D21). */
export async function sessionOf(db: Db, token: string, now: Date): Promise<OwnerSession | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const row = await repo.findLiveSession(db, tokenHash(token), now);
  if (!row) return undefined;
  const [owner, venue] = await Promise.all([accounts.findOwner(db, row.chain_id, row.owner_id), accounts.findVenue(db, row.venue_id)]);
  if (!owner || !venue || venue.chainId !== row.chain_id || !accounts.userMayOpen(owner, venue.id)) return undefined;
  if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) await repo.touchSession(db, { chainId: row.chain_id, id: row.id }, now);
  return { id: row.id, owner, venue, csrfToken: csrfTokenFor(token), expiresAt: row.expires_at };
}

/**
 * A venue of the owner's chain by id; a venue of another chain, or one a limited user may not open, is 404 like one
 * that does not exist.
 */
export async function chainVenueOf(db: Db, session: OwnerSession, venueId: string): Promise<accounts.Venue> {
  const venue = isUuid(venueId) ? await accounts.findVenue(db, venueId) : undefined;
  if (!venue || venue.chainId !== session.venue.chainId || !accounts.userMayOpen(session.owner, venue.id)) throw new ApiError('venue_not_found', { param: 'venue_id' });
  return venue;
}

/** Moves the session to another venue of the owner's chain. */
export async function switchVenue(db: Db, session: OwnerSession, venueId: string): Promise<OwnerSession> {
  const venue = await chainVenueOf(db, session, venueId);
  await repo.setSessionVenue(db, { chainId: session.venue.chainId, id: session.id }, venue.id);
  return { ...session, venue };
}

/** "Add venue": a new venue in the owner's chain, in the chain's currency; the session switches to it. */
export async function addVenue(trx: Db, session: OwnerSession, input: NewChainVenue): Promise<OwnerSession> {
  const venue = await accounts.createVenue(trx, {
    chainId: session.venue.chainId,
    name: input.name.trim(),
    slug: input.slug.trim(),
    // Not given: as at the venue the owner is at (a chain's venues are mostly in one country).
    timezone: input.timezone?.trim() ?? session.venue.timezone,
    locale: input.locale?.trim() ?? session.venue.locale,
    country: input.country?.trim().toUpperCase() ?? session.venue.country,
  });
  await repo.setSessionVenue(trx, { chainId: session.venue.chainId, id: session.id }, venue.id);
  const fields = ['name', 'slug', 'currency', 'locale', 'timezone', 'country'] as const;
  const where = { chainId: venue.chainId, venueId: venue.id, ...sessionWho(session) };
  await audit.recordAudit(trx, where, { action: 'venue.created', target: { type: 'venue', id: venue.id }, changes: audit.changedFields(null, { ...venue }, fields) });
  return { ...session, venue };
}

function slugFrom(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 38)
    .replace(/-+$/, '');
  return `${base || 'venue'}-${randomBytes(3).toString('hex')}`;
}

/**
 * A sign-up (issue 45): its venue's fields, the address and the password are checked now, and it waits for its link;
 * answered alike whether or not the address has an account (`accountExists` only says which e-mail to send).
 */
export async function requestSignUp(trx: Db, input: SignUp, at: Date): Promise<accounts.IssuedSignUp> {
  const venue = { name: input.venue_name.trim(), currency: input.currency?.toUpperCase(), locale: input.locale, timezone: input.timezone, country: input.country?.toUpperCase() };
  if (!venue.name) throw parameterInvalid('venue_name', 'venue_name must not be empty.');
  accounts.checkNewChainVenue(venue);
  return accounts.requestSignUp(trx, { email: input.email, password: input.password, venue }, at);
}

/** The chain a confirmed sign-up opens: a venue (a chain of one), its owner and a starting cashback program (5 %). */
async function openChain(trx: Db, signUp: accounts.ConfirmedSignUp): Promise<accounts.Owner> {
  const venue = await accounts.createVenue(trx, { ...signUp.venue, slug: slugFrom(signUp.venue.name) });
  const owner = await accounts.createOwner(trx, { ...accounts.placeOf(venue), email: signUp.email, password: signUp.password });
  await programs.createProgram(trx, venue.chainId, {
    name: `${venue.name} Rewards`,
    type: 'cashback',
    settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] },
    isDefault: true,
  });
  return owner;
}

export async function listSessions(db: Db, session: OwnerSession, now: Date) {
  const rows = await repo.listLiveSessions(db, session.venue.chainId, session.owner.id, now);
  return rows.map((r) => ({
    id: r.id,
    current: r.id === session.id,
    user_agent: r.user_agent,
    ip: r.ip,
    created_at: formatTimestamp(r.created_at),
    last_seen_at: formatTimestamp(r.last_seen_at),
    expires_at: formatTimestamp(r.expires_at),
  }));
}

export async function revokeSession(db: Db, session: OwnerSession, id: string, now: Date): Promise<void> {
  if (!isUuid(id) || !(await repo.revokeSession(db, session.venue.chainId, session.owner.id, id, now))) throw new ApiError('session_not_found');
}

export async function changePassword(db: Db, session: OwnerSession, current: string, next: string, now: Date): Promise<void> {
  await accounts.changeOwnerPassword(db, session.owner, current, next);
  await repo.revokeOtherSessions(db, session.venue.chainId, session.owner.id, session.id, now);
  const where = { chainId: session.venue.chainId, venueId: null, at: now, ...sessionWho(session) };
  await audit.recordAudit(db, where, { action: 'user.password_changed', target: { type: 'user', id: session.owner.id } });
}

/** A wrong current password in a password change: audited (in a statement of its own), and with `end` the session ended. */
export async function passwordChangeRefused(db: Db, session: OwnerSession, now: Date, end: boolean): Promise<void> {
  const where = { chainId: session.venue.chainId, venueId: null, at: now, ...sessionWho(session) };
  await audit.recordAudit(db, where, { action: 'user.password_change_refused', target: { type: 'user', id: session.owner.id }, ...(end ? { changes: { session: ['open', 'ended'] } } : {}) });
  if (end) await repo.revokeSession(db, session.venue.chainId, session.owner.id, session.id, now);
}

/** Where the session's user makes a link (an invitation, a reset): their chain, the venue they are at, now. */
export const linkPlaceOf = (session: OwnerSession, at: Date): accounts.LinkPlace => ({ chainId: session.venue.chainId, venueId: session.venue.id, at, ...sessionWho(session) });

/**
 * The owner makes a password reset link for a manager or staff of the chain. Not for an owner (a co-owner's link
 * shown to another owner would let them sign in as the co-owner): an owner asks for theirs by e-mail.
 */
export async function passwordResetForUser(trx: Db, session: OwnerSession, userId: string, at: Date): Promise<accounts.IssuedLink> {
  const user = isUuid(userId) ? await accounts.findOwner(trx, session.venue.chainId, userId) : undefined;
  if (!user) throw new ApiError('user_not_found');
  if (user.role === 'owner') throw new ApiError('role_forbidden', { message: 'An owner resets their password with "Forgot your password?" on the sign-in page (sent by e-mail), or with the CLI.' });
  return accounts.passwordResetFor(trx, linkPlaceOf(session, at), user);
}

/** What a link is for (a sign-up, an invitation, a reset), as its page shows it before it is used. */
export async function inspectLink(db: Db, token: string, now: Date): Promise<accounts.SignUpLink | accounts.UserLink> {
  return (await accounts.inspectSignUp(db, token, now)) ?? accounts.inspectLink(db, token, now);
}

/**
 * Uses a link and signs its user in: a sign-up's with the password chosen at sign-up opens the new chain; an
 * invitation's or reset's with the password chosen now (a reset signs the user out elsewhere).
 */
export async function useLink(trx: Db, token: string, password: string, client: ClientInfo, now: Date) {
  const signUp = await accounts.confirmSignUp(trx, token, password, now);
  const user = signUp
    ? await openChain(trx, signUp)
    : await accounts.useLink(trx, token, password, { address: client.ip, at: now }, (u) => repo.deleteSessionsOf(trx, u.chainId, u.id));
  return openSession(trx, user, client, now);
}

/**
 * 403 role_forbidden for a route the session's role does not allow (roles.ts); a change attempted is recorded in the
 * audit log as `access.denied` (naming the route), in a statement of its own: the refused request writes nothing else.
 * The same refusal again within a minute adds no entry.
 */
export async function refuseRole(db: Db, session: OwnerSession, route: string, now: Date): Promise<never> {
  if (!route.startsWith('GET ')) {
    const where = { chainId: session.venue.chainId, venueId: session.venue.id, at: now, ...sessionWho(session) };
    await audit.recordRefusal(db, where, { action: 'access.denied', target: { type: 'route', id: route } });
  }
  throw new ApiError('role_forbidden', { message: `Your role (${session.owner.role}) does not allow this; the chain's owner can change your role.` });
}

/**
 * The owner changes a user's role, or removes them (`role` null), and limits them to some venues (`venueIds`; null:
 * every venue): signed out at once when given less to do.
 */
export async function changeUser(trx: Db, session: OwnerSession, id: string, change: { role?: Role | null; venueIds?: string[] | null }) {
  const where = { chainId: session.venue.chainId, venueId: null, ...sessionWho(session) };
  if (!isUuid(id)) throw new ApiError('user_not_found');
  const endSessions = (userId: string) => repo.deleteSessionsOf(trx, where.chainId, userId);
  let user = change.role === undefined ? undefined : await accounts.changeUser(trx, where, id, change.role, endSessions);
  if (change.venueIds !== undefined) {
    const chain = (await accounts.findChain(trx, where.chainId))!;
    user = await accounts.limitUserVenues(trx, where, id, change.venueIds, chain.venues.map((v) => v.id), endSessions);
  }
  user ??= (await accounts.listUsers(trx, where.chainId)).find((u) => u.id === id);
  if (!user) throw new ApiError('user_not_found');
  return presentUser(user);
}

export const presentUser = (u: accounts.Owner) => ({ id: u.id, email: u.email, role: u.role, venue_ids: u.venueIds });

/** Who acts through a session, for the audit log: its user, from the address it was presented from. */
export const sessionWho = (session: OwnerSession): Who => ({ actor: { type: 'user', id: session.owner.id }, address: session.address ?? null });

/** The caller the domain services see for the owner: full access, the venue's rules, adjustments allowed. */
export function ownerCallerOf(session: OwnerSession, now: Date): PlaceCaller {
  const caller = accounts.ownerCaller(session.venue);
  return { ...caller, settings: { ...caller.settings, manual_adjustments_allowed: true }, now, ...sessionWho(session) };
}

export function presentKey(k: accounts.ApiKeyInfo) {
  return {
    id: k.id,
    name: k.name,
    livemode: k.livemode,
    prefix: k.prefix,
    scopes: k.scopes,
    rules: k.rules,
    created_at: k.createdAt,
    revoked_at: k.revokedAt,
    last_used_at: k.lastUsedAt,
  };
}

/** The owner's program by id (programs are the chain's); 404 for another chain's. */
export async function programOf(db: Db, chainId: string, id: string) {
  const found = isUuid(id) ? (await programs.listPrograms(db, chainId)).find((p) => p.id === id) : undefined;
  if (!found) throw new ApiError('program_not_found');
  return found;
}

const PROGRAM_FIELDS = ['name', 'type', 'settings', 'barcode_format', 'is_default'] as const;

/** The owner creates a program (dashboard, CLI), recorded in the audit log. */
export async function addProgram(trx: Db, chainId: string, input: programs.NewProgram, by: Who): Promise<ProgramInfo> {
  const created = await programs.createProgram(trx, chainId, input);
  const changes = audit.changedFields(null, programs.presentProgram(created), PROGRAM_FIELDS);
  await audit.recordAudit(trx, { chainId, venueId: null, ...by }, { action: 'program.created', target: { type: 'program', id: created.id }, changes });
  return created;
}

/**
 * The owner changes a program (dashboard, CLI): what it means for members' cashback and levels first, then the
 * program, recorded in the audit log.
 */
export async function changeProgram(trx: Db, chainId: string, id: string, changes: programs.ProgramChanges, now: Date, by: Who): Promise<ProgramInfo> {
  const current = await programOf(trx, chainId, id);
  const next = changes.settings === undefined ? undefined : programs.rulesFrom(current.rules.type, changes.settings);
  await members.programChanging(trx, chainId, current, next, now);
  const updated = await programs.updateProgram(trx, chainId, id, changes);
  const fields = audit.changedFields(programs.presentProgram(current), programs.presentProgram(updated), PROGRAM_FIELDS);
  await audit.recordAudit(trx, { chainId, venueId: null, ...by }, { action: 'program.updated', target: { type: 'program', id }, changes: fields });
  return updated;
}
