// A local stand-in of Square's API (payments, refunds, orders, customers), Square-shaped builders, and signed webhook deliveries.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// IDs from Square's examples, the builders' defaults: objects built without a location share the main location.
export const SQUARE_MAIN_LOCATION_ID = 'L88917AVBK2S5';
export const SQUARE_MERCHANT_ID = '6SSW7HV8K2ST5';

/** `amount` in the currency's smallest unit (cents for USD). */
export type SquareMoney = { amount: number; currency: string };

export interface SquarePayment {
  id: string;
  created_at: string;
  updated_at: string;
  /** Excludes the tip. */
  amount_money: SquareMoney;
  tip_money?: SquareMoney;
  total_money: SquareMoney;
  refunded_money?: SquareMoney;
  refund_ids?: string[];
  status: 'APPROVED' | 'PENDING' | 'COMPLETED' | 'CANCELED' | 'FAILED';
  source_type: 'CARD' | 'BANK_ACCOUNT' | 'WALLET' | 'BUY_NOW_PAY_LATER' | 'SQUARE_ACCOUNT' | 'CASH' | 'EXTERNAL';
  location_id: string;
  order_id?: string;
  /** Square may attach it only in a later payment.updated. */
  customer_id?: string;
  version_token: string;
  receipt_number: string;
}

export interface SquareRefund {
  id: string;
  status: 'PENDING' | 'COMPLETED' | 'REJECTED' | 'FAILED';
  amount_money: SquareMoney;
  payment_id: string;
  /** The return order Square opens for the refund, not the sale's order. */
  order_id?: string;
  location_id: string;
  reason?: string;
  created_at: string;
  updated_at: string;
}

export interface SquareCustomer {
  id: string;
  created_at: string;
  updated_at: string;
  given_name?: string;
  family_name?: string;
  email_address?: string;
  phone_number?: string;
  reference_id?: string;
  version: number;
}

export interface SquareLineItemInput {
  name: string;
  /** A string, as Square sends it: "2", or a decimal such as "0.5" for items sold by a unit. */
  quantity: string;
  /** One unit's price. */
  base_price_money: SquareMoney;
  catalog_object_id?: string;
  variation_name?: string;
  total_discount_money?: SquareMoney;
  total_tax_money?: SquareMoney;
}

export interface SquareOrderInput {
  id?: string;
  location_id: string;
  customer_id?: string;
  created_at?: string;
  line_items: SquareLineItemInput[];
  /** amount_money includes tip_money, as on Square's Tender. */
  /** Square's Tender.type: CARD unless said (a gift card's is SQUARE_GIFT_CARD, though its payment's source_type is CARD). */
  tenders?: { payment_id: string; amount_money: SquareMoney; tip_money?: SquareMoney; type?: 'CARD' | 'CASH' | 'SQUARE_GIFT_CARD' | 'OTHER' }[];
  state: 'OPEN' | 'COMPLETED' | 'CANCELED' | 'DRAFT';
}

type PaymentEventType = 'payment.created' | 'payment.updated';
type RefundEventType = 'refund.created' | 'refund.updated';

export interface SquareEvent {
  merchant_id: string;
  type: PaymentEventType | RefundEventType;
  event_id: string;
  created_at: string;
  data: { type: 'payment' | 'refund'; id: string; object: { payment: SquarePayment } | { refund: SquareRefund } };
}

export type SquareFault = { status: 500 | 429 | 401 } | 'timeout';

export type SquareRequest = { method: string; path: string; query: Record<string, string>; squareVersion: string | undefined };

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Customer IDs are upper-case Crockford base32 (JDKYHBWT1D4F8MFH63DBMEN8Y4); payment and order IDs mix cases.
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const squareId = (length: number, alphabet = BASE62) => Array.from(randomBytes(length), (b) => alphabet.charAt(b % alphabet.length)).join('');
const money = (amount: number, currency = 'USD'): SquareMoney => ({ amount, currency });
const now = () => new Date().toISOString();
const totalOf = (p: Pick<SquarePayment, 'amount_money' | 'tip_money'>) => money(p.amount_money.amount + (p.tip_money?.amount ?? 0), p.amount_money.currency);

/** A COMPLETED card payment of USD 10.00; total_money follows amount and tip unless given. */
export function squarePayment(overrides: Partial<SquarePayment> = {}): SquarePayment {
  const id = overrides.id ?? squareId(29);
  const at = overrides.created_at ?? now();
  const payment: SquarePayment = {
    id,
    created_at: at,
    updated_at: at,
    amount_money: money(1000),
    total_money: money(1000),
    status: 'COMPLETED',
    source_type: 'CARD',
    location_id: SQUARE_MAIN_LOCATION_ID,
    order_id: squareId(29),
    version_token: squareId(45),
    // As in Square's examples: the receipt number is the payment ID's first four characters.
    receipt_number: id.slice(0, 4),
    ...overrides,
  };
  return { ...payment, total_money: overrides.total_money ?? totalOf(payment) };
}

/**
 * An order with every total filled in as Square computes them: a line's gross is base × quantity (rounded to the
 * minor unit for decimal quantities), its total gross − discount + tax (tax taken as additive).
 */
export function squareOrder(input: SquareOrderInput) {
  const currency = input.line_items[0]?.base_price_money.currency ?? 'USD';
  const id = input.id ?? squareId(27);
  const at = input.created_at ?? now();
  const zero = money(0, currency);
  const line_items = input.line_items.map((item) => {
    const gross = money(Math.round(item.base_price_money.amount * Number(item.quantity)), currency);
    const discount = item.total_discount_money ?? zero;
    const tax = item.total_tax_money ?? zero;
    return {
      uid: squareId(22),
      ...item,
      variation_total_price_money: gross,
      gross_sales_money: gross,
      total_discount_money: discount,
      total_tax_money: tax,
      total_service_charge_money: zero,
      total_money: money(gross.amount - discount.amount + tax.amount, currency),
    };
  });
  // A tender's id is its payment's ID.
  const tender = { location_id: input.location_id, transaction_id: id, created_at: at, customer_id: input.customer_id, type: 'CARD' };
  const tenders = input.tenders?.map((t) => ({ id: t.payment_id, ...tender, ...t, tip_money: t.tip_money ?? zero }));
  const sum = (amounts: SquareMoney[]) => money(amounts.reduce((n, m) => n + m.amount, 0), currency);
  const discount = sum(line_items.map((l) => l.total_discount_money));
  const tax = sum(line_items.map((l) => l.total_tax_money));
  const tip = sum(tenders?.map((t) => t.tip_money) ?? []);
  // Tips count in the order's total, so that the tenders add up to it.
  const total = sum([...line_items.map((l) => l.total_money), tip]);
  return {
    id,
    location_id: input.location_id,
    customer_id: input.customer_id,
    line_items,
    tenders,
    net_amounts: { total_money: total, tax_money: tax, discount_money: discount, tip_money: tip, service_charge_money: zero },
    total_money: total,
    total_tax_money: tax,
    total_discount_money: discount,
    total_tip_money: tip,
    total_service_charge_money: zero,
    state: input.state,
    created_at: at,
    updated_at: at,
    closed_at: input.state === 'COMPLETED' ? at : undefined,
  };
}

export type SquareOrder = ReturnType<typeof squareOrder>;

/** A customer with a unique email address and phone number, so two built customers never match each other. */
export function squareCustomer(overrides: Partial<SquareCustomer> = {}): SquareCustomer {
  const at = now();
  return {
    id: squareId(26, BASE32),
    created_at: at,
    updated_at: at,
    given_name: 'Amelia',
    family_name: 'Earhart',
    email_address: `amelia.${squareId(8, BASE32).toLowerCase()}@example.com`,
    phone_number: `+1212555${String(randomBytes(2).readUInt16BE() % 10_000).padStart(4, '0')}`,
    reference_id: squareId(10),
    version: 1,
    ...overrides,
  };
}

/** A COMPLETED refund of USD 10.00, its ID made as Square makes it: the payment's ID, an underscore, a suffix. */
export function squareRefund(overrides: Partial<SquareRefund> = {}): SquareRefund {
  const paymentId = overrides.payment_id ?? squareId(29);
  const at = overrides.created_at ?? now();
  return {
    id: `${paymentId}_${squareId(43)}`,
    status: 'COMPLETED',
    amount_money: money(1000),
    payment_id: paymentId,
    order_id: squareId(29),
    location_id: SQUARE_MAIN_LOCATION_ID,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

export type SquareEventOptions = { merchantId?: string; eventId?: string; createdAt?: string };

export function squareEvent(type: PaymentEventType, object: SquarePayment, options?: SquareEventOptions): SquareEvent;
export function squareEvent(type: RefundEventType, object: SquareRefund, options?: SquareEventOptions): SquareEvent;
export function squareEvent(type: SquareEvent['type'], object: SquarePayment | SquareRefund, options: SquareEventOptions = {}): SquareEvent {
  const kind = type.startsWith('payment.') ? 'payment' : 'refund';
  return {
    merchant_id: options.merchantId ?? SQUARE_MERCHANT_ID,
    type,
    event_id: options.eventId ?? randomUUID(),
    created_at: options.createdAt ?? now(),
    data: { type: kind, id: object.id, object: (kind === 'payment' ? { payment: object } : { refund: object }) as SquareEvent['data']['object'] },
  };
}

/** Square's x-square-hmacsha256-signature: base64 HMAC-SHA256, keyed by the key's text, of the URL then the raw body. */
export function signSquareBody(signatureKey: string, notificationUrl: string, rawBody: string): string {
  return createHmac('sha256', signatureKey).update(notificationUrl + rawBody, 'utf8').digest('base64');
}

/** A webhook delivery as Square sends it; post `body` unchanged, since re-serialising it breaks the signature. */
export function signedSquareDelivery(signatureKey: string, notificationUrl: string, event: SquareEvent) {
  const body = JSON.stringify(event);
  return { body, headers: { 'content-type': 'application/json', 'x-square-hmacsha256-signature': signSquareBody(signatureKey, notificationUrl, body) } };
}

type SquareError = { category: string; code: string; detail: string; field?: string };

class Refusal extends Error {
  constructor(readonly status: number, readonly error: SquareError) {
    super(error.detail);
  }
}

const UNAUTHORIZED: SquareError = { category: 'AUTHENTICATION_ERROR', code: 'UNAUTHORIZED', detail: 'This request could not be authorized.' };
const FAULT_ERRORS: Record<500 | 429 | 401, SquareError> = {
  500: { category: 'API_ERROR', code: 'INTERNAL_SERVER_ERROR', detail: 'An internal error occurred.' },
  429: { category: 'RATE_LIMIT_ERROR', code: 'RATE_LIMITED', detail: 'Rate limited.' },
  401: UNAUTHORIZED,
};

function invalid(code: string, field: string, detail: string): never {
  throw new Refusal(400, { category: 'INVALID_REQUEST_ERROR', code, detail, field });
}

// Strict RFC 3339, so a connector sending a bare date or a zone-less time is caught here rather than by Square.
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
function timeParam(query: Record<string, string>, name: string, fallback: number): number {
  const value = query[name];
  if (value === undefined) return fallback;
  if (!RFC3339.test(value)) invalid('INVALID_TIME', name, `${name} must be an RFC 3339 timestamp.`);
  return Date.parse(value);
}

type Kind = 'payments' | 'refunds' | 'orders' | 'customers';
type Position = { id: string; created_at: string; updated_at: string };

export class SquareStandIn {
  readonly requests: SquareRequest[] = [];
  private readonly store: Record<Kind, Map<string, { id: string }>> = { payments: new Map(), refunds: new Map(), orders: new Map(), customers: new Map() };
  private readonly faults: SquareFault[] = [];
  // Cursor → the query it pages (minus cursor and limit) and the last object served: paging resumes after that
  // object, so objects added between pages neither repeat nor shift the next page.
  private readonly cursors = new Map<string, { query: string; after: Position }>();
  /** ListPayments' default location: Square uses the seller's main one; here, the first location added. */
  private mainLocation: string | undefined;
  private readonly server = createServer((req, res) => this.handle(req, res));

  private constructor(private readonly accessToken: string) {}

  static async start(options: { accessToken: string }): Promise<SquareStandIn> {
    const standIn = new SquareStandIn(options.accessToken);
    await new Promise<void>((resolve, reject) => standIn.server.once('error', reject).listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve));
    // Also ends requests held by a 'timeout' fault, which server.close() alone would wait for forever.
    this.server.closeAllConnections();
    await closed;
  }

  addPayment = (payment: SquarePayment) => this.add('payments', payment);
  addRefund = (refund: SquareRefund) => this.add('refunds', refund);
  addOrder = (order: SquareOrder) => this.add('orders', order);
  addCustomer = (customer: SquareCustomer) => this.add('customers', customer);

  /** Changes a stored payment as Square would: a new updated_at and version_token, total_money following amount and tip. */
  updatePayment(id: string, patch: Partial<Omit<SquarePayment, 'id'>>): SquarePayment {
    const current = this.store.payments.get(id) as SquarePayment | undefined;
    if (!current) throw new Error(`The Square stand-in holds no payment ${id}`);
    const next: SquarePayment = { ...current, updated_at: now(), version_token: squareId(45), ...patch };
    next.total_money = patch.total_money ?? totalOf(next);
    this.store.payments.set(id, next);
    return next;
  }

  /** The next `count` API requests, whatever their path, fail this way. */
  failNext(count: number, fault: SquareFault): void {
    for (let i = 0; i < count; i++) this.faults.push(fault);
  }

  private add<T extends { id: string; location_id?: string }>(kind: Kind, object: T): T {
    if (kind !== 'customers') this.mainLocation ??= object.location_id;
    this.store[kind].set(object.id, object);
    return object;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    const version = req.headers['square-version'];
    this.requests.push({ method: req.method ?? '', path: url.pathname, query, squareVersion: typeof version === 'string' ? version : undefined });
    const fault = this.faults.shift();
    // Accepted and never answered: the socket stays open until the client gives up or close() ends it.
    if (fault === 'timeout') return;
    let status = 200;
    let body: object;
    try {
      if (fault) throw new Refusal(fault.status, FAULT_ERRORS[fault.status]);
      if (req.headers.authorization !== `Bearer ${this.accessToken}`) throw new Refusal(401, UNAUTHORIZED);
      body = this.route(req.method, url.pathname, query);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      status = err.status;
      body = { errors: [err.error] };
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private route(method: string | undefined, path: string, query: Record<string, string>): object {
    const match = /^\/v2\/(payments|refunds|orders|customers)(?:\/([^/]+))?$/.exec(path);
    const kind = match?.[1] as Kind | undefined;
    if (method === 'GET' && kind && match?.[2] !== undefined) {
      const id = decodeURIComponent(match[2]);
      const found = this.store[kind].get(id);
      const singular = kind.slice(0, -1);
      if (found) return { [singular]: found };
      throw new Refusal(404, { category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND', detail: `Could not find ${singular} with id: ${id}` });
    }
    if (method === 'GET' && (kind === 'payments' || kind === 'refunds')) return this.list(kind, query);
    throw new Refusal(404, { category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND', detail: `Resource not found: ${method} ${path}` });
  }

  private list(kind: 'payments' | 'refunds', query: Record<string, string>): object {
    // Square's defaults: from a year ago up to now, newest first, 100 a page (a larger limit is not honoured).
    const begin = timeParam(query, 'begin_time', Date.now() - 365 * 24 * 3600_000);
    const end = timeParam(query, 'end_time', Date.now());
    const sortOrder = query.sort_order ?? 'DESC';
    if (sortOrder !== 'ASC' && sortOrder !== 'DESC') invalid('INVALID_SORT_ORDER', 'sort_order', 'sort_order must be ASC or DESC.');
    // Square's later filters and order: on updated_at (either bound may be left out), sorted by CREATED_AT (its default) or UPDATED_AT.
    const updatedBegin = timeParam(query, 'updated_at_begin_time', -Infinity);
    const updatedEnd = timeParam(query, 'updated_at_end_time', Infinity);
    const sortField = query.sort_field ?? 'CREATED_AT';
    if (sortField !== 'CREATED_AT' && sortField !== 'UPDATED_AT') invalid('INVALID_ENUM_VALUE', 'sort_field', 'sort_field must be CREATED_AT or UPDATED_AT.');
    const field = sortField === 'UPDATED_AT' ? 'updated_at' : 'created_at';
    const limit = Math.min(Number(query.limit ?? 100), 100);
    if (!Number.isInteger(limit) || limit < 1) invalid('INVALID_VALUE', 'limit', 'limit must be a positive integer.');
    // ListPayments covers the main location by default; ListPaymentRefunds every location.
    const location = kind === 'payments' ? (query.location_id ?? this.mainLocation) : query.location_id;
    const sign = sortOrder === 'ASC' ? 1 : -1;
    const compare = (a: Position, b: Position) => sign * (Date.parse(a[field]) - Date.parse(b[field]) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const items = [...this.store[kind].values()]
      .map((o) => o as SquarePayment | SquareRefund)
      .filter((o) => {
        const at = Date.parse(o.created_at);
        const updated = Date.parse(o.updated_at);
        return at >= begin && at <= end && updated >= updatedBegin && updated <= updatedEnd && (location === undefined || o.location_id === location) && (query.status === undefined || kind !== 'refunds' || o.status === query.status);
      })
      .sort(compare);

    // A cursor pages only the query that produced it (the page size may change), so a connector that drops a
    // filter on the second page is caught.
    const paged = JSON.stringify([kind, Object.entries(query).filter(([name]) => name !== 'cursor' && name !== 'limit').sort()]);
    let rest = items;
    if (query.cursor !== undefined) {
      const page = this.cursors.get(query.cursor);
      if (page?.query !== paged) invalid('INVALID_CURSOR', 'cursor', 'The pagination cursor is invalid for this request.');
      rest = items.filter((o) => compare(o, page.after) > 0);
    }
    const shown = rest.slice(0, limit);
    const last = shown.at(-1);
    let cursor: string | undefined;
    if (last && rest.length > shown.length) {
      cursor = squareId(64);
      this.cursors.set(cursor, { query: paged, after: { id: last.id, created_at: last.created_at, updated_at: last.updated_at } });
    }
    // An empty page carries no array at all, as Square's optional fields may be left out.
    return { [kind]: shown.length ? shown : undefined, cursor };
  }
}
