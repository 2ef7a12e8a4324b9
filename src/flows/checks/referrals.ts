// The referrer's side of a referral (D22): credited with the referee's first qualifying check, taken back by its void.
import type { Db } from '../../db/database.js';
import type { CheckCampaign } from '../../db/schema.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import * as campaigns from '../../modules/campaigns/service.js';
import * as members from '../../modules/members/service.js';
import * as tillMembers from '../../modules/members/till.js';
import type { EventRequest } from '../../modules/webhooks/events.js';
import type { CampaignShare } from '../../modules/checks/calculation.js';

/** Where a referrer's credit goes: the check's venue, and the lot of its today (the referrer is rewarded now). */
const placeOf = (caller: PlaceCaller, at: Date): members.CreditPlace => ({
  chainId: caller.chainId,
  venueId: caller.venueId,
  livemode: caller.livemode,
  timezone: caller.venue.timezone,
  now: at,
});

/**
 * Locks the referrers a check's referral credits or takes back from, before any campaign row: members first, then
 * campaigns, as every credit locks them (a referrer's own check at the same moment locks them in that order too).
 */
export async function lockReferrers(trx: Db, caller: PlaceCaller, referrerIds: string[]): Promise<void> {
  for (const id of [...new Set(referrerIds)].sort()) await tillMembers.memberNamed(trx, caller, { member_id: id }, { lock: true });
}

/** The referrers a check's referrals credit. */
export const referrersOf = (shares: CampaignShare[]): string[] =>
  shares.flatMap((s) => (s.terms.referral?.referrerAmount ? [s.terms.referral.referrerId] : []));

/** The referrers a check's kept referrals credited. */
export const creditedReferrersOf = (kept: CheckCampaign[]): string[] => kept.flatMap((c) => (c.referrer?.amount ? [c.referrer.member_id] : []));

/**
 * Credits the referrer of every referral this check qualifies for (after the referee's side took its budget: the
 * referrer gets what is left; lockReferrers locked them first). Returns the kept credits with what each referrer got;
 * a referral that gave neither side anything is not kept.
 */
export async function creditReferrers(trx: Db, caller: PlaceCaller, kept: CheckCampaign[], shares: CampaignShare[], at: Date, request: EventRequest): Promise<CheckCampaign[]> {
  const out: CheckCampaign[] = [];
  for (const c of kept) {
    const share = shares.find((s) => s.campaignId === c.campaign_id);
    const referral = share?.terms.referral;
    if (!c.referral || !referral?.referrerAmount || (await campaigns.referrerAtCap(trx, caller.chainId, c.campaign_id, referral.referrerId, referral.referrerCap))) {
      if (c.amount > 0) out.push(c);
      continue;
    }
    const wanted = { campaign_id: c.campaign_id, name: c.name, amount: referral.referrerAmount, reference: c.reference! };
    const where = placeOf(caller, at);
    const [given] = await members.creditCampaigns(trx, where, referral.referrerId, (unit) =>
      unit === 'amount' ? campaigns.takeForReferrer(trx, where, wanted, share!.terms.room !== null, request) : Promise.resolve([]),
    request);
    if (given) out.push({ ...c, referrer: { member_id: referral.referrerId, amount: given.amount } });
    else if (c.amount > 0) out.push(c);
  }
  return out;
}

/** Takes back what the referrals of a voided check credited their referrers, and gives it back to the budgets. */
export async function takeBackReferrers(trx: Db, caller: PlaceCaller, kept: CheckCampaign[], at: Date): Promise<void> {
  for (const c of kept) {
    if (!c.referrer?.amount) continue;
    const back = { campaign_id: c.campaign_id, name: c.name, amount: -c.referrer.amount, reference: c.reference! };
    const [taken] = await members.creditCampaigns(trx, placeOf(caller, at), c.referrer.member_id, async (unit) => (unit === 'amount' ? [back] : []), null);
    // Only what was taken back goes back to the budget: an erased referrer's credit stays spent.
    if (taken) await campaigns.giveBack(trx, caller.chainId, [{ campaign_id: c.campaign_id, amount: -taken.amount }], at);
  }
}
