// A venue connected to Toast, and Toast's POS calling it: the fixtures the Toast tests share.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type * as programs from '../../src/modules/programs/service.js';
import type { TestApp } from './app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from './factories.js';
import { client } from './http.js';
import { toastCheck, toastHeaders, toastResponseValidator, type ToastLoyaltyTransaction, type ToastTransactionType } from './toast-pos.js';

export const TOAST_API_KEY = 'toast-static-key-0123456789abcdef0123456789';
const valid = toastResponseValidator();

/**
 * A venue with a cashback program (Bronze 3 %, `program` changes it), a member with 10.00 and a phone, and a Toast
 * connection for restaurant R.
 */
export async function toastConnected(t: TestApp, settings: Record<string, string> = { api_key: TOAST_API_KEY }, program: Partial<programs.NewProgram> = {}) {
  const venue = await createVenue(t);
  await createProgram(t, venue, 'cashback', program);
  const api = client(t, (await createKey(t, venue)).secret);
  const restaurant = randomUUID();
  const phone = `087${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
  const member = (await api.post('/api/v1/members', { card_number: newCardNumber(), phone, consent: true, name: 'Aoife Byrne' })).body;
  await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 1000 });
  const created = await api.post('/api/v1/integrations', { provider: 'toast', locations: { [restaurant]: venue.id }, settings });
  expect(created.status).toBe(201);
  const balanceOf = async (id: string) => (await api.get(`/api/v1/members/${id}`)).body.balance as number;
  return { venue, api, restaurant, phone, memberId: member.id as string, integrationId: created.body.id as string, balance: () => balanceOf(member.id), balanceOf };
}

export type ToastConnected = Awaited<ReturnType<typeof toastConnected>>;

/** Toast's POS calling the connection: its headers, the body as JSON; the answer checked against Toast's schema. */
export async function callToast(
  t: TestApp,
  c: ToastConnected,
  type: ToastTransactionType,
  body: ToastLoyaltyTransaction,
  options: { guid?: string; authorization?: string; restaurant?: string } = {},
) {
  const headers = toastHeaders({ type, guid: options.guid, restaurant: options.restaurant ?? c.restaurant, authorization: options.authorization ?? TOAST_API_KEY });
  const res = await client(t, null).post(`/integrations/toast/${c.integrationId}`, JSON.stringify(body), headers);
  expect(valid(res.body), JSON.stringify(res.body)).toEqual([]);
  return res;
}

/** Burger 12.00 and two fries at 4.00: 20.00. */
export const dinner = () => toastCheck({ selections: [{ name: 'Burger', price: 12, quantity: 1 }, { name: 'Fries', price: 8, quantity: 2 }] });

/** The venue's checks, oldest first, as stored. */
export const checksOf = async (t: TestApp, c: ToastConnected) => t.db.selectFrom('transactions').selectAll().where('venue_id', '=', c.venue.id).orderBy('created_at').execute();
