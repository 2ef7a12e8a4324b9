// A member's activity (D27): one row per check — its void and refunds in it, its refunds listed under it — and one per
// other ledger entry, newest first. A view over the ledger, which stays the truth: the rows' cashback sums to the
// balance. GET /v1/members/{id}/history keeps serving the entries one by one.
import type { Db } from '../../db/database.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import * as repo from './activity-repo.js';
import type { MemberActivity } from './schemas.js';
import { requireMember } from './service.js';

export async function memberActivity(db: Db, caller: Caller, id: string, page: Page, url = `/v1/members/${id}/activity`): Promise<List<MemberActivity>> {
  await requireMember(db, caller, id);
  await checkCursor(page, (cursor) => repo.activityRowExists(db, caller.chainId, id, cursor));
  return toList(url, page, await repo.listActivity(db, caller.chainId, id, page), present);
}

function present(row: repo.ActivityRow): MemberActivity {
  return {
    object: 'member_activity',
    id: row.id,
    type: row.type,
    venue_id: row.venue_id,
    at: formatTimestamp(row.at),
    reference: row.reference,
    status: row.status,
    cashback: Number(row.cashback),
    spend: Number(row.spend),
    visits: Number(row.visits),
    stamps: Number(row.stamps),
    earned: Number(row.earned),
    redeemed: Number(row.redeemed),
    campaign_cashback: Number(row.campaign_cashback),
    campaign_stamps: Number(row.campaign_stamps),
    refunds: (row.refunds ?? []).map((r) => ({
      id: r.id,
      external_id: r.external_id,
      amount: Number(r.amount),
      earned_reversed: Number(r.earned_reversed),
      redeemed_returned: Number(r.redeemed_returned),
      created_at: formatTimestamp(r.created_at),
    })),
    reason: row.reason,
    campaign_id: row.campaign_id,
    livemode: row.livemode,
  };
}
