// The dashboard's operational pages over HTTP: transactions (list, one, CSV, refund, void), overview, tables, orders.
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import { eventRequestOf, type App } from '../http/context.js';
import { nonJson, withErrors } from '../http/responses.js';
import { ApiError } from '../shared/errors.js';
import { ListOf } from '../shared/pagination.js';
import { startOfVenueDay, venueDay } from '../shared/time.js';
import * as accounts from '../modules/accounts/service.js';
import * as history from '../modules/checks/history.js';
import { Refund, RefundBody, Transaction } from '../modules/checks/schemas.js';
import * as menu from '../modules/menu/service.js';
import { tableMenuUrl, tableQrPng, tableQrSvg } from '../modules/menu/table-qr.js';
import { MoveOrder, NEXT_STATUSES, OrderParams, type OrderStatus } from '../modules/orders/schemas.js';
import * as orders from '../modules/orders/service.js';
import * as report from './report.js';
import * as reversals from './reversals.js';
import { sessionOf } from './request.js';
import {
  IdParams,
  NewTable,
  Overview,
  OwnerOrder,
  OwnerTransaction,
  QrQuery,
  TableCodeParams,
  TransactionExportQuery,
  TransactionQuery,
  VenueTable,
} from './schemas.js';
import * as service from './service.js';

const image = (mediaType: 'image/svg+xml' | 'image/png', description: string) => nonJson(mediaType, description, mediaType === 'image/png' ? 'binary' : undefined);

type Filter = { from?: string; to?: string; register_id?: string; livemode?: boolean; status?: 'completed' | 'voided' };
const historyFilter = (q: Filter): history.HistoryFilter => ({ fromDay: q.from, toDay: q.to, registerId: q.register_id, livemode: q.livemode, status: q.status });

export async function dashboardOperationsRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;
  const owner = (req: Parameters<typeof sessionOf>[0]) => service.ownerCallerOf(sessionOf(req), clock.now());

  // Transactions: the owner sees every key's checks, live and test, filtered.
  app.get(
    '/transactions',
    { schema: { tags, summary: 'Transactions, newest first, filtered by venue day, register, mode and status', querystring: TransactionQuery, response: withErrors({ 200: ListOf(OwnerTransaction) }) } },
    async (req) => history.listHistory(db, owner(req), { limit: req.query.limit ?? 20, startingAfter: req.query.starting_after }, historyFilter(req.query), '/dashboard/api/transactions'),
  );

  app.get(
    '/transactions/registers',
    { schema: { tags, summary: 'The register ids checks named, for the filter', response: withErrors({ 200: Type.Array(Type.String()) }) } },
    async (req) => history.registerIds(db, owner(req)),
  );

  app.get(
    '/transactions/export.csv',
    {
      schema: {
        summary: 'The filtered transactions as CSV (amounts in the currency’s unit)',
        querystring: TransactionExportQuery,
        tags,
        response: withErrors({ 200: nonJson('text/csv', 'CSV, one transaction a line, newest first') }),
      },
    },
    async (req, reply) => {
      const { csv, truncated } = await history.exportCsv(db, owner(req), historyFilter(req.query));
      const day = new Date(clock.now()).toISOString().slice(0, 10);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="transactions-${day}.csv"`);
      if (truncated) reply.header('x-truncated', `only the newest ${history.CSV_MAX_ROWS} rows; narrow the dates`);
      return reply.send(csv);
    },
  );

  app.get(
    '/transactions/:id',
    { schema: { tags, summary: 'One transaction with its lines, their rule sources and the display text', params: IdParams, response: withErrors({ 200: OwnerTransaction }) } },
    async (req) => history.transactionById(db, owner(req), req.params.id),
  );

  // A member's page refunds or voids a check of this venue (D27), as the till would, audited with the user.
  const DashboardRefund = Type.Object(
    {
      amount: RefundBody.properties.amount,
      external_id: Type.String({ minLength: 1, maxLength: 64, description: "The refund's number; the page makes one per refund, so a repeated request answers the same refund." }),
    },
    { additionalProperties: false },
  );
  app.post(
    '/transactions/:id/refunds',
    { schema: { tags, summary: 'Refund part of a check of this venue', params: IdParams, body: DashboardRefund, response: withErrors({ 201: Refund }) } },
    async (req, reply) => reply.code(201).send(await inTransaction(db, (trx) => reversals.refundCheck(trx, owner(req), req.params.id, req.body, clock, eventRequestOf(req)))),
  );
  app.post(
    '/transactions/:id/void',
    { schema: { tags, summary: 'Void a check of this venue', params: IdParams, response: withErrors({ 200: Transaction }) } },
    async (req) => inTransaction(db, (trx) => reversals.voidCheck(trx, owner(req), req.params.id, clock)),
  );

  // Overview: today's and this month's figures, 30 days, and the cashback members could still redeem.
  app.get('/overview', { schema: { tags, summary: "Today's and this month's checks and cashback, a 30-day series, the outstanding cashback", response: withErrors({ 200: Overview }) } }, async (req) =>
    report.overview(db, sessionOf(req).venue, clock.now(), (venueId) => accounts.userMayOpen(sessionOf(req).owner, venueId)),
  );

  // Tables and their QR codes to the public menu.
  const presentTable = (slug: string, t: { id: string; tableCode: string; name: string }) => ({
    id: t.id,
    table_code: t.tableCode,
    name: t.name,
    menu_url: tableMenuUrl(app.deps.config.publicBaseUrl, slug, t.tableCode),
  });
  const tableOf = async (req: Parameters<typeof sessionOf>[0], code: string) => {
    const { venue } = sessionOf(req);
    const table = await menu.findTable(db, accounts.placeOf(venue), code);
    if (!table) throw new ApiError('table_not_found');
    return presentTable(venue.slug, table);
  };

  app.get('/tables', { schema: { tags, summary: "The venue's tables with their menu addresses", response: withErrors({ 200: Type.Array(VenueTable) }) } }, async (req) => {
    const { venue } = sessionOf(req);
    return (await menu.listTables(db, accounts.placeOf(venue))).map((t) => presentTable(venue.slug, t));
  });

  app.post('/tables', { schema: { tags, summary: 'Add a table', body: NewTable, response: withErrors({ 201: VenueTable }) } }, async (req, reply) => {
    const { venue } = sessionOf(req);
    const table = await inTransaction(db, (trx) => menu.createTable(trx, accounts.placeOf(venue), { name: req.body.name, tableCode: req.body.table_code }, service.sessionWho(sessionOf(req))));
    return reply.code(201).send(presentTable(venue.slug, table));
  });

  app.get('/tables/:table_code/qr.svg', { schema: { tags, summary: "A table's QR code as SVG", params: TableCodeParams, response: withErrors({ 200: image('image/svg+xml', 'The QR code, SVG') }) } }, async (req, reply) => {
    const table = await tableOf(req, req.params.table_code);
    return reply.header('content-type', 'image/svg+xml').send(await tableQrSvg(table.menu_url));
  });

  app.get('/tables/:table_code/qr.png', { schema: { tags, summary: "A table's QR code as PNG (1024 px, for printing)", params: TableCodeParams, querystring: QrQuery, response: withErrors({ 200: image('image/png', 'The QR code, PNG') }) } }, async (req, reply) => {
    const table = await tableOf(req, req.params.table_code);
    if (req.query.download) {
      reply.header('content-disposition', `attachment; filename="table-${table.table_code}.png"`);
    }
    return reply.header('content-type', 'image/png').send(await tableQrPng(table.menu_url));
  });

  // Orders: today's board (venue day), moved along D14's graph.
  const withMoves = <O extends { status: string }>(o: O) => ({ ...o, next_statuses: NEXT_STATUSES[o.status as OrderStatus] ?? [] });

  app.get("/orders", { schema: { tags, summary: "Today's orders (the venue's day), newest first", response: withErrors({ 200: Type.Array(OwnerOrder) }) } }, async (req) => {
    const caller = owner(req);
    const { timezone } = sessionOf(req).venue;
    const since = startOfVenueDay(venueDay(clock.now(), timezone), timezone);
    const list = await orders.listOrders(db, caller, { limit: 100 }, { created_after: since.toISOString() });
    return list.data.map(withMoves);
  });

  app.post(
    '/orders/:id/status',
    { schema: { tags, summary: 'Move an order to its next status', params: OrderParams, body: MoveOrder, response: withErrors({ 200: OwnerOrder }) } },
    async (req) => withMoves(await inTransaction(db, (trx) => orders.moveOrder(trx, owner(req), req.params.id, req.body as { status: OrderStatus; reason?: string }))),
  );
}

