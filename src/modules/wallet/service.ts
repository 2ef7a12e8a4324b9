// The wallet's rules for the API, the guest's card page and the dashboard (D23): the Google save link, the card link
// and its revocation, the card a link opens, and what the server still needs for each wallet.
import type { AppleWalletSettings, GoogleWalletSettings } from '../../config.js';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { formatTimestamp } from '../../shared/time.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { isOneOf } from '../../shared/tokens.js';
import type { Caller } from '../accounts/schemas.js';
import * as audit from '../audit/service.js';
import * as members from '../members/service.js';
import { missingAppleSettings } from './apple-pass.js';
import { cardFace, memberPlace, type CardFace } from './card.js';
import { googleCard, missingGoogleSettings, type GoogleWallet } from './google-wallet.js';
import * as repo from './repo.js';
import * as updates from './updates-repo.js';

export interface WalletStatus {
  apple: { configured: boolean; missing: string[]; warnings: string[] };
  google: { configured: boolean; missing: string[]; warnings: string[] };
}

/** What is wrong with Apple passes as the server would issue them, in words for the owner and the operator. */
export function appleWarnings(publicBaseUrl: string): string[] {
  return publicBaseUrl.startsWith('http://')
    ? [`PUBLIC_BASE_URL is ${publicBaseUrl}, so passes are issued with an http web service, which Apple Wallet refuses outside developer mode: their updates never arrive. Set PUBLIC_BASE_URL to the server's https address.`]
    : [];
}

export function walletStatus(apple: AppleWalletSettings, google: GoogleWalletSettings, publicBaseUrl: string): WalletStatus {
  const [a, g] = [missingAppleSettings(apple), missingGoogleSettings(google)];
  return {
    apple: { configured: a.length === 0, missing: a, warnings: a.length === 0 ? appleWarnings(publicBaseUrl) : [] },
    google: { configured: g.length === 0, missing: g, warnings: [] },
  };
}

/** The member's "Save to Google Wallet" link; from now on their card's changes are sent to the object it saves. */
export async function googleSaveUrl(db: Db, caller: Caller, memberId: string, google: GoogleWallet, publicBaseUrl: string): Promise<string> {
  // The member first: another chain's member is 404 whatever the server's settings.
  const face = await cardFace(db, caller, memberId);
  google.require();
  const url = await google.saveUrl(googleCard(face, publicBaseUrl), new URL(publicBaseUrl).origin);
  await updates.rememberGoogleObject(db, caller.chainId, face.memberId);
  return url;
}

const cardToken = (secrets: SecretBox, memberId: string, generation: number) => secrets.macs('card-link', `${memberId}\0${generation}`);
const cardUrl = (publicBaseUrl: string, memberId: string, token: string) => `${publicBaseUrl}/card/${memberId}?t=${token}`;

/** The guest's card page link, as it is until revoked. */
export async function cardLink(db: Db, caller: Caller, memberId: string, secrets: SecretBox, publicBaseUrl: string): Promise<{ url: string }> {
  const member = await members.getMember(db, caller, memberId);
  const generation = (await repo.generations(db, caller.chainId, member.id))?.card_link_generation ?? 0;
  return { url: cardUrl(publicBaseUrl, member.id, cardToken(secrets, member.id, generation)[0]!) };
}

/**
 * A new card link: every link given before stops working; installed passes keep theirs. Recorded in the audit log;
 * give it a transaction, so the two go together.
 */
export async function renewCardLink(trx: Db, caller: Caller, memberId: string, secrets: SecretBox, publicBaseUrl: string): Promise<{ url: string }> {
  const member = await members.getMember(trx, caller, memberId);
  const generation = await repo.bumpGeneration(trx, caller.chainId, member.id, 'card_link_generation');
  if (generation === undefined) throw new ApiError('member_not_found');
  await audit.recordAudit(trx, audit.placeOf(caller), { action: 'member.card_link_renewed', target: { type: 'member', id: member.id }, changes: {} });
  return { url: cardUrl(publicBaseUrl, member.id, cardToken(secrets, member.id, generation)[0]!) };
}

/**
 * The card a link opens, read as its member's chain at their home venue, with the place it was read in; undefined
 * for a member that is not there or a `t` that is not theirs (the page says the same for both).
 */
export async function cardOfLink(db: Db, secrets: SecretBox, memberId: string, t: unknown, now: Date): Promise<{ face: CardFace; place: Caller } | undefined> {
  if (!isUuid(memberId) || typeof t !== 'string' || t.length > 200) return undefined;
  const member = await repo.memberOfPass(db, memberId);
  if (!member) return undefined;
  // Any key's token is good: a rotated key's links keep working.
  if (!isOneOf(t, cardToken(secrets, memberId, member.card_link_generation))) return undefined;
  const place = await memberPlace(db, member.chain_id, member.home_venue_id, now);
  return { face: await cardFace(db, place, memberId), place };
}

/**
 * What the wallet holds about a member, for their export: when their Apple pass was registered on each device (never
 * which device: with Apple's id for it anyone may list every pass on the device, another chain's members' too, since
 * Apple's serial list asks no credential; nor its push token) and since when their Google Wallet object was made.
 */
export async function walletOfMember(db: Db, chainId: string, memberId: string) {
  const records = await repo.walletRecords(db, chainId, memberId);
  return {
    apple_devices: records.devices.map((d) => ({ registered_at: formatTimestamp(d.created_at), renewed_at: formatTimestamp(d.updated_at) })),
    google_object_since: records.googleSince && formatTimestamp(records.googleSince),
  };
}

/**
 * Revokes the member's Apple pass: a new generation, so every pass installed so far (or downloaded through a card
 * link that went astray) has a token that no longer works, and no device stays registered. The guest gets a new
 * pass from the card page. Recorded in the audit log; give it a transaction.
 */
export async function revokePass(trx: Db, caller: Caller, memberId: string): Promise<{ object: 'pass_revocation'; member_id: string }> {
  const member = await members.getMember(trx, caller, memberId);
  if ((await repo.bumpGeneration(trx, caller.chainId, member.id, 'pass_generation')) === undefined) throw new ApiError('member_not_found');
  await repo.unregisterDevices(trx, caller.chainId, member.id);
  await audit.recordAudit(trx, audit.placeOf(caller), { action: 'member.pass_revoked', target: { type: 'member', id: member.id }, changes: {} });
  return { object: 'pass_revocation', member_id: member.id };
}

/** How many devices hold the member's Apple pass, and whether their Google object was made. */
export async function walletUse(db: Db, caller: Caller, memberId: string): Promise<{ apple_devices: number; google_saved: boolean }> {
  const member = await members.getMember(db, caller, memberId);
  const use = await repo.walletUse(db, caller.chainId, member.id);
  return { apple_devices: use.appleDevices, google_saved: use.googleSaved };
}

const KEEP_FAILED_DAYS = 30;

/** Wallet updates given up on more than 30 days ago: deleted (housekeeping), having been there to look at. */
export async function forgetFailedUpdates(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - KEEP_FAILED_DAYS * 86_400_000);
  while ((await updates.deleteFailed(db, before, 1000)) === 1000);
}

/** An erased member's devices and Google object: forgotten with what was owed them, so nothing reaches them again. */
export async function forgetDevices(db: Db, chainId: string, memberId: string): Promise<void> {
  await repo.forgetMember(db, chainId, memberId);
}
