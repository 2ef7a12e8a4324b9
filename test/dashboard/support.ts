// A dashboard client over app.inject: keeps the session cookie and sends the CSRF token on changes.
import { randomBytes } from 'node:crypto';
import { inTransaction } from '../../src/db/transaction.js';
import * as service from '../../src/dashboard/service.js';
import type { TestApp } from '../support/app.js';
import type { Response } from '../support/http.js';

export interface DashboardClient {
  cookie: string | undefined;
  csrf: string | undefined;
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  get(url: string): Promise<Response>;
  post(url: string, body?: unknown): Promise<Response>;
  patch(url: string, body?: unknown): Promise<Response>;
  put(url: string, body?: unknown): Promise<Response>;
  delete(url: string): Promise<Response>;
}

export function dashboardClient(t: TestApp): DashboardClient {
  const c: DashboardClient = {
    cookie: undefined,
    csrf: undefined,
    async call(method, url, body, extra = {}) {
      const headers: Record<string, string> = {};
      if (c.cookie) headers.cookie = c.cookie;
      if (c.csrf && method !== 'GET') headers['x-csrf-token'] = c.csrf;
      if (body !== undefined) headers['content-type'] = 'application/json';
      Object.assign(headers, extra);
      const res = await t.app.inject({ method: method as 'GET', url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
      const setCookie = res.headers['set-cookie'];
      if (typeof setCookie === 'string') c.cookie = setCookie.split(';')[0];
      let parsed: unknown = res.body;
      if (String(res.headers['content-type'] ?? '').includes('json') && res.body) parsed = res.json();
      const out = { status: res.statusCode, headers: res.headers, body: parsed as any };
      if (out.body?.csrf_token) c.csrf = out.body.csrf_token;
      return out;
    },
    get: (url) => c.call('GET', url),
    post: (url, body) => c.call('POST', url, body),
    patch: (url, body) => c.call('PATCH', url, body),
    put: (url, body) => c.call('PUT', url, body),
    delete: (url) => c.call('DELETE', url),
  };
  return c;
}

export const newEmail = () => `owner-${randomBytes(4).toString('hex')}@example.com`;
export const PASSWORD = 'correct horse battery';

/** The token of a link as the API shows it (`.../dashboard/welcome#<token>`). */
export const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);

/**
 * Signs up as the sign-up page does on a server that sends no e-mail: the sign-up's link, shown in the answer, used
 * at once with the password. The answer is the link's use (200 with the session), or the sign-up's refusal.
 */
export async function signUp(c: DashboardClient, body: { venue_name: string; email: string; password: string } & Record<string, unknown>): Promise<Response> {
  const sent = await c.post('/dashboard/api/signup', body);
  if (sent.status !== 202) return sent;
  return c.post('/dashboard/api/links/accept', { token: tokenOf(sent.body.link), password: body.password });
}

/**
 * Signs up a new venue and owner; the client holds the session. A server that sends e-mail shows no link: the test
 * makes the sign-up's link itself, as the e-mail would carry it.
 */
export async function signedUpOwner(t: TestApp, venueName = 'Test Bistro') {
  const c = dashboardClient(t);
  const email = newEmail();
  const body = { venue_name: venueName, email, password: PASSWORD };
  const sent = await c.post('/dashboard/api/signup', body);
  if (sent.status !== 202) throw new Error(`sign-up failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  const token = sent.body.link ? tokenOf(sent.body.link) : (await inTransaction(t.db, (trx) => service.requestSignUp(trx, body, t.clock.now()))).token;
  const res = await c.post('/dashboard/api/links/accept', { token, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-up's link failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { c, email, venue: res.body.venue as { id: string; slug: string; name: string } };
}
