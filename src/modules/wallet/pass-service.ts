// The Apple pass web service's rules (D23), as Apple's devices call it: a device registers for a pass it holds with
// the pass's token, asks which of its passes changed, and fetches the latest. A wrong token, serial or pass type is
// 401 pass_unauthorized, never saying which.
import type { Db } from '../../db/database.js';
import { ApiError, parameterInvalid } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { isOneOf } from '../../shared/tokens.js';
import { applePass, requireAppleWallet, type PassDeps } from './apple-pass.js';
import { memberPlace } from './card.js';
import * as repo from './repo.js';

/** The pass a request may act on, once its token was checked. */
export interface HeldPass {
  chainId: string;
  memberId: string;
  homeVenueId: string | null;
}

const unauthorized = () => new ApiError('pass_unauthorized');
const TAG_LAG_MS = 5_000;
/** Devices one pass may be registered on: a pass copied around cannot make a change push to any number of them. */
export const MAX_DEVICES_PER_PASS = 10;

/** The pass `serial` of `passTypeId`, if `authorization` is `ApplePass <its token>`; 401 otherwise, whatever was wrong. */
export async function heldPass(db: Db, deps: PassDeps, passTypeId: string, serial: string, authorization: string | undefined): Promise<HeldPass> {
  if (passTypeId !== deps.settings.passTypeId || !isUuid(serial)) throw unauthorized();
  const member = await repo.memberOfPass(db, serial);
  const given = /^ApplePass (\S+)$/.exec(authorization ?? '')?.[1];
  if (!member || !given) throw unauthorized();
  // Any key's token is good: a rotated key's passes keep working.
  if (!isOneOf(given, deps.secrets.macs('apple-pass-token', `${serial}\0${member.pass_generation}`))) throw unauthorized();
  return { chainId: member.chain_id, memberId: serial, homeVenueId: member.home_venue_id };
}

/** What Apple's devices send as a device id and a push token; anything else is refused before it is stored. */
export function checkDevice(deviceId: string, pushToken?: unknown): void {
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(deviceId)) throw parameterInvalid('deviceLibraryIdentifier', 'deviceLibraryIdentifier must be 1 to 128 letters, digits, dots, dashes or underscores.');
  if (pushToken !== undefined && (typeof pushToken !== 'string' || !/^[A-Za-z0-9._-]{1,256}$/.test(pushToken))) {
    throw parameterInvalid('pushToken', 'pushToken must be 1 to 256 letters, digits, dots, dashes or underscores.');
  }
}

/** Registers the device for the pass (or renews its push token): true when it is new. */
export async function registerDevice(db: Db, held: HeldPass, deviceId: string, pushToken: unknown): Promise<boolean> {
  checkDevice(deviceId, pushToken);
  if (typeof pushToken !== 'string') throw parameterInvalid('pushToken', 'pushToken is required.');
  const written = await repo.register(db, { chain_id: held.chainId, member_id: held.memberId, device_library_id: deviceId, push_token: pushToken });
  // The oldest registrations past the limit go (a guest's old phones), so the newest device always registers.
  await repo.keepNewestDevices(db, held.chainId, held.memberId, MAX_DEVICES_PER_PASS);
  return written;
}

export async function unregisterDevice(db: Db, held: HeldPass, deviceId: string): Promise<void> {
  checkDevice(deviceId);
  await repo.unregister(db, held.chainId, held.memberId, deviceId);
}

/**
 * The serials of the device's passes of this type changed after `since` (the `lastUpdated` tag the device was given,
 * milliseconds), with the new tag; null when none did (204).
 */
export async function updatedSerials(db: Db, deps: PassDeps, deviceId: string, passTypeId: string, since: string | undefined): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
  checkDevice(deviceId);
  if (passTypeId !== deps.settings.passTypeId) return null;
  const after = since !== undefined && /^\d{1,15}$/.test(since) ? Number(since) : -1;
  const held = await repo.devicePasses(db, deviceId);
  const passes = held.passes.filter((p) => p.changed_at.getTime() > after);
  if (!passes.length) return null;
  // A change stamped just before another but committed after it could fall behind the tag: the tag stays a few
  // seconds back, so such a pass is listed again (a fetch answered 304 at worst), never missed.
  const latest = Math.min(Math.max(...passes.map((p) => p.changed_at.getTime())), held.now.getTime() - TAG_LAG_MS);
  return { serialNumbers: passes.map((p) => p.member_id).sort(), lastUpdated: String(latest) };
}

/**
 * The pass as it is now, with when it last changed; `unchanged` when that is before `ifModifiedSince` (whole
 * seconds, as HTTP dates are). `Last-Modified` is the whole second after the change, but never later than the
 * current whole second: a pass fetched in the second it changed says that second, so a change later in the same
 * second is not answered 304; a device that sends back a later second gets 304 until the next change.
 */
export async function currentPass(db: Db, deps: PassDeps, held: HeldPass, ifModifiedSince: Date | undefined, appNow: Date): Promise<{ unchanged: true } | { unchanged: false; pass: Buffer; lastModified: Date }> {
  requireAppleWallet(deps.settings);
  const { changedAt, now } = await repo.passChangedAt(db, held.chainId, held.memberId);
  if (ifModifiedSince && changedAt.getTime() < ifModifiedSince.getTime()) return { unchanged: true };
  const pass = await applePass(db, await memberPlace(db, held.chainId, held.homeVenueId, appNow), held.memberId, deps);
  const second = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;
  return { unchanged: false, pass, lastModified: new Date(Math.min(second(changedAt) + 1000, second(now))) };
}
