// The Reports page's figures (issue 41): a period's activity as JSON for the charts and as CSV, one line a day.
import { Type } from 'typebox';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { csvLines, decimal } from '../shared/csv.js';
import { activityReport } from './activity-report.js';
import { sessionOf } from './request.js';
import { ActivityReport, ActivityReportQuery } from './schemas.js';

const MONEY = ['sales', 'earned', 'campaign', 'redeemed', 'outstanding'] as const;

export async function dashboardReportRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;
  const reportOf = (req: { query: { from: string; to: string; livemode?: boolean } } & Parameters<typeof sessionOf>[0]) =>
    activityReport(db, sessionOf(req).venue, { from: req.query.from, to: req.query.to, livemode: req.query.livemode ?? true }, clock.now());

  app.get(
    '/reports/activity',
    {
      schema: {
        tags,
        summary: "The chain's enrolments, checks, visits, sales and cashback per day of a period, members active, per venue and per campaign",
        querystring: ActivityReportQuery,
        response: withErrors({ 200: ActivityReport }),
      },
    },
    async (req) => reportOf(req),
  );

  app.get(
    '/reports/activity.csv',
    {
      schema: {
        tags,
        summary: 'The same days as CSV, amounts in the currency’s unit',
        querystring: ActivityReportQuery,
        response: withErrors({
          200: { description: 'CSV, one day a line', content: { 'text/csv': { schema: Type.String() } } } as unknown as ReturnType<typeof Type.Unknown>,
        }),
      },
    },
    async (req, reply) => {
      const report = await reportOf(req);
      const csv = csvLines([
        ['day', 'mode', 'currency', 'enrolments', 'checks', 'member_checks', ...MONEY],
        ...report.days.map((d) => [
          d.day,
          report.livemode ? 'live' : 'test',
          report.currency,
          d.enrolments,
          d.checks,
          d.member_checks,
          ...MONEY.map((k) => decimal(d[k], report.currency)),
        ]),
      ]);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="activity-${report.livemode ? '' : 'test-'}${report.from}-to-${report.to}.csv"`);
      return reply.send(csv);
    },
  );
}
