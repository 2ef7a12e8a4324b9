// Real HTTP through app.inject, with the key as a bearer token and JSON in and out.
import type { TestApp } from './app.js';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  key?: string | null;
}

export async function request(t: TestApp, method: string, url: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers,
    payload: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  let body: unknown = res.body;
  if (String(res.headers['content-type'] ?? '').includes('json') && res.body) body = res.json();
  return { status: res.statusCode, headers: res.headers, body };
}

/** A client bound to one key. */
export function client(t: TestApp, key: string | null) {
  return {
    get: (url: string, headers?: Record<string, string>) => request(t, 'GET', url, { key, headers }),
    post: (url: string, body?: unknown, headers?: Record<string, string>) => request(t, 'POST', url, { key, body, headers }),
    put: (url: string, body?: unknown, headers?: Record<string, string>) => request(t, 'PUT', url, { key, body, headers }),
    patch: (url: string, body?: unknown, headers?: Record<string, string>) => request(t, 'PATCH', url, { key, body, headers }),
    delete: (url: string, headers?: Record<string, string>) => request(t, 'DELETE', url, { key, headers }),
  };
}

/** Asserts the error envelope and returns its `error` object. */
export function expectError(res: Response, status: number, code: string, type?: string) {
  const e = res.body?.error;
  if (res.status !== status || e?.code !== code || (type && e?.type !== type)) {
    throw new Error(`expected ${status} ${code}${type ? ` (${type})` : ''}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (res.body.request_id !== res.headers['x-request-id']) {
    throw new Error(`request_id ${res.body.request_id} differs from X-Request-Id ${res.headers['x-request-id']}`);
  }
  return e;
}
