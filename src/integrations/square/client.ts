// Calls to Square's API for one connection: Bearer token, Square-Version pinned, Square's errors sorted into
// "try again later" (timeouts, 429, 5xx), "credentials refused" (401, 403) and "not there" (404).
import type { TSchema } from 'typebox';
import { CredentialsRefused, ProviderUnavailable } from '../core/queue.js';
import { Customer, Order, Payment, Refund, read } from './objects.js';

/** The API version the connector was written against (docs/integrations/square.md); Square answers in it. */
export const SQUARE_VERSION = '2025-08-20';
const PAGE_LIMIT = 100;

export class SquareClient {
  constructor(
    private readonly baseUrl: string,
    private readonly accessToken: string,
    private readonly timeoutMs: number,
  ) {}

  /** The object at `path` under its key (`order`, `customer`…), checked against Square's schema; undefined: 404. */
  private async get(path: string, query?: Record<string, string>): Promise<Record<string, unknown> | undefined> {
    const url = `${this.baseUrl}${path}${query ? `?${new URLSearchParams(query)}` : ''}`;
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${this.accessToken}`, 'square-version': SQUARE_VERSION, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new ProviderUnavailable(`Square did not answer ${path.split('/').slice(0, 3).join('/')} (${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}).`);
    }
    if (res.status === 404) return undefined;
    if (res.status === 401 || res.status === 403) throw new CredentialsRefused(`Square refused the access token (${res.status} ${await errorCode(res)}).`);
    if (!res.ok) throw new ProviderUnavailable(`Square answered ${res.status} ${await errorCode(res)}.`);
    return (await res.json()) as Record<string, unknown>;
  }

  async order(id: string): Promise<Order | undefined> {
    return this.one(`/v2/orders/${encodeURIComponent(id)}`, 'order', Order);
  }

  async customer(id: string): Promise<Customer | undefined> {
    return this.one(`/v2/customers/${encodeURIComponent(id)}`, 'customer', Customer);
  }

  async payment(id: string): Promise<Payment | undefined> {
    return this.one(`/v2/payments/${encodeURIComponent(id)}`, 'payment', Payment);
  }

  private async one<T>(path: string, key: string, schema: TSchema): Promise<T | undefined> {
    const body = await this.get(path);
    if (!body) return undefined;
    const checked = read<T>(schema, body[key], `Square's ${key}`);
    if (!checked.ok) throw new ProviderUnavailable(checked.reason);
    return checked.value;
  }

  /**
   * Every completed payment (or refund) of a location changed in [begin, end] and created since `createdSince`, in the
   * order they changed, page by page: a payment authorised in one window and captured in a later one is listed then.
   * (Square filters on created_at too, a year back by default: `createdSince` says how far.)
   */
  async *completed(kind: 'payments' | 'refunds', location: string, window: { begin: string; end: string; createdSince: string }): AsyncGenerator<Payment | Refund> {
    const query: Record<string, string> = {
      location_id: location,
      begin_time: window.createdSince,
      end_time: window.end,
      updated_at_begin_time: window.begin,
      updated_at_end_time: window.end,
      sort_field: 'UPDATED_AT',
      sort_order: 'ASC',
      limit: String(PAGE_LIMIT),
    };
    if (kind === 'refunds') query.status = 'COMPLETED';
    for (let cursor: string | undefined; ; ) {
      const body = await this.get(`/v2/${kind}`, cursor ? { ...query, cursor } : query);
      for (const item of (body?.[kind] as unknown[] | undefined) ?? []) {
        const checked = read<Payment | Refund>(kind === 'payments' ? Payment : Refund, item, `A listed ${kind.slice(0, -1)}`);
        if (checked.ok && checked.value.status === 'COMPLETED') yield checked.value;
      }
      cursor = body?.cursor as string | undefined;
      if (!cursor) return;
    }
  }
}

/** Square's first error code, for the log (never the request, which holds nothing secret either). */
async function errorCode(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { errors?: { code?: string }[] };
    return body.errors?.[0]?.code ?? '';
  } catch {
    return '';
  }
}
