// The venue liability report (D21): how a franchise settles who owes whom. Per venue of the chain, what its checks,
// adjustments and imports gave members, what they spent there and what expired of what was earned there, in a
// period; plus one row of what belongs to no venue. Computed from the ledger alone (the truth, D19), so the rows
// add up to the change in the chain's outstanding cashback over the period, held cashback included.
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import * as repo from './repo.js';
import type { VenueLiability, VenueLiabilityList } from './schemas.js';

type Column = 'earned' | 'campaign' | 'redeemed' | 'expired' | 'adjusted' | 'imported';

/**
 * The report column each ledger kind's cashback counts in: every kind there is, each in exactly one column (null:
 * the kind never moves cashback — its entries carry spend, visits or stamps only). Where an entry counts is its own
 * `venue_id`: a check's entries and their voids and refunds at the check's venue, an adjustment at the venue of the
 * key that made it (a chain key's: the venue it named, else none), an import at the venue it was sent at (else none),
 * an expiry at the venue where the expired cashback was earned (members/expiry-service.ts writes one entry per venue;
 * the lot of cashback imported at no venue expires at none).
 *
 * | kind                  | cashback  | column   |
 * |-----------------------|-----------|----------|
 * | `earn`                | +         | earned   |
 * | `earn_reversal`       | −         | earned   (a void or refund takes an earning back: earned is net of it)
 * | `redemption`          | −         | redeemed (shown positive)
 * | `redemption_reversal` | +         | redeemed (a void or refund gives a redemption back: redeemed is net of it)
 * | `expiry`              | −         | expired  (shown positive)
 * | `adjustment`          | ±         | adjusted
 * | `import`              | +         | imported
 * | `campaign`            | + (or −, a credit taken back) | campaign
 * | `check`, `void`, `refund`, `visit`, `reward_redemption` | 0 | none
 *
 * A kind missing from this table that moves cashback makes the report fail loudly (500) rather than leave money out of the sum.
 */
export const COLUMN_OF_KIND: Readonly<Record<string, Column | null>> = {
  earn: 'earned',
  earn_reversal: 'earned',
  redemption: 'redeemed',
  redemption_reversal: 'redeemed',
  expiry: 'expired',
  adjustment: 'adjusted',
  import: 'imported',
  campaign: 'campaign',
  check: null,
  void: null,
  refund: null,
  visit: null,
  reward_redemption: null,
};

/** Columns shown as positive figures of cashback going out: their ledger sums are negated. */
const OUTGOING: ReadonlySet<Column> = new Set(['redeemed', 'expired']);

const emptyRow = (venueId: string | null): VenueLiability => ({
  venue_id: venueId,
  earned: 0,
  campaign: 0,
  redeemed: 0,
  expired: 0,
  adjusted: 0,
  imported: 0,
  net: 0,
});

/** The period of the API's query, refused unless both ends are date-times and `from` comes before `to`. */
export function periodOf(query: { from: string; to: string }): { from: Date; to: Date } {
  const period = { from: new Date(query.from), to: new Date(query.to) };
  checkPeriod(period);
  return period;
}

function checkPeriod(period: { from: Date; to: Date }): void {
  for (const param of ['from', 'to'] as const) {
    if (Number.isNaN(period[param].getTime())) throw new ApiError('parameter_invalid', { param, message: `${param} must be a date-time.` });
  }
  if (period.from.getTime() >= period.to.getTime()) {
    throw new ApiError('parameter_invalid', { param: 'to', message: 'to must be later than from (the period is from ≤ t < to).' });
  }
}

/**
 * The chain's venue liability over `period` (from included, to not): one row per venue of the chain, oldest first,
 * zeros where nothing happened, then the row of no venue (`venue_id: null`). Minor units; `redeemed` and `expired`
 * positive; `net = earned + campaign + adjusted + imported − redeemed − expired`, and Σ net over the rows equals
 * Σ member balances at `to` − Σ at `from`. `livemode` keeps live or test entries only.
 */
export async function venueLiability(
  db: Db,
  chainId: string,
  period: { from: Date; to: Date },
  filter: { livemode?: boolean } = {},
): Promise<VenueLiabilityList> {
  checkPeriod(period);
  const [venueIds, sums] = await Promise.all([repo.venueIdsOfChain(db, chainId), repo.cashbackByVenueAndKind(db, chainId, period, filter.livemode)]);
  const rows = new Map<string | null, VenueLiability>([...venueIds.map((id) => [id, emptyRow(id)] as const), [null, emptyRow(null)]]);
  for (const { venue_id, kind, cashback } of sums) {
    const column = Object.hasOwn(COLUMN_OF_KIND, kind) ? COLUMN_OF_KIND[kind] : undefined;
    if (!column) throw new Error(`venue liability: ledger entries of kind '${kind}' move cashback, and COLUMN_OF_KIND has no column for them`);
    // A venue no longer of the chain cannot happen (the ledger's venue is a foreign key within the chain); kept whole anyway.
    const row = rows.get(venue_id) ?? rows.set(venue_id, emptyRow(venue_id)).get(venue_id)!;
    row[column] += OUTGOING.has(column) ? -cashback : cashback;
    row.net += cashback;
  }
  // The row of no venue last, after any venue.
  const noVenue = rows.get(null)!;
  rows.delete(null);
  return { object: 'list', url: '/v1/reports/venue_liability', has_more: false, data: [...rows.values(), noVenue] };
}
