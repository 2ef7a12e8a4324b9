// The overview's figures: the venue's checks today and this month (venue days), a 30-day series, the chain's members and
// outstanding cashback (D21), live apart from test; and the same checks per venue of the chain, each on its own days.
import type { Db } from '../db/database.js';
import { addDays, venueDay } from '../shared/time.js';
import * as accounts from '../modules/accounts/service.js';
import * as reportRepo from './report-repo.js';

export const CHART_DAYS = 30;

export interface Figures {
  checks: number;
  sales: number;
  earned: number;
  redeemed: number;
  members_enrolled: number;
}
const zero = (): Figures => ({ checks: 0, sales: 0, earned: 0, redeemed: 0, members_enrolled: 0 });
type ByMode<T> = { live: T; test: T };

/** `mayOpen`: the venues the user may see in the chain's breakdown (a limited manager or staff: theirs only). */
export async function overview(db: Db, venue: accounts.Venue, now: Date, mayOpen: (venueId: string) => boolean) {
  const today = venueDay(now, venue.timezone);
  const monthStart = `${today.slice(0, 8)}01`;
  const chartStart = addDays(today, -(CHART_DAYS - 1));
  const from = monthStart < chartStart ? monthStart : chartStart;
  const [checks, enrolments, balances, breakdown] = await Promise.all([
    reportRepo.checksByDay(db, accounts.placeOf(venue), from, today),
    reportRepo.enrolmentsByDay(db, venue.chainId, venue.timezone, from),
    reportRepo.balances(db, venue.chainId),
    venueBreakdown(db, venue.chainId, now, mayOpen),
  ]);

  const days = new Map<string, ByMode<Figures>>();
  for (let d = from; d <= today; d = addDays(d, 1)) days.set(d, { live: zero(), test: zero() });
  for (const r of checks) {
    const f = days.get(r.day)?.[r.livemode ? 'live' : 'test'];
    if (f) Object.assign(f, { checks: r.checks, sales: r.sales, earned: r.earned, redeemed: r.redeemed });
  }
  for (const r of enrolments) {
    const f = days.get(r.day)?.[r.livemode ? 'live' : 'test'];
    if (f) f.members_enrolled = r.members;
  }
  const sum = (fromDay: string): ByMode<Figures> => {
    const total = { live: zero(), test: zero() };
    for (const [day, figures] of days) {
      if (day < fromDay) continue;
      for (const mode of ['live', 'test'] as const) {
        for (const k of Object.keys(total[mode]) as (keyof Figures)[]) total[mode][k] += figures[mode][k];
      }
    }
    return total;
  };
  const balance = (livemode: boolean) => {
    const b = balances.find((r) => r.livemode === livemode);
    return { members: b?.members ?? 0, members_with_balance: b?.withBalance ?? 0, liability: b?.liability ?? 0 };
  };
  return {
    object: 'overview' as const,
    currency: venue.currency,
    venue_id: venue.id,
    today,
    month_start: monthStart,
    today_figures: sum(today),
    month_figures: sum(monthStart),
    balances: { live: balance(true), test: balance(false) },
    days: [...days]
      .filter(([day]) => day >= chartStart)
      .map(([day, f]) => ({
        day,
        live: { checks: f.live.checks, earned: f.live.earned, redeemed: f.live.redeemed },
        test: { checks: f.test.checks, earned: f.test.earned, redeemed: f.test.redeemed },
      })),
    ...breakdown,
  };
}

type VenueFigures = Pick<Figures, 'checks' | 'sales' | 'earned' | 'redeemed'>;
const zeroVenue = (): VenueFigures => ({ checks: 0, sales: 0, earned: 0, redeemed: 0 });
const periods = () => ({ today: { live: zeroVenue(), test: zeroVenue() }, month: { live: zeroVenue(), test: zeroVenue() } });
type Periods = ReturnType<typeof periods>;

function addInto(into: Periods, add: Periods): void {
  for (const period of ['today', 'month'] as const) {
    for (const mode of ['live', 'test'] as const) {
      for (const k of Object.keys(into[period][mode]) as (keyof VenueFigures)[]) into[period][mode][k] += add[period][mode][k];
    }
  }
}

/**
 * Every venue of the chain the user may open with its checks, sales and cashback today and this month, and their
 * totals. Each venue counts on its own days (its time zone), as its checks were stamped: "today" in Dublin and in
 * Auckland are different days.
 */
export async function venueBreakdown(db: Db, chainId: string, now: Date, mayOpen: (venueId: string) => boolean) {
  const venues = ((await accounts.findChain(db, chainId))?.venues ?? []).filter((v) => mayOpen(v.id));
  const days = venues.map((v) => {
    const today = venueDay(now, v.timezone);
    return { venue: v, today, monthStart: `${today.slice(0, 8)}01` };
  });
  const fromDay = days.reduce((min, d) => (d.monthStart < min ? d.monthStart : min), '9999-12-31');
  const toDay = days.reduce((max, d) => (d.today > max ? d.today : max), '0000-01-01');
  const rows = days.length ? await reportRepo.checksByVenueDay(db, chainId, fromDay, toDay) : [];
  const totals = periods();
  const perVenue = days.map(({ venue, today, monthStart }) => {
    const figures = periods();
    for (const r of rows) {
      if (r.venueId !== venue.id || r.day < monthStart || r.day > today) continue;
      const mode = r.livemode ? 'live' : 'test';
      for (const period of r.day === today ? (['today', 'month'] as const) : (['month'] as const)) {
        const f = figures[period][mode];
        f.checks += r.checks;
        f.sales += r.sales;
        f.earned += r.earned;
        f.redeemed += r.redeemed;
      }
    }
    addInto(totals, figures);
    return { venue_id: venue.id, name: venue.name, slug: venue.slug, timezone: venue.timezone, today, month_start: monthStart, figures };
  });
  return { venues: perVenue, chain_totals: totals };
}
