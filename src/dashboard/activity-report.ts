// The Reports page (issue 41, D27): a period's enrolments, checks, visits by members, sales, cashback earned, given by
// campaigns and redeemed, and what members hold at the end of each day; members active in the 30 and 90 days to its
// end; each venue's share and each campaign's credits. Checks count on their stored venue day, money on the ledger's
// time (the day in the report's time zone), one mode at a time: live and test are never added together.
import type { Db } from '../db/database.js';
import { ApiError } from '../shared/errors.js';
import { addDays, isCalendarDay, startOfVenueDay } from '../shared/time.js';
import * as accounts from '../modules/accounts/service.js';
import { COLUMN_OF_KIND } from '../modules/reports/service.js';
import * as reportRepo from './report-repo.js';

/** The longest period one report covers: a year, leap day included. */
export const MAX_REPORT_DAYS = 366;

const zeroDay = () => ({ enrolments: 0, checks: 0, member_checks: 0, sales: 0, earned: 0, campaign: 0, redeemed: 0 });
type DayFigures = ReturnType<typeof zeroDay>;

/** The days asked for, both included; refused unless real days, in order, and at most a year. */
export function reportDays(query: { from: string; to: string }): { from: string; to: string; days: string[] } {
  for (const param of ['from', 'to'] as const) {
    if (!isCalendarDay(query[param])) throw new ApiError('parameter_invalid', { param, message: `${param} must be a date that exists, YYYY-MM-DD.` });
  }
  if (query.to < query.from) throw new ApiError('parameter_invalid', { param: 'to', message: 'to must be from or a later day (both are included).' });
  const days: string[] = [];
  for (let d = query.from; d <= query.to; d = addDays(d, 1)) {
    if (days.length === MAX_REPORT_DAYS) throw new ApiError('parameter_invalid', { param: 'from', message: `A report covers at most ${MAX_REPORT_DAYS} days.` });
    days.push(d);
  }
  return { from: query.from, to: query.to, days };
}

export async function activityReport(db: Db, venue: accounts.Venue, query: { from: string; to: string; livemode: boolean }, now: Date) {
  const { from, to, days } = reportDays(query);
  const { livemode } = query;
  const timezone = venue.timezone;
  const period = { from: startOfVenueDay(from, timezone), to: startOfVenueDay(addDays(to, 1), timezone) };
  const [chain, checks, enrolments, money, held, active, campaigns] = await Promise.all([
    accounts.findChain(db, venue.chainId),
    reportRepo.checksByVenueDay(db, venue.chainId, from, to),
    reportRepo.enrolmentsByDay(db, venue.chainId, timezone, from),
    reportRepo.cashbackByDay(db, venue.chainId, livemode, period, timezone),
    reportRepo.outstandingSince(db, venue.chainId, livemode, period.from),
    reportRepo.activeMembers(db, venue.chainId, livemode, to, addDays(to, -29), addDays(to, -89)),
    reportRepo.campaignCredits(db, venue.chainId, livemode, period),
  ]);
  const byDay = new Map(days.map((d) => [d, zeroDay()]));
  const venues = new Map((chain?.venues ?? []).map((v) => [v.id, { venue_id: v.id, name: v.name, ...zeroDay() }]));
  const add = (into: DayFigures | undefined, figures: Partial<DayFigures>) => {
    if (into) for (const [k, v] of Object.entries(figures) as [keyof DayFigures, number][]) into[k] += v;
  };
  for (const r of checks) {
    if (r.livemode !== livemode) continue;
    const figures = { checks: r.checks, member_checks: r.memberChecks, sales: r.sales };
    add(byDay.get(r.day), figures);
    add(venues.get(r.venueId), figures);
  }
  for (const r of enrolments) if (r.livemode === livemode) add(byDay.get(r.day), { enrolments: r.members });
  // Each ledger kind in its liability column (one table for both reports); redemptions shown positive.
  let net = 0;
  const netByDay = new Map<string, number>();
  for (const r of money) {
    const column = Object.hasOwn(COLUMN_OF_KIND, r.kind) ? COLUMN_OF_KIND[r.kind] : undefined;
    if (column === undefined) throw new Error(`activity report: ledger entries of kind '${r.kind}' move cashback, and COLUMN_OF_KIND has no column for them`);
    netByDay.set(r.day, (netByDay.get(r.day) ?? 0) + r.cashback);
    net += r.cashback;
    if (column !== 'earned' && column !== 'campaign' && column !== 'redeemed') continue;
    const figure = { [column]: column === 'redeemed' ? -r.cashback : r.cashback };
    add(byDay.get(r.day), figure);
    if (r.venueId) add(venues.get(r.venueId), figure);
  }
  // What members held at the start of the period, then at the end of each day.
  let outstanding = held.now - held.since;
  const series = days.map((day) => {
    outstanding += netByDay.get(day) ?? 0;
    return { day, ...byDay.get(day)!, outstanding };
  });
  const totals = zeroDay();
  for (const d of byDay.values()) add(totals, d);
  const given = totals.earned + totals.campaign;
  return {
    object: 'activity_report' as const,
    currency: chain?.currency ?? venue.currency,
    livemode,
    timezone,
    from,
    to,
    // A period still running ends now: its last day's outstanding is what members hold now.
    complete: period.to.getTime() <= now.getTime(),
    days: series,
    totals: {
      ...totals,
      outstanding_start: held.now - held.since,
      outstanding_end: outstanding,
      net,
      redemption_rate: given > 0 ? Math.round((10_000 * totals.redeemed) / given) / 10_000 : null,
      active_30: active.active30,
      active_90: active.active90,
    },
    venues: [...venues.values()],
    campaigns,
  };
}
