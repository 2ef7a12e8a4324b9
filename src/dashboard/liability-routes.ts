// The liability page (D21): per venue of the chain, the cashback its members were given and spent in a period, plus what
// belongs to no venue, from the reports module; as JSON for the page and as CSV for the franchise's settlement.
import { Type } from 'typebox';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { ApiError } from '../shared/errors.js';
import { formatTimestamp, isCalendarDay } from '../shared/time.js';
import * as accounts from '../modules/accounts/service.js';
import * as reports from '../modules/reports/service.js';
import { csvLines, decimal } from '../shared/csv.js';
import { sessionOf } from './request.js';
import { LiabilityQuery, VenueLiability } from './schemas.js';

const FIGURES = ['earned', 'campaign', 'redeemed', 'expired', 'adjusted', 'imported', 'net'] as const;
type Figures = Record<(typeof FIGURES)[number], number>;
const zero = (): Figures => ({ earned: 0, campaign: 0, redeemed: 0, expired: 0, adjusted: 0, imported: 0, net: 0 });

/** The first of the month `monthsAhead` months after `now`'s UTC month, 'YYYY-MM-DD'. */
const monthStart = (now: Date, monthsAhead: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, 1)).toISOString().slice(0, 10);

/** The period the page asked for: UTC days, `from` included and `to` not (half-open); this month when not given. */
export function periodOf(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const from = query.from ?? monthStart(now, 0);
  const to = query.to ?? monthStart(now, 1);
  for (const [param, day] of [['from', from], ['to', to]] as const) {
    if (!isCalendarDay(day)) throw new ApiError('parameter_invalid', { param, message: `${param} must be a date that exists, YYYY-MM-DD.` });
  }
  if (to <= from) throw new ApiError('parameter_invalid', { param: 'to', message: 'to must be a later day than from (the period ends at the start of to).' });
  return { from: new Date(`${from}T00:00:00Z`), to: new Date(`${to}T00:00:00Z`) };
}

/** The report's rows with the venues' names: every venue of the chain (zeros where nothing happened), oldest first, then no venue. */
export async function liability(db: App['deps']['db'], venue: accounts.Venue, period: { from: Date; to: Date }, livemode: boolean) {
  // Live and test money are never added together on the dashboard: the page shows one or the other.
  const [chain, report] = await Promise.all([accounts.findChain(db, venue.chainId), reports.venueLiability(db, venue.chainId, period, { livemode })]);
  const byVenue = new Map(report.data.map((r) => [r.venue_id, r]));
  const figuresOf = (id: string | null): Figures => {
    const r = byVenue.get(id);
    return r ? (Object.fromEntries(FIGURES.map((k) => [k, r[k]])) as Figures) : zero();
  };
  const venues = chain?.venues ?? [];
  const known = new Set<string | null>([...venues.map((v) => v.id), null]);
  const data = [
    ...venues.map((v) => ({ venue_id: v.id as string | null, venue_name: v.name as string | null, ...figuresOf(v.id) })),
    // A venue the chain no longer lists (it cannot leave today, but the sum must still add up).
    ...report.data.filter((r) => !known.has(r.venue_id)).map((r) => ({ venue_id: r.venue_id, venue_name: r.venue_id, ...figuresOf(r.venue_id) })),
    { venue_id: null, venue_name: null, ...figuresOf(null) },
  ];
  const totals = zero();
  for (const row of data) for (const k of FIGURES) totals[k] += row[k];
  return {
    object: 'venue_liability' as const,
    currency: chain?.currency ?? venue.currency,
    livemode,
    from: formatTimestamp(period.from),
    to: formatTimestamp(period.to),
    data,
    totals,
  };
}

export const NO_VENUE = 'No venue (for the chain)';

export async function dashboardLiabilityRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;

  app.get(
    '/reports/venue-liability',
    {
      schema: {
        tags,
        summary: 'Cashback given and spent per venue of the chain in a period of UTC days (from included, to not)',
        querystring: LiabilityQuery,
        response: withErrors({ 200: VenueLiability }),
      },
    },
    async (req) => liability(db, sessionOf(req).venue, periodOf(req.query, clock.now()), req.query.livemode ?? true),
  );

  app.get(
    '/reports/venue-liability.csv',
    {
      schema: {
        tags,
        summary: 'The same as CSV: one line per venue and one for no venue, amounts in the currency’s unit',
        querystring: LiabilityQuery,
        response: withErrors({
          200: { description: 'CSV, one venue a line', content: { 'text/csv': { schema: Type.String() } } } as unknown as ReturnType<typeof Type.Unknown>,
        }),
      },
    },
    async (req, reply) => {
      const period = periodOf(req.query, clock.now());
      const report = await liability(db, sessionOf(req).venue, period, req.query.livemode ?? true);
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const csv = csvLines([
        ['venue_id', 'venue', 'mode', 'currency', 'from', 'to', ...FIGURES],
        ...report.data.map((r) => [
          r.venue_id,
          r.venue_name ?? NO_VENUE,
          report.livemode ? 'live' : 'test',
          report.currency,
          report.from,
          report.to,
          ...FIGURES.map((k) => decimal(r[k], report.currency)),
        ]),
      ]);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="venue-liability-${report.livemode ? '' : 'test-'}${day(period.from)}-to-${day(period.to)}.csv"`);
      return reply.send(csv);
    },
  );
}
