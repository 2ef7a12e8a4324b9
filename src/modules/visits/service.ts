// Visits (stamps and visit counts for non-cashback programs) and scans (remembered per key for scan_required).
import type { Db } from '../../db/database.js';
import { writeTogether, type Read, type ValueOrRef } from '../../db/statement.js';
import type { Clock } from '../../shared/clock.js';
import { ApiError, whereRuleIsSet } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller, PlaceCaller } from '../accounts/schemas.js';
import * as members from '../members/service.js';
import * as tillMembers from '../members/till.js';
import { owedStampsPaidBack } from '../members/view.js';
import { recordEvent, type EventRequest } from '../webhooks/events.js';
import * as repo from './repo.js';
import type { Scan, Visit, VisitBody } from './schemas.js';

/** A visit with the member as they are now; `fresh`: just recorded (a replay says nothing of stamps owed since). */
async function presentVisit(
  db: Db,
  caller: PlaceCaller,
  entry: { id: string; member_id: string; stamps: number; reference: string | null; livemode: boolean; created_at: Date },
  fresh: boolean,
): Promise<Visit> {
  const member = await members.memberById(db, caller, entry.member_id);
  const owed = fresh && member.stamps ? owedStampsPaidBack(member.stamps, entry.stamps) : '';
  return {
    object: 'visit',
    id: entry.id,
    // Found by the venue's own external_id or just recorded there: always the caller's venue.
    venue_id: caller.venueId,
    external_id: entry.reference,
    member_id: entry.member_id,
    stamps_earned: entry.stamps,
    member,
    livemode: entry.livemode,
    created_at: formatTimestamp(entry.created_at),
    display: { cashier: member.display.cashier, receipt: [`Visit recorded${entry.stamps ? `: +${entry.stamps} stamp${entry.stamps > 1 ? 's' : ''}${owed}` : ''}`, ...member.display.receipt] },
  };
}

/**
 * A visit for stamps, visit discounts and VIP. With external_id, sending it again for the same member replays it
 * (whatever the rules say now); the same external_id for another member is 409 external_id_reused.
 */
export async function recordVisit(
  trx: Db,
  caller: PlaceCaller,
  body: VisitBody,
  clock: Clock,
  request: EventRequest,
): Promise<{ visit: Visit; replayed: boolean }> {
  if (body.external_id) {
    await repo.lockVisitExternalId(trx, caller.venueId, body.external_id);
    const existing = await repo.findVisitEntry(trx, caller, body.external_id);
    if (existing) {
      // A body naming no member, or one that does not exist, is another visit as much as another member is.
      const named = await tillMembers.findMemberForCheck(trx, caller, body).catch((err: unknown) => {
        if (err instanceof ApiError) return null;
        throw err;
      });
      if (named?.record.id !== existing.member_id) throw new ApiError('external_id_reused', { param: 'external_id' });
      return { visit: await presentVisit(trx, caller, existing, false), replayed: true };
    }
  }
  const member = await tillMembers.lockMemberForCheck(trx, caller, body, clock);
  if (!member) throw new ApiError('parameter_invalid', { message: 'Name the member by one of member_id, card_number or barcode.' });
  const rules = member.program.rules;
  if (rules.type === 'cashback') throw new ApiError('visit_not_supported');
  const stamps = rules.type === 'stamps' ? rules.stampsPerVisit : 0;
  const [entry] = await members.appendLedger(
    trx,
    caller,
    [{ memberId: member.record.id, kind: 'visit', visits: 1, stamps, reference: body.external_id ?? null }],
    caller.now,
  );
  const visit = await presentVisit(trx, caller, entry!, true);
  await recordEvent(trx, { chainId: caller.chainId, venueId: caller.venueId, type: 'transaction.completed', livemode: caller.livemode, object: visit, request });
  return { visit, replayed: false };
}

/**
 * Resolves what a scanner read (a card number or a serial) and remembers that this key scanned the card: one
 * statement, which records the scan only when a member was found.
 */
export async function scan(db: Db, caller: PlaceCaller, code: string): Promise<Scan> {
  const id = newId();
  const [row] = await writeTogether<Parameters<typeof tillMembers.presentNamed>[2]>(
    db,
    [await tillMembers.memberByCodeStep(db, caller, code), repo.scanOfNamedStep(db, { chain_id: caller.chainId, venue_id: caller.venueId, id, key_id: caller.keyId, created_at: caller.now })],
    'named_member',
  );
  const member = await tillMembers.presentNamed(db, caller, row);
  return { object: 'scan', id, member, created_at: formatTimestamp(caller.now), display: member.display };
}

/** The member's scans (which key scanned their card, when), newest first: their export. */
export async function listMemberScans(db: Db, caller: Caller, memberId: string, page: Page): Promise<List<{ id: string; venue_id: string; key_id: string; created_at: string }>> {
  const rows = await repo.listScans(db, caller, memberId, page);
  return toList('/v1/scans', page, rows, (r) => ({ id: r.id, venue_id: r.venue_id, key_id: r.key_id, created_at: formatTimestamp(r.created_at) }));
}

/** card_scan_required: whether the calling key scanned this member's card within the window, as a read of a gather. */
export function recentScanRead(db: Db, caller: PlaceCaller, memberId: ValueOrRef<string>, windowSeconds: number): Read<boolean> {
  return repo.scannedSince(db, caller, caller.keyId, memberId, new Date(caller.now.getTime() - windowSeconds * 1000));
}

/** 403 scan_required unless the gather found a recent scan. */
export function requireRecentScan(scanned: boolean, windowSeconds: number): void {
  if (!scanned) {
    throw new ApiError('scan_required', {
      message: `This venue accepts this only for a card this register scanned in the last ${windowSeconds} s: scan the card first (POST /v1/scans). ${whereRuleIsSet('cardScanRequired')}`,
    });
  }
}
