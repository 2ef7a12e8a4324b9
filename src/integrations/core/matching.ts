// Guest → member (D26): the provider's guest is a member only when exactly one member matches; never enrolled, never guessed.
import type { Db } from '../../db/database.js';
import type { Caller } from '../../modules/accounts/schemas.js';
import * as members from '../../modules/members/service.js';
import { ApiError } from '../../shared/errors.js';

/** What a provider knows of its guest. */
export interface Guest {
  phone?: string | null;
  email?: string | null;
  cardNumber?: string | null;
}

export type GuestMatch = { kind: 'member'; memberId: string } | { kind: 'none' } | { kind: 'ambiguous'; by: string };

/**
 * The phone first (normalised in the venue's country), then the e-mail (trimmed, any case), then the card number; the
 * first that names anyone decides, and two members named by it are ambiguous.
 */
export async function matchGuest(db: Db, caller: Caller, guest: Guest): Promise<GuestMatch> {
  const phone = guest.phone ? normalised(guest.phone, caller.venue.country) : undefined;
  const email = guest.email ? emailOf(guest.email) : undefined;
  const tries: [string, { phone: string } | { email: string } | { cardNumber: string }][] = [];
  if (phone) tries.push(['phone', { phone }]);
  if (email) tries.push(['email', { email }]);
  if (guest.cardNumber) tries.push(['card', { cardNumber: guest.cardNumber.trim() }]);
  for (const [by, match] of tries) {
    const ids = await members.memberIdsMatching(db, caller, match);
    if (ids.length > 1) return { kind: 'ambiguous', by };
    if (ids.length === 1) return { kind: 'member', memberId: ids[0]! };
  }
  return { kind: 'none' };
}

/** A provider's e-mail that is no address matches nobody. */
function emailOf(raw: string): string | undefined {
  try {
    return members.normaliseEmail(raw);
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}

/** A provider's phone that is no phone at all matches nobody, rather than failing the guest's check. */
function normalised(raw: string, country: string): string | undefined {
  try {
    return members.normalisePhone(raw, country);
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}
