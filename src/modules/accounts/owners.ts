// Owners: sign-up, sign-in by e-mail and password (argon2), and password changes. An owner runs their chain (D21).
import type { Db } from '../../db/database.js';
import { ApiError, parameterInvalid } from '../../shared/errors.js';
import { isEmailAddress } from '../../shared/email.js';
import { newId } from '../../shared/ids.js';
import * as audit from '../audit/service.js';
import { ROLES, type Role } from './schemas.js';
import * as linksRepo from './links-repo.js';
import * as repo from './repo.js';

// argon2 is needed only when an owner signs up or in: loaded then, not by every API process at start.
const argon2 = () => import('@node-rs/argon2');
const argon2Hash = async (password: string) => (await argon2()).hash(password);
const argon2Verify = async (hashed: string, password: string) => (await argon2()).verify(hashed, password);

/** A password as a sign-up keeps it until its link is used: hashed, checked when it was given. */
export interface HashedPassword {
  hash: string;
}

/** The hash of a new password (at least 10 characters, else 400 on `param`). */
export async function hashNewPassword(param: string, password: string): Promise<HashedPassword> {
  checkPassword(param, password);
  return { hash: await argon2Hash(password) };
}

export const passwordMatches = (hashed: HashedPassword, password: string): Promise<boolean> => argon2Verify(hashed.hash, password);

/** A dashboard user of a chain (an owner, or staff an owner let in with a role), with a password. */
export async function createOwner(db: Db, input: { chainId: string; venueId: string; email: string; password: string | HashedPassword; role?: Role }) {
  checkEmail(input.email);
  const hashed = typeof input.password === 'string' ? await hashNewPassword('password', input.password) : input.password;
  const row = await repo.insertOwner(db, {
    chain_id: input.chainId,
    venue_id: input.venueId,
    id: newId(),
    email: input.email.toLowerCase(),
    password_hash: hashed.hash,
    role: input.role ?? 'owner',
  });
  return ownerOf(row);
}

/** A user let into a chain by an owner's tool (the CLI today), recorded in the audit log: their role, never their e-mail. */
export async function addUser(db: Db, input: { chainId: string; venueId: string; email: string; password: string; role: Role }, by: audit.Who): Promise<Owner> {
  const user = await createOwner(db, input);
  const where = { chainId: input.chainId, venueId: input.venueId, ...by };
  await audit.recordAudit(db, where, { action: 'user.created', target: { type: 'user', id: user.id }, changes: { role: [null, user.role] } });
  return user;
}

/** The chain's users, locked in id order (a change of one is judged against all), and the one changed; 404 without it. */
async function lockedUser(db: Db, chainId: string, id: string): Promise<{ users: Owner[]; user: Owner }> {
  const users = (await repo.lockOwners(db, chainId)).map(ownerOf);
  const user = users.find((u) => u.id === id);
  if (!user) throw new ApiError('user_not_found');
  return { users, user };
}

/**
 * Changes a user's role or removes them (`role` null), as the chain's owner asks: the chain's users locked first,
 * so two changes at once never leave it without an owner (409 last_owner). `endSessions` ends the user's sessions
 * in the same transaction (a user removed or given less to do is signed out at once). Recorded in the audit log.
 */
export async function changeUser(
  db: Db,
  where: audit.AuditPlace,
  id: string,
  role: Role | null,
  endSessions: (userId: string) => Promise<void>,
): Promise<Owner> {
  const { users, user } = await lockedUser(db, where.chainId, id);
  const owners = users.filter((u) => u.role === 'owner').length;
  if (user.role === 'owner' && role !== 'owner' && owners === 1) throw new ApiError('last_owner');
  if (role === user.role) return user;
  if (role === null || ROLES.indexOf(role) < ROLES.indexOf(user.role)) await endSessions(id);
  // Invitations and reset links an owner made no longer speak for the chain once they are not its owner.
  if (user.role === 'owner') await linksRepo.deletePendingLinksBy(db, where.chainId, id);
  if (role === null) await repo.deleteOwner(db, where.chainId, id);
  else await repo.setOwnerRole(db, where.chainId, id, role);
  const action = role === null ? ('user.removed' as const) : ('user.role_changed' as const);
  await audit.recordAudit(db, where, { action, target: { type: 'user', id }, changes: { role: [user.role, role] } });
  return { ...user, role: role ?? user.role, venueIds: role === 'owner' ? null : user.venueIds };
}

/**
 * Limits a manager or staff to some venues of the chain (`venueIds`), or lifts the limit (null); an owner runs every
 * venue. One who loses a venue is signed out at once (`endSessions`). Recorded in the audit log.
 */
export async function limitUserVenues(db: Db, where: audit.AuditPlace, id: string, venueIds: string[] | null, chainVenues: string[], endSessions: (userId: string) => Promise<void>): Promise<Owner> {
  const { user } = await lockedUser(db, where.chainId, id);
  const wanted = venueIds === null ? null : [...new Set(venueIds)].sort();
  if (wanted !== null && user.role === 'owner') throw parameterInvalid('venue_ids', 'An owner runs every venue of the chain: make them manager or staff first.');
  if (wanted?.length === 0) throw parameterInvalid('venue_ids', 'Give at least one venue, or none to allow every venue.');
  const unknown = wanted?.find((v) => !chainVenues.includes(v));
  if (unknown) throw new ApiError('venue_not_found', { param: 'venue_ids', message: `No venue with id ${unknown} in this chain.` });
  const before = user.venueIds && [...user.venueIds].sort();
  if (JSON.stringify(before) === JSON.stringify(wanted)) return user;
  const lost = (before ?? chainVenues).some((v) => wanted !== null && !wanted.includes(v));
  if (lost) await endSessions(id);
  await repo.setOwnerVenues(db, where.chainId, id, wanted);
  await audit.recordAudit(db, where, { action: 'user.venues_changed', target: { type: 'user', id }, changes: { venue_ids: [before, wanted] } });
  return { ...user, venueIds: wanted };
}

/** Whether the user may open this venue's pages: an unlimited user (every owner) any of the chain's. */
export const userMayOpen = (user: Pick<Owner, 'venueIds'>, venueId: string): boolean => user.venueIds === null || user.venueIds.includes(venueId);

/** The chain's dashboard users, oldest first. */
export async function listUsers(db: Db, chainId: string): Promise<Owner[]> {
  return (await repo.listOwners(db, chainId)).map(ownerOf);
}

/**
 * A dashboard user: an owner runs their chain, a manager or staff what their role lets them (D24, dashboard/roles.ts);
 * `venueId` is the venue they signed up or were let in at.
 */
export interface Owner {
  id: string;
  chainId: string;
  venueId: string;
  email: string;
  role: Role;
  /** The venues a limited manager or staff may open; null: every venue of the chain. */
  venueIds: string[] | null;
}

const ownerOf = (row: { id: string; chain_id: string; venue_id: string; email: string; role: Role; venue_ids?: string[] | null }): Owner => ({
  id: row.id,
  chainId: row.chain_id,
  venueId: row.venue_id,
  email: row.email,
  role: row.role,
  venueIds: row.venue_ids ?? null,
});

// Verified when the e-mail is unknown, so a wrong address takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

/**
 * The owner with this e-mail and password, or undefined (for the dashboard's sign-in). A wrong password for a known
 * owner is recorded in their chain's audit log with the address it came from (`sign_in.failed`); an unknown e-mail
 * belongs to no chain, and is not.
 */
export async function verifyOwnerPassword(db: Db, email: string, password: string, address: string | null): Promise<Owner | undefined> {
  const row = await repo.findOwnerByEmail(db, email);
  if (!row) {
    await argon2Verify(await (dummyHash ??= argon2Hash('not a password of anyone')), password).catch(() => false);
    return undefined;
  }
  const ok = await argon2Verify(row.password_hash, password).catch(() => false);
  if (ok) return ownerOf(row);
  const where = { chainId: row.chain_id, venueId: row.venue_id, actor: { type: 'user' as const, id: null }, address };
  await audit.recordAudit(db, where, { action: 'sign_in.failed', target: { type: 'user', id: row.id } });
  return undefined;
}

export async function findOwner(db: Db, chainId: string, ownerId: string): Promise<Owner | undefined> {
  const row = await repo.findOwner(db, chainId, ownerId);
  return row && ownerOf(row);
}

/** Changes an owner's password after checking the current one. */
export async function changeOwnerPassword(db: Db, owner: Owner, current: string, next: string): Promise<void> {
  const row = await repo.findOwner(db, owner.chainId, owner.id);
  if (!row || !(await argon2Verify(row.password_hash, current).catch(() => false))) {
    throw parameterInvalid('current_password', 'The current password is wrong.');
  }
  checkPassword('new_password', next);
  await repo.setOwnerPasswordHash(db, owner.chainId, owner.id, await argon2Hash(next));
}

/** Sets a user's password without the current one (a reset link was used); undefined for a user no longer there. */
export async function setPassword(db: Db, chainId: string, ownerId: string, password: string): Promise<Owner | undefined> {
  checkPassword('password', password);
  const row = await repo.findOwner(db, chainId, ownerId);
  if (!row) return undefined;
  await repo.setOwnerPasswordHash(db, chainId, ownerId, await argon2Hash(password));
  return ownerOf(row);
}

export function checkEmail(email: string): void {
  if (!isEmailAddress(email)) throw parameterInvalid('email', 'email must be an e-mail address.');
}

function checkPassword(param: string, password: string): void {
  if (password.length < 10) throw parameterInvalid(param, 'The password must have at least 10 characters.');
}

export async function findOwnerByEmail(db: Db, email: string): Promise<Owner | undefined> {
  const row = await repo.findOwnerByEmail(db, email.trim());
  return row && ownerOf(row);
}

/**
 * 409 email_taken for an address that has a dashboard account (an address is one chain's user). Said only to whoever
 * holds a link made for the address, or to the chain's own owner: an outsider's sign-up or invitation is answered alike.
 */
export async function refuseTakenAddress(db: Db, email: string): Promise<void> {
  if (await findOwnerByEmail(db, email)) throw new ApiError('email_taken', { message: 'This address already has a dashboard account: sign in, or use "Forgot your password?".' });
}
