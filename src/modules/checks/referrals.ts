// The referrer's side of a referral (D22): credited with the referee's first qualifying check, taken back by its void.
import type { Db } from '../../db/database.js';
import type { CheckCampaign } from '../../db/schema.js';
import type { PlaceCaller } from '../accounts/schemas.js';
import * as campaigns from '../campaigns/service.js';
import * as members from '../members/service.js';
import type { EventRequest } from '../webhooks/events.js';
import type { CampaignShare } from './calculation.js';

/** Where a referrer's credit goes: the check's venue, and the lot of the check's day. */
const placeOf = (caller: PlaceCaller, day: string, at: Date): members.CreditPlace => ({
  chainId: caller.chainId,
  venueId: caller.venueId,
  livemode: caller.livemode,
  timezone: caller.venue.timezone,
  now: at,
  day,
});

/**
 * Credits the referrer of every referral this check qualifies for (after the referee's side took its budget: the
 * referrer gets what is left), the referrer locked after the referee (a referrer enrolled first, so the order never
 * turns round). Returns the kept credits with what each referrer got.
 */
export async function creditReferrers(
  trx: Db,
  caller: PlaceCaller,
  kept: CheckCampaign[],
  shares: CampaignShare[],
  day: string,
  at: Date,
  request: EventRequest,
): Promise<CheckCampaign[]> {
  const out: CheckCampaign[] = [];
  for (const c of kept) {
    const referral = shares.find((s) => s.campaignId === c.campaign_id)?.terms.referral;
    if (!c.referral || !referral?.referrerAmount) {
      out.push(c);
      continue;
    }
    const wanted = { campaign_id: c.campaign_id, name: c.name, amount: referral.referrerAmount, reference: c.reference! };
    const where = placeOf(caller, day, at);
    const [given] = await members.creditCampaigns(trx, where, referral.referrerId, (unit) =>
      unit === 'amount' ? campaigns.takeForReferrer(trx, where, wanted, request) : Promise.resolve([]),
    request);
    out.push(given ? { ...c, referrer: { member_id: referral.referrerId, amount: given.amount } } : c);
  }
  return out;
}

/** Takes back what the referrals of a voided check credited their referrers, and gives it back to the budgets. */
export async function takeBackReferrers(trx: Db, caller: PlaceCaller, kept: CheckCampaign[], day: string, at: Date): Promise<void> {
  for (const c of kept) {
    if (!c.referrer?.amount) continue;
    const back = { campaign_id: c.campaign_id, name: c.name, amount: -c.referrer.amount, reference: c.reference! };
    const [taken] = await members.creditCampaigns(trx, placeOf(caller, day, at), c.referrer.member_id, async (unit) => (unit === 'amount' ? [back] : []), null);
    // Only what was taken back goes back to the budget: an erased referrer's credit stays spent.
    if (taken) await campaigns.giveBack(trx, caller.chainId, [{ campaign_id: c.campaign_id, amount: -taken.amount }], at);
  }
}
