// Sign-ups confirmed by a link (issue 45): a sign-up is answered alike whether or not its address has an account, so
// no one learns who has one; its venue and password wait here until the link, e-mailed or shown, is used.
import type { Db } from '../../db/database.js';
import type { SignUpVenue } from '../../db/schema.js';
import { parameterInvalid } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { isTokenShaped, newToken, tokenHash } from '../../shared/tokens.js';
import { liveLink } from './links.js';
import { checkEmail, findOwnerByEmail, hashNewPassword, passwordMatches, refuseTakenAddress, type HashedPassword } from './owners.js';
import * as repo from './signups-repo.js';

export type { SignUpVenue };

export const SIGNUP_TTL_MS = 24 * 3_600_000;

export interface SignUpLink {
  id: string;
  purpose: 'signup';
  email: string;
  venue: SignUpVenue;
  expiresAt: Date;
}

/** A sign-up just asked for: its token is in this answer only; `accountExists` says which e-mail to send. */
export interface IssuedSignUp {
  link: SignUpLink;
  token: string;
  accountExists: boolean;
}

/** A sign-up whose link was used with its password: what opens the new chain. */
export interface ConfirmedSignUp {
  email: string;
  venue: SignUpVenue;
  password: HashedPassword;
}

const linkOf = (row: repo.SignUpRow): SignUpLink => ({ id: row.id, purpose: 'signup', email: row.email, venue: row.venue, expiresAt: row.expires_at });

/**
 * Keeps a sign-up until its link is used, its venue's fields checked by the caller (`checkNewChainVenue`). The
 * address and password are checked and the password hashed whether or not the address has an account: the answer
 * and its time are alike.
 */
export async function requestSignUp(db: Db, input: { email: string; password: string; venue: SignUpVenue }, at: Date): Promise<IssuedSignUp> {
  const email = input.email.trim().toLowerCase();
  checkEmail(email);
  const password = await hashNewPassword('password', input.password);
  const token = newToken();
  const row = await repo.insertSignUp(db, {
    id: newId(),
    email,
    venue: JSON.stringify({ ...input.venue, name: input.venue.name.trim() }),
    password_hash: password.hash,
    token_hash: tokenHash(token),
    created_at: at,
    expires_at: new Date(at.getTime() + SIGNUP_TTL_MS),
  });
  return { link: linkOf(row), token, accountExists: (await findOwnerByEmail(db, email)) !== undefined };
}

/** The live sign-up of a token, as its page shows it; undefined when the token is no sign-up's (it may be another link's). */
export async function inspectSignUp(db: Db, token: string, now: Date): Promise<SignUpLink | undefined> {
  const row = isTokenShaped(token) ? await repo.signUpByToken(db, tokenHash(token), 'read') : undefined;
  if (!row) return undefined;
  await refuseTakenAddress(db, liveLink(row, now).email);
  return linkOf(row);
}

/**
 * Uses a sign-up's link once, with the password chosen at sign-up (400 on `password` otherwise: the link alone opens
 * nothing); undefined when the token is no sign-up's. The sign-up is locked first: two uses at once are one.
 */
export async function confirmSignUp(db: Db, token: string, password: string, now: Date): Promise<ConfirmedSignUp | undefined> {
  const row = isTokenShaped(token) ? await repo.signUpByToken(db, tokenHash(token), 'lock') : undefined;
  if (!row) return undefined;
  liveLink(row, now);
  await refuseTakenAddress(db, row.email);
  const hashed = { hash: row.password_hash };
  if (!(await passwordMatches(hashed, password))) throw parameterInvalid('password', 'This is not the password chosen at sign-up.');
  await repo.markSignUpUsed(db, row.id, now);
  return { email: row.email, venue: row.venue, password: hashed };
}

/** Forgets sign-ups past their 24 hours, in batches (housekeeping): an unconfirmed password hash is kept no longer. */
export async function forgetExpiredSignUps(db: Db, now: Date): Promise<void> {
  while ((await repo.deleteExpiredSignUps(db, now, 500)) === 500);
}
