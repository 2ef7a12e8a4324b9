// Real HTTP through app.inject, with the key as a bearer token and JSON in and out; raw bytes over a socket when needed.
import { connect } from 'node:net';
import type { TestApp } from './app.js';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
}

/** The answer, if it is a 2xx; else the test fails here, naming the step and what came back. */
export function ok(res: Response, what: string): Response {
  if (res.status < 200 || res.status > 299) throw new Error(`${what} → ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  key?: string | null;
}

export async function request(t: TestApp, method: string, url: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  // A Blob is sent as its bytes with its own type (a file upload); anything else but text and bytes as JSON.
  if (options.body instanceof Blob) headers['content-type'] ??= options.body.type;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers,
    payload:
      options.body === undefined
        ? undefined
        : options.body instanceof Blob
          ? Buffer.from(await options.body.arrayBuffer())
          : typeof options.body === 'string' || Buffer.isBuffer(options.body)
            ? options.body
            : JSON.stringify(options.body),
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

/**
 * Sends bytes exactly as given over a TCP connection and parses the one response: for what app.inject cannot send
 * (a path it would normalise or refuse, a malformed request line, headers over the parser's limit).
 */
export async function rawHttp(baseUrl: string, bytes: string | Buffer): Promise<Response> {
  const { hostname, port } = new URL(baseUrl);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (err) => (chunks.length ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const raw = text.slice(split + 4);
  let body: unknown = raw;
  if ((headers['content-type'] ?? '').includes('json') && raw) body = JSON.parse(raw);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
