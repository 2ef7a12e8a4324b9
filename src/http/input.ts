// Input at the edge: every string a request brings must be one PostgreSQL and JSON can hold, before any route sees it.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../shared/errors.js';
import type { App } from './context.js';
import { checkIdempotencyKey } from './idempotency.js';
import { declared, refuseUnknownFields } from './unknown-fields.js';

// PostgreSQL's text cannot hold NUL, and jsonb refuses a lone surrogate (\ud800 alone is not a character):
// either reached the database as a 500 before this check existed.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as it is, or undefined when it can. */
export function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone UTF-16 surrogate';
  return undefined;
}

/** A name as it may be echoed back (in `param`, in logs): NUL and lone surrogates spelled as JSON escapes. */
const printable = (name: string): string => (unstorable(name) ? JSON.stringify(name).slice(1, -1) : name);

const joinParam = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${printable(key)}` : printable(key);

/**
 * The first string (value or object key) in a parsed body, query or path that cannot be stored, with its param in
 * the API's dotted form. Iterative, not recursive: a deeply nested JSON body must not overflow the stack here.
 */
export function findUnstorable(value: unknown, root = ''): { param: string; reason: string } | undefined {
  const stack: { value: unknown; param: string }[] = [{ value, param: root }];
  while (stack.length) {
    const { value: current, param } = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorable(current);
      if (reason) return { param, reason };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], param: joinParam(param, i) });
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (const key of keys) {
        const reason = unstorable(key);
        if (reason) return { param: joinParam(param, key), reason: `is not an acceptable field name: a name ${reason}` };
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ value: (current as Record<string, unknown>)[key], param: joinParam(param, key) });
      }
    }
  }
  return undefined;
}

const refuse = (param: string, reason: string) =>
  new ApiError('parameter_invalid', { param: param || undefined, message: `${param || 'The request body'} ${reason}.` });

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/**
 * A JSON body's bytes as text. Node would quietly turn invalid UTF-8 into U+FFFD; refused instead, naming the
 * first string that held such bytes when the body is otherwise JSON.
 */
export function decodeBody(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let param: string | undefined;
    try {
      // Breadth first, by index rather than shift(): a body of a million small values stays linear.
      const queue: { value: unknown; param: string }[] = [{ value: JSON.parse(lenientUtf8.decode(bytes)), param: '' }];
      for (let next = 0; next < queue.length && param === undefined; next++) {
        const { value, param: at } = queue[next]!;
        if (typeof value === 'string' && value.includes('\ufffd')) param = at;
        else if (Array.isArray(value)) value.forEach((v, i) => queue.push({ value: v, param: joinParam(at, i) }));
        else if (value !== null && typeof value === 'object') {
          for (const [k, v] of Object.entries(value)) {
            if (k.includes('\ufffd')) param ??= joinParam(at, k);
            queue.push({ value: v, param: joinParam(at, k) });
          }
        }
      }
    } catch {
      // Not JSON either: the message says what is wrong with the bytes, with no param.
    }
    throw refuse(param ?? '', 'is not valid UTF-8');
  }
}

/** A query string's parameters whose percent-encoding is not UTF-8 (%ff, %c0%af, %zz): the parser would keep them raw. */
function badlyEncodedQueryParam(url: string): string | undefined {
  const at = url.indexOf('?');
  if (at < 0) return undefined;
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    let key: string;
    try {
      key = decodeURIComponent(rawKey.replaceAll('+', ' '));
    } catch {
      return printable(rawKey);
    }
    try {
      decodeURIComponent(rawValue.replaceAll('+', ' '));
    } catch {
      return printable(key);
    }
  }
  return undefined;
}

/**
 * Routes that serve pages and files to browsers, where links and QR codes carry parameters of their own
 * (utm_source, fbclid, a cache-buster) that a page must tolerate; every other route refuses unknown query parameters.
 */
export function acceptsAnyQuery(routeUrl: string): boolean {
  return (
    routeUrl.endsWith('*') ||
    routeUrl.startsWith('/m/') ||
    routeUrl === '/api/docs' ||
    routeUrl.startsWith('/api/docs/') ||
    (routeUrl.startsWith('/dashboard') && !routeUrl.startsWith('/dashboard/api/'))
  );
}

function checkRequest(req: FastifyRequest): void {
  const routeUrl = req.routeOptions.url;
  const badQuery = badlyEncodedQueryParam(req.url);
  if (badQuery !== undefined) throw refuse(badQuery, 'is not valid percent-encoded UTF-8');

  // Headers too: Node's HTTP parser already refuses NUL in them, but a request injected in-process is not parsed.
  for (const [name, value] of Object.entries(req.headers)) {
    for (const text of [value].flat()) {
      const reason = typeof text === 'string' ? unstorable(text) : undefined;
      if (reason) throw refuse(name === 'idempotency-key' ? 'Idempotency-Key' : name, reason);
    }
  }
  checkIdempotencyKey(req.headers['idempotency-key']);

  const found = findUnstorable(req.params) ?? findUnstorable(req.query) ?? findUnstorable(req.body);
  if (found) throw refuse(found.param, found.reason);
  refuseUnknownFields(req.body, req.routeOptions.schema?.body);

  if (routeUrl !== undefined && !acceptsAnyQuery(routeUrl)) {
    const schema = req.routeOptions.schema?.querystring;
    const known = schema && typeof schema === 'object' ? declared(schema).names : [];
    const unknown = Object.keys(req.query ?? {}).find((name) => !known.includes(name));
    if (unknown !== undefined) {
      throw new ApiError('parameter_invalid', {
        param: unknown,
        message: known.length
          ? `${unknown} is not a known query parameter here; known: ${known.join(', ')}.`
          : `${unknown} is not a known query parameter: this route takes none.`,
      });
    }
  }
}

/**
 * The path patterns of every route, so a refusal that comes from the router itself (bad percent-encoding, a
 * parameter over the router's length limit) can still name the path parameter concerned.
 */
export class RouteTable {
  private readonly patterns: { method: string; segments: string[] }[] = [];

  add(methods: string | string[], url: string): void {
    for (const method of [methods].flat()) this.patterns.push({ method, segments: url.split('/') });
  }

  /** The name of the parameter at the path segment `index` of `path`, when a route with a parameter there matches. */
  paramAt(method: string, path: string, index: number): string | undefined {
    const segments = path.split('/');
    const candidates = this.patterns.filter((p) => p.method === method).concat(this.patterns.filter((p) => p.method !== method));
    for (const { segments: pattern } of candidates) {
      const wildcard = pattern.at(-1) === '*';
      if (wildcard ? segments.length < pattern.length - 1 : segments.length !== pattern.length) continue;
      let matches = true;
      for (let i = 0; i < pattern.length && matches; i++) {
        const p = pattern[i]!;
        if (p === '*') break;
        if (!p.startsWith(':') && p !== segments[i]) matches = false;
      }
      if (!matches) continue;
      const at = pattern[index];
      return at?.startsWith(':') ? at.slice(1) : undefined;
    }
    return undefined;
  }
}

/** The index of the first segment of a raw path that does not decode, or that is over `maxLength`; -1 if none. */
export function badSegment(path: string, kind: 'encoding' | 'length', maxLength: number): number {
  return path.split('/').findIndex((segment) => {
    if (kind === 'length') return segment.length > maxLength;
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });
}

/** Installs the edge check on every route; it runs after authentication and before schema validation. */
export function installInputChecks(app: App): void {
  // A hook that awaits nothing is given as a callback: an async one costs a promise and a turn on every request.
  app.addHook('preValidation', (req, _reply, done) => {
    checkRequest(req);
    done();
  });
}

export const newRequestId = (): string => `req_${randomUUID().replaceAll('-', '')}`;
