// The client: openapi-fetch over the generated types, through the retrying fetch; answers as data, refusals thrown.
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { VenueLoyaltyError } from './errors.js';
import { sendWithRetries, type RetryOptions } from './retry.js';
import type { paths } from './schema.js';
import { verifyWebhook, type WebhookHeaders } from './webhooks.js';
import type { WebhookEvent } from './types.js';

export interface VenueLoyaltyOptions extends Partial<RetryOptions> {
  /** `sk_test_…` or `sk_live_…`. */
  apiKey: string;
  /** The server URL of the document: the service's address followed by `/api`, e.g. `https://loyalty.example.com/api`. */
  baseUrl: string;
  /** Sent on every request, for example `User-Agent`. */
  headers?: Record<string, string>;
}

type Init<Path, Method extends HttpMethod> = MaybeOptionalInit<Path, Method & keyof Path>;
// openapi-fetch's own rule: the init argument may be left out when nothing in it is required.
type InitArgs<I> = RequiredKeysOf<I> extends never ? [(I & { [key: string]: unknown })?] : [I & { [key: string]: unknown }];
type DataOf<R> = R extends { data: infer D } ? Exclude<D, undefined> : never;
type Answer<Method extends HttpMethod, Path extends PathsWithMethod<paths, Method>, I> = DataOf<
  FetchResponse<paths[Path][Method & keyof paths[Path]] & Record<string | number, any>, I, 'application/json'>
>;
type Call<Method extends HttpMethod> = <Path extends PathsWithMethod<paths, Method>, I extends Init<paths[Path], Method>>(
  path: Path,
  ...init: InitArgs<I>
) => Promise<Answer<Method, Path, I>>;

/** The GET paths that answer with the `list` envelope (D7), so `list()` can page through them. */
export type ListPath = {
  [Path in PathsWithMethod<paths, 'get'>]: Answer<'get', Path, Init<paths[Path], 'get'>> extends { object: 'list'; has_more: boolean; data: Array<{ id: string }> }
    ? Path
    : never;
}[PathsWithMethod<paths, 'get'>];
type ItemOf<Path extends ListPath> = Answer<'get', Path, Init<paths[Path], 'get'>> extends { data: Array<infer Item> } ? Item : never;

const DEFAULTS = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8_000 };

export class VenueLoyalty {
  /**
   * The underlying openapi-fetch client, for answers as `{ data, error, response }` instead of thrown errors.
   * It goes through the same retries and Idempotency-Keys.
   */
  readonly api: Client<paths, 'application/json'>;

  readonly get: Call<'get'>;
  readonly post: Call<'post'>;
  readonly put: Call<'put'>;
  readonly patch: Call<'patch'>;
  readonly delete: Call<'delete'>;

  readonly webhooks = {
    /**
     * Checks a delivery's Standard Webhooks signature and age (5 minutes) against the endpoint's `whsec_…` secret,
     * and answers the event; throws `WebhookVerificationError` when either fails. `payload` is the raw body,
     * exactly as received (parsed and re-serialised JSON no longer matches the signature).
     */
    verify: (payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent => verifyWebhook(payload, headers, secret),
  };

  constructor(options: VenueLoyaltyOptions) {
    const retry: RetryOptions = {
      maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
      initialDelayMs: options.initialDelayMs ?? DEFAULTS.initialDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULTS.maxDelayMs,
      fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
      idempotencyKey: options.idempotencyKey ?? (() => globalThis.crypto.randomUUID()),
    };
    this.api = createClient<paths, 'application/json'>({
      baseUrl: options.baseUrl,
      headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
      fetch: (request) => sendWithRetries(request, retry),
    });
    const call =
      (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
      async (path: string, init?: object): Promise<any> => {
        const result = await (this.api[method] as (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, init);
        if (!result.response.ok) throw VenueLoyaltyError.fromResponse(result.response, result.error);
        return result.data;
      };
    this.get = call('GET') as Call<'get'>;
    this.post = call('POST') as Call<'post'>;
    this.put = call('PUT') as Call<'put'>;
    this.patch = call('PATCH') as Call<'patch'>;
    this.delete = call('DELETE') as Call<'delete'>;
  }

  /**
   * Every object of a list, newest first, fetching the next page (`starting_after` = the last id) while
   * `has_more` says there is one. `limit` sets the page size; a `starting_after` given starts there.
   */
  async *list<Path extends ListPath, I extends Init<paths[Path], 'get'>>(path: Path, ...init: InitArgs<I>): AsyncGenerator<ItemOf<Path>, void, undefined> {
    const first = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    let startingAfter = first.params?.query?.starting_after as string | undefined;
    for (;;) {
      const query = { ...first.params?.query, ...(startingAfter === undefined ? {} : { starting_after: startingAfter }) };
      const page = (await (this.get as (path: string, init: object) => Promise<unknown>)(path, {
        ...first,
        params: { ...first.params, query },
      })) as { has_more: boolean; data: Array<Awaited<ItemOf<Path>>> };
      for (const item of page.data) yield item;
      const last = page.data.at(-1) as { id: string } | undefined;
      if (!page.has_more || !last) return;
      startingAfter = last.id;
    }
  }
}
