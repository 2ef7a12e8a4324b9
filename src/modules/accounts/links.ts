// Single-use links for dashboard users (D24): an owner invites someone to the chain with a role, and a user who forgot
// their password sets a new one. The link carries a random token; only its hash is stored, and it works once.
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { isTokenShaped, newToken, tokenHash } from '../../shared/tokens.js';
import * as audit from '../audit/service.js';
import * as repo from './links-repo.js';
import { checkEmail, createOwner, findOwnerByEmail, refuseTakenAddress, setPassword, type Owner } from './owners.js';
import type { Role } from './schemas.js';

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
export const PASSWORD_RESET_TTL_MS = 24 * 3_600_000;

export type LinkPurpose = repo.LinkRow['purpose'];

export interface UserLink {
  id: string;
  chainId: string;
  venueId: string;
  purpose: LinkPurpose;
  email: string;
  /** The role an invitation gives; null for a password reset. */
  role: Role | null;
  createdAt: Date;
  expiresAt: Date;
}

/** A link just made: its token is in this answer only (to be sent or shown once), never stored. */
export interface IssuedLink {
  link: UserLink;
  token: string;
}

/** Where a link is made: the chain, the venue a new user starts at, who makes it and when. */
export interface LinkPlace extends audit.Who {
  chainId: string;
  venueId: string;
  at: Date;
}

const linkOf = (row: repo.LinkRow): UserLink => ({
  id: row.id,
  chainId: row.chain_id,
  venueId: row.venue_id,
  purpose: row.purpose,
  email: row.email,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** The dashboard page a link opens; the token is in the fragment, which browsers never send to the server. */
export const linkUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/dashboard/welcome#${token}`;

async function issue(db: Db, where: LinkPlace, input: { purpose: LinkPurpose; email: string; role: Role | null; userId: string | null }): Promise<IssuedLink> {
  const token = newToken();
  // A newer link replaces the address's older ones of the same kind: only the last one sent works.
  await repo.deletePendingLinks(db, where.chainId, input.purpose, input.email);
  const row = await repo.insertLink(db, {
    chain_id: where.chainId,
    id: newId(),
    purpose: input.purpose,
    venue_id: where.venueId,
    email: input.email,
    role: input.role,
    user_id: input.userId,
    token_hash: tokenHash(token),
    created_by: where.actor.type === 'user' ? where.actor.id : null,
    created_at: where.at,
    expires_at: new Date(where.at.getTime() + (input.purpose === 'invitation' ? INVITATION_TTL_MS : PASSWORD_RESET_TTL_MS)),
  });
  return { link: linkOf(row), token };
}

/**
 * An invitation to the chain with a role. An address already the chain's user is refused (the owner sees its users);
 * one with an account elsewhere is invited as any other, and `accountExists` tells the e-mail to say so instead:
 * whether an address has an account is told to whoever holds its link, never to the one who invites.
 */
export async function inviteUser(db: Db, where: LinkPlace, input: { email: string; role: Role }): Promise<IssuedLink & { accountExists: boolean }> {
  const email = input.email.trim().toLowerCase();
  checkEmail(email);
  const user = await findOwnerByEmail(db, email);
  if (user?.chainId === where.chainId) throw new ApiError('email_taken', { param: 'email', message: 'This address is already a user of this chain.' });
  const issued = await issue(db, where, { purpose: 'invitation', email, role: input.role, userId: null });
  await audit.recordAudit(db, where, { action: 'user.invited', target: { type: 'invitation', id: issued.link.id }, changes: { role: [null, input.role] } });
  return { ...issued, accountExists: user !== undefined };
}

/** The chain's invitations waiting to be accepted. */
export async function listInvitations(db: Db, chainId: string, now: Date): Promise<UserLink[]> {
  return (await repo.listPendingInvitations(db, chainId, now)).map(linkOf);
}

/** Withdraws an invitation not yet accepted: its link stops working at once. */
export async function withdrawInvitation(db: Db, where: LinkPlace, id: string): Promise<UserLink> {
  const row = isUuid(id) ? await repo.deleteLink(db, where.chainId, 'invitation', id) : undefined;
  if (!row) throw new ApiError('link_not_found', { message: 'No invitation waiting with this id in this chain.' });
  await audit.recordAudit(db, where, { action: 'user.invitation_withdrawn', target: { type: 'invitation', id }, changes: { role: [row.role, null] } });
  return linkOf(row);
}

/** A password reset link for a user of the chain: made by the owner for them, or asked for by the user by e-mail. */
export async function passwordResetFor(db: Db, where: LinkPlace, user: Owner): Promise<IssuedLink> {
  const issued = await issue(db, { ...where, venueId: user.venueId }, { purpose: 'password_reset', email: user.email, role: null, userId: user.id });
  await audit.recordAudit(db, where, { action: 'user.reset_requested', target: { type: 'user', id: user.id } });
  return issued;
}

/** The live link of a token (an invitation, a reset, a sign-up): 404 link_not_found, 410 link_used or link_expired otherwise. */
export function liveLink<T extends { used_at: Date | null; expires_at: Date }>(row: T | undefined, now: Date): T {
  if (!row) throw new ApiError('link_not_found');
  if (row.used_at) throw new ApiError('link_used');
  if (row.expires_at.getTime() <= now.getTime()) throw new ApiError('link_expired');
  return row;
}

/** What a link is for, as its page shows it before a password is chosen. */
export async function inspectLink(db: Db, token: string, now: Date): Promise<UserLink> {
  const row = liveLink(isTokenShaped(token) ? await repo.linkByToken(db, tokenHash(token), 'read') : undefined, now);
  if (row.purpose === 'invitation') await refuseTakenAddress(db, row.email);
  return linkOf(row);
}

/**
 * Uses a link once, with the password its user chooses: an invitation adds the user to the chain with its role, a
 * reset sets the user's password and `endSessions` signs them out everywhere. The link is locked first, so two uses
 * at once are one use and one 410.
 */
export async function useLink(db: Db, token: string, password: string, who: { address: string | null; at: Date }, endSessions: (user: Owner) => Promise<void>): Promise<Owner> {
  const row = liveLink(isTokenShaped(token) ? await repo.linkByToken(db, tokenHash(token), 'lock') : undefined, who.at);
  await repo.markLinkUsed(db, row.chain_id, row.id, who.at);
  if (row.purpose === 'invitation') {
    await refuseTakenAddress(db, row.email);
    const user = await createOwner(db, { chainId: row.chain_id, venueId: row.venue_id, email: row.email, password, role: row.role! });
    const where = { chainId: row.chain_id, venueId: row.venue_id, actor: { type: 'user' as const, id: user.id }, address: who.address, at: who.at };
    await audit.recordAudit(db, where, { action: 'user.created', target: { type: 'user', id: user.id }, changes: { role: [null, user.role] } });
    return user;
  }
  const user = await setPassword(db, row.chain_id, row.user_id!, password);
  if (!user) throw new ApiError('link_not_found', { message: 'The user this link was for has been removed from the chain.' });
  await endSessions(user);
  const where = { chainId: row.chain_id, venueId: null, actor: { type: 'user' as const, id: user.id }, address: who.address, at: who.at };
  await audit.recordAudit(db, where, { action: 'user.password_reset', target: { type: 'user', id: user.id } });
  return user;
}
