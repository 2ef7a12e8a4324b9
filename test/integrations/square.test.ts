// The Square connector (D26) against a local stand-in of Square's API built from its published schemas: signed
// webhooks, one check per order with figures worked out by hand, replays, guests and locations that match nothing,
// refunds, Square failing then recovering, the reconciliation pass, and two chains' connections kept apart.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Venue } from '../../src/modules/accounts/service.js';
import { runDue, type WorkContext } from '../../src/integrations/core/queue.js';
import { endpointUrlOf } from '../../src/integrations/core/service.js';
import { reconcile } from '../../src/integrations/square/reconcile.js';
import { PROVIDERS, startIntegrationWorker, workContext } from '../../src/integrations/worker.js';
import { useTestApp } from '../support/app.js';
import { createChainKey, createKey, createProgram, createVenue, newCardNumber } from '../support/factories.js';
import { client, expectError } from '../support/http.js';
import {
  SquareStandIn,
  signedSquareDelivery,
  squareCustomer,
  squareEvent,
  squareOrder,
  squarePayment,
  squareRefund,
} from '../support/square-stand-in.js';

const t = useTestApp();
const TOKEN = 'EAAAl-test-access-token-0123456789';
const SIGNATURE_KEY = 'sig-key-Ibxx_5AKakO-3qeNVR61Dw';
const EUR = (amount: number) => ({ amount, currency: 'EUR' });

let square: SquareStandIn;
let ctx: WorkContext;
beforeAll(async () => {
  square = await SquareStandIn.start({ accessToken: TOKEN });
  ctx = workContext(t.db, t.app.deps.secretBox, t.clock, { ...t.config, square: { apiUrl: square.url, reconcileIntervalMs: 60_000 } }, 300);
});
afterAll(() => square?.close());

/** A chain with one venue, a cashback program (Bronze 3 %), a member with a phone, and a Square connection mapping `location`. */
async function connected(location: string, phone = '+353 87 123 4567') {
  const venue = await createVenue(t);
  await createProgram(t, venue);
  const api = client(t, (await createKey(t, venue)).secret);
  const member = await api.post('/api/v1/members', { card_number: newCardNumber(), phone, consent: true });
  expect(member.status).toBe(201);
  const created = await api.post('/api/v1/integrations', {
    provider: 'square',
    locations: { [location]: venue.id },
    settings: { access_token: TOKEN, webhook_signature_key: SIGNATURE_KEY },
  });
  expect(created.status).toBe(201);
  return { venue, api, memberId: member.body.id as string, integration: created.body as { id: string; endpoint_url: string } };
}

/** Posts an event to the connection's endpoint, signed as Square signs it (for `url`, the connection's by default). */
async function deliver(integrationId: string, event: ReturnType<typeof squareEvent>, key = SIGNATURE_KEY) {
  const url = endpointUrlOf(t.config.publicBaseUrl, 'square', integrationId);
  const { body, headers } = signedSquareDelivery(key, url, event);
  return client(t, null).post(`/integrations/square/${integrationId}`, body, headers);
}

const log = async (api: ReturnType<typeof client>, id: string) => (await api.get(`/api/v1/integrations/${id}/log`)).body.data as Array<Record<string, any>>;
const checksOf = (venue: Venue) => t.db.selectFrom('transactions').selectAll().where('venue_id', '=', venue.id).execute();

/** An order of two lattes at 4.50 and a croissant at 3.50 less 0.50 off (12.00 before tax), paid by card with a 2.00 tip. */
function latteOrder(location: string, customerId?: string) {
  const at = t.clock.now().toISOString();
  const payment = squarePayment({ location_id: location, amount_money: EUR(1200), tip_money: EUR(200), customer_id: customerId, created_at: at, updated_at: at });
  const order = squareOrder({
    location_id: location,
    customer_id: customerId,
    line_items: [
      { name: 'Latte', quantity: '2', base_price_money: EUR(450), catalog_object_id: 'LATTE-VAR-1' },
      { name: 'Croissant', quantity: '1', base_price_money: EUR(350), total_discount_money: EUR(50) },
    ],
    tenders: [{ payment_id: payment.id, amount_money: EUR(1400), tip_money: EUR(200) }],
    state: 'COMPLETED',
    created_at: at,
  });
  Object.assign(order, { updated_at: at, closed_at: at });
  payment.order_id = order.id;
  square.addOrder(order);
  square.addPayment(payment);
  return { payment, order };
}

describe('Square connector', () => {
  it('a completed payment with line items and a matching customer: one check, 12.00 earning 3 % = 0.36, the tip earning nothing', async () => {
    const location = 'LOC-A1';
    const { venue, api, memberId, integration } = await connected(location);
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353871234567' }));
    const { payment, order } = latteOrder(location, customer.id);

    const res = await deliver(integration.id, squareEvent('payment.updated', payment));
    expect(res.status).toBe(200);
    expect(await runDue(ctx, PROVIDERS)).toBe(1);

    const [check, ...more] = await checksOf(venue);
    expect(more).toEqual([]);
    expect(check).toMatchObject({ external_id: `square:${payment.id}`, member_id: memberId, subtotal: 1200, paid: 1200, earned: 36, source: 'square' });
    expect(check!.metadata).toMatchObject({ payment_id: payment.id, order_id: order.id, location_id: location, customer_id: customer.id });
    expect(check!.line_items).toMatchObject([
      { sku: 'LATTE-VAR-1', name: 'Latte', quantity: 2, unit_price: 450, amount: 900 },
      { sku: null, name: 'Croissant', quantity: 1, unit_price: 300, amount: 300 },
    ]);
    const balance = await api.get(`/api/v1/members/${memberId}`);
    expect(balance.body.balance).toBe(36);
    const [entry] = await log(api, integration.id);
    expect(entry).toMatchObject({ kind: 'square.payment', outcome: 'applied', venue_id: venue.id, transaction_id: check!.id });
    expect(square.requests.every((r) => r.squareVersion === '2025-08-20')).toBe(true);
  });

  it('a wrong or missing signature is 401 and changes nothing but a log line; an unknown connection is 404', async () => {
    const location = 'LOC-B1';
    const { venue, api, integration } = await connected(location);
    const { payment } = latteOrder(location);
    expectError(await deliver(integration.id, squareEvent('payment.updated', payment), 'not-the-key'), 401, 'signature_invalid');
    const unsigned = await client(t, null).post(`/integrations/square/${integration.id}`, JSON.stringify(squareEvent('payment.updated', payment)), { 'content-type': 'application/json' });
    expectError(unsigned, 401, 'signature_invalid');
    expect(await runDue(ctx, PROVIDERS)).toBe(0);
    expect(await checksOf(venue)).toEqual([]);
    expect((await log(api, integration.id)).map((e) => e.outcome)).toEqual(['bad_signature', 'bad_signature']);
    expectError(await deliver('0190b5a8-0000-7000-8000-000000000000', squareEvent('payment.updated', payment)), 404, 'integration_not_found');
    expectError(await deliver('not-a-uuid', squareEvent('payment.updated', payment)), 404, 'integration_not_found');
  });

  it('replays change nothing: the same event twice, payment.created then payment.updated, and a second completed event', async () => {
    const location = 'LOC-C1';
    const { venue, api, integration } = await connected(location, '+353 87 222 0001');
    const customer = square.addCustomer(squareCustomer({ phone_number: '087 222 0001' }));
    const { payment } = latteOrder(location, customer.id);
    const created = squareEvent('payment.created', { ...payment, status: 'APPROVED' });
    const completed = squareEvent('payment.updated', payment);
    for (const event of [created, completed, completed, squareEvent('payment.updated', payment)]) expect((await deliver(integration.id, event)).status).toBe(200);
    expect(await runDue(ctx, PROVIDERS)).toBe(2);
    expect(await checksOf(venue)).toHaveLength(1);
    expect((await log(api, integration.id)).map((e) => e.outcome).sort()).toEqual(['applied', 'replayed']);
  });

  it('an unmatched guest, a guest matching two members and an unmapped location are logged, never applied', async () => {
    const location = 'LOC-D1';
    const { venue, api, integration } = await connected(location, '+353 87 333 0001');
    await api.post('/api/v1/members', { card_number: newCardNumber(), phone: '+353 87 333 0002', consent: true });
    const card = 'CARD-D1-77';
    await api.post('/api/v1/members', { card_number: card, consent: true });
    await api.post('/api/v1/members', { card_number: newCardNumber(), phone: '+353 87 333 0002', consent: true });
    const stranger = square.addCustomer(squareCustomer({ phone_number: '+353 87 999 9999' }));
    const twice = square.addCustomer(squareCustomer({ phone_number: '+353873330002' }));
    const byCard = square.addCustomer(squareCustomer({ reference_id: card }));
    const none = latteOrder(location);
    const unmatched = latteOrder(location, stranger.id);
    const ambiguous = latteOrder(location, twice.id);
    const carded = latteOrder(location, byCard.id);
    const elsewhere = squarePayment({ location_id: 'LOC-UNMAPPED', amount_money: EUR(500), customer_id: byCard.id, created_at: t.clock.now().toISOString() });
    for (const p of [none.payment, unmatched.payment, ambiguous.payment, carded.payment, elsewhere]) await deliver(integration.id, squareEvent('payment.updated', p));
    expect(await runDue(ctx, PROVIDERS)).toBe(5);
    const outcomes = Object.fromEntries((await log(api, integration.id)).map((e) => [e.provider_ids.payment_id, e.outcome]));
    expect(outcomes).toEqual({
      [none.payment.id]: 'unmatched_guest',
      [unmatched.payment.id]: 'unmatched_guest',
      [ambiguous.payment.id]: 'ambiguous_guest',
      [carded.payment.id]: 'applied',
      [elsewhere.id]: 'unknown_location',
    });
    expect((await checksOf(venue)).map((c) => c.external_id)).toEqual([`square:${carded.payment.id}`]);
  });

  it('a customer whose phone matches no member is matched by e-mail (any case), before the card; a second chain\'s member with that e-mail is not found', async () => {
    const location = 'LOC-E1';
    const { venue, api, integration } = await connected(location, '+353 87 333 1001');
    const byEmail = await api.post('/api/v1/members', { card_number: newCardNumber(), email: 'Guest.E1@Example.com', consent: true });
    expect(byEmail.status).toBe(201);
    const card = 'CARD-E1-77';
    const carded = await api.post('/api/v1/members', { card_number: card, consent: true });
    // Another chain's member with the same e-mail: not this connection's guest.
    const other = await createVenue(t);
    await createProgram(t, other);
    expect((await client(t, (await createKey(t, other)).secret).post('/api/v1/members', { card_number: newCardNumber(), email: 'guest.e2@example.com', consent: true })).status).toBe(201);
    const guest = square.addCustomer(squareCustomer({ phone_number: '+353 87 999 1001', email_address: ' GUEST.e1@example.COM ', reference_id: card }));
    const foreign = square.addCustomer(squareCustomer({ phone_number: '+353 87 999 1002', email_address: 'guest.e2@example.com' }));
    const matched = latteOrder(location, guest.id);
    const unmatched = latteOrder(location, foreign.id);
    for (const p of [matched.payment, unmatched.payment]) await deliver(integration.id, squareEvent('payment.updated', p));
    expect(await runDue(ctx, PROVIDERS)).toBe(2);
    const outcomes = Object.fromEntries((await log(api, integration.id)).map((e) => [e.provider_ids.payment_id, e.outcome]));
    expect(outcomes).toEqual({ [matched.payment.id]: 'applied', [unmatched.payment.id]: 'unmatched_guest' });
    const checks = await checksOf(venue);
    expect(checks.map((c) => [c.external_id, c.member_id])).toEqual([[`square:${matched.payment.id}`, byEmail.body.id]]);
    expect(checks[0]!.member_id).not.toBe(carded.body.id);
  });

  it('a completed refund of 7.00 of the 14.00 paid (tip included) refunds half the check, 6.00, taking back 0.18; the same refund again changes nothing', async () => {
    const location = 'LOC-E1';
    const { venue, api, memberId, integration } = await connected(location, '+353 87 444 0001');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353874440001' }));
    const { payment } = latteOrder(location, customer.id);
    await deliver(integration.id, squareEvent('payment.updated', payment));
    await runDue(ctx, PROVIDERS);
    const refund = squareRefund({ payment_id: payment.id, location_id: location, amount_money: EUR(700), status: 'COMPLETED', created_at: t.clock.now().toISOString() });
    await deliver(integration.id, squareEvent('refund.updated', { ...refund, status: 'PENDING' }));
    await deliver(integration.id, squareEvent('refund.updated', refund));
    await deliver(integration.id, squareEvent('refund.updated', refund));
    expect(await runDue(ctx, PROVIDERS)).toBe(2);
    const [check] = await checksOf(venue);
    expect(check).toMatchObject({ refunded_amount: 600, earned_reversed: 18 });
    expect((await api.get(`/api/v1/members/${memberId}`)).body.balance).toBe(18);
    expect((await log(api, integration.id)).map((e) => e.outcome)).toEqual(expect.arrayContaining(['refunded', 'replayed']));
  });

  it('an order paid 5.00 by gift card and 9.00 by card (2.00 tip): 7.00 earns 0.21; a refund to the gift card takes nothing back, the card\'s refund all of it', async () => {
    const location = 'LOC-E3';
    const { venue, api, memberId, integration } = await connected(location, '+353 87 444 0003');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353874440003' }));
    const at = t.clock.now().toISOString();
    const giftCard = square.addPayment(squarePayment({ location_id: location, amount_money: EUR(500), customer_id: customer.id, created_at: at }));
    const card = square.addPayment(squarePayment({ location_id: location, amount_money: EUR(700), tip_money: EUR(200), customer_id: customer.id, created_at: at }));
    const order = square.addOrder(
      squareOrder({
        location_id: location,
        customer_id: customer.id,
        line_items: [
          { name: 'Latte', quantity: '2', base_price_money: EUR(450), catalog_object_id: 'LATTE-VAR-1' },
          { name: 'Croissant', quantity: '1', base_price_money: EUR(350), total_discount_money: EUR(50) },
        ],
        tenders: [
          { type: 'SQUARE_GIFT_CARD', payment_id: giftCard.id, amount_money: EUR(500) },
          { type: 'CARD', payment_id: card.id, amount_money: EUR(900), tip_money: EUR(200) },
        ],
        state: 'COMPLETED',
        created_at: at,
      }),
    );
    Object.assign(giftCard, { order_id: order.id });
    Object.assign(card, { order_id: order.id });
    await deliver(integration.id, squareEvent('payment.updated', card));
    await runDue(ctx, PROVIDERS);
    // 12.00 of lines less the gift card's 5.00 in proportion (latte 9.00 − 3.75, croissant 3.00 − 1.25): 3 % of 5.25 and 1.75.
    expect((await checksOf(venue))[0]).toMatchObject({ paid: 700, earned: 15 + 5 });
    const refund = (payment: { id: string }, amount: number) =>
      squareRefund({ payment_id: payment.id, location_id: location, amount_money: EUR(amount), status: 'COMPLETED', created_at: t.clock.now().toISOString() });
    await deliver(integration.id, squareEvent('refund.updated', refund(giftCard, 500)));
    await runDue(ctx, PROVIDERS);
    expect((await checksOf(venue))[0]).toMatchObject({ refunded_amount: 0 });
    expect((await log(api, integration.id))[0]).toMatchObject({ outcome: 'ignored', message: expect.stringContaining('gift card') });
    await deliver(integration.id, squareEvent('refund.updated', refund(card, 900)));
    await runDue(ctx, PROVIDERS);
    expect((await checksOf(venue))[0]).toMatchObject({ refunded_amount: 700, earned_reversed: 20 });
    expect((await api.get(`/api/v1/members/${memberId}`)).body.balance).toBe(0);
  });

  it('a refund handled before its payment could apply waits, and follows once the payment applies', async () => {
    const location = 'LOC-E2';
    const { venue, api, integration } = await connected(location, '+353 87 444 0002');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353874440002' }));
    const { payment } = latteOrder(location, customer.id);
    const refund = squareRefund({ payment_id: payment.id, location_id: location, amount_money: EUR(1400), status: 'COMPLETED', created_at: t.clock.now().toISOString() });
    await deliver(integration.id, squareEvent('payment.updated', payment));
    await deliver(integration.id, squareEvent('refund.updated', refund));
    square.failNext(1, { status: 500 });
    expect(await runDue(ctx, PROVIDERS)).toBe(2);
    expect((await log(api, integration.id)).map((e) => e.outcome).sort()).toEqual(['provider_error', 'waiting']);
    t.clock.advance(60_000);
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    const [check] = await checksOf(venue);
    expect(check).toMatchObject({ paid: 1200, refunded_amount: 1200, earned: 36, earned_reversed: 36 });
    expect((await log(api, integration.id)).map((e) => e.outcome).sort()).toEqual(['applied', 'refunded']);
  });

  it('Square failing with 500, 429 and a timeout is retried with backoff, then applied once it answers', async () => {
    const location = 'LOC-F1';
    const { venue, api, integration } = await connected(location, '+353 87 555 0001');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353875550001' }));
    const { payment } = latteOrder(location, customer.id);
    await deliver(integration.id, squareEvent('payment.updated', payment));
    for (const fault of [{ status: 500 as const }, { status: 429 as const }, 'timeout' as const]) {
      square.failNext(1, fault);
      expect(await runDue(ctx, PROVIDERS)).toBe(1);
      const [entry] = await log(api, integration.id);
      expect(entry).toMatchObject({ outcome: 'provider_error' });
      expect(await runDue(ctx, PROVIDERS)).toBe(0);
      t.clock.advance(60 * 60_000);
    }
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    expect(await checksOf(venue)).toHaveLength(1);
    expect((await log(api, integration.id))[0]).toMatchObject({ outcome: 'applied', attempts: 4 });
  });

  it('a payment Square never sent as a webhook is applied by the reconciliation pass, once, and a webhook one is left alone', async () => {
    const location = 'LOC-G1';
    const { venue, api, integration } = await connected(location, '+353 87 666 0001');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353876660001' }));
    t.clock.advance(60_000);
    const missed = latteOrder(location, customer.id);
    const seen = latteOrder(location, customer.id);
    await deliver(integration.id, squareEvent('payment.updated', seen.payment));
    await runDue(ctx, PROVIDERS);
    t.clock.advance(5 * 60_000);
    const row = await t.db.selectFrom('integrations').selectAll().where('id', '=', integration.id).executeTakeFirstOrThrow();
    await reconcile(ctx, row);
    await reconcile(ctx, { ...row, reconciled_until: {} });
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    expect((await checksOf(venue)).map((c) => c.external_id).sort()).toEqual([`square:${missed.payment.id}`, `square:${seen.payment.id}`].sort());
    expect((await log(api, integration.id))[0]).toMatchObject({ outcome: 'applied', message: expect.stringContaining('Applied'), provider_ids: { payment_id: missed.payment.id } });
  });

  it('a payment authorised in one pass\'s window and captured in a later one, its webhooks missed, is applied by the pass after its capture', async () => {
    const location = 'LOC-G2';
    const { venue, integration } = await connected(location, '+353 87 666 0002');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353876660002' }));
    const row = () => t.db.selectFrom('integrations').selectAll().where('id', '=', integration.id).executeTakeFirstOrThrow();
    t.clock.advance(60_000);
    const { payment } = latteOrder(location, customer.id);
    square.updatePayment(payment.id, { status: 'APPROVED', updated_at: payment.created_at });
    t.clock.advance(5 * 60_000);
    await reconcile(ctx, await row());
    expect(await runDue(ctx, PROVIDERS)).toBe(0);
    // Captured at the end of the evening, an hour later (Square's delayed capture, the tip added).
    t.clock.advance(60 * 60_000);
    square.updatePayment(payment.id, { status: 'COMPLETED', updated_at: t.clock.now().toISOString() });
    t.clock.advance(5 * 60_000);
    await reconcile(ctx, await row());
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    expect((await checksOf(venue)).map((c) => c.external_id)).toEqual([`square:${payment.id}`]);
  });

  it('the worker of the process applies a queued payment without being called', async () => {
    const location = 'LOC-K1';
    const { venue, integration } = await connected(location, '+353 87 111 0009');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353871110009' }));
    const worker = startIntegrationWorker(ctx, 60 * 60_000, { error: (obj) => expect.fail(JSON.stringify(obj)) });
    try {
      await deliver(integration.id, squareEvent('payment.updated', latteOrder(location, customer.id).payment));
      await vi.waitFor(async () => expect(await checksOf(venue)).toHaveLength(1), { timeout: 5000 });
    } finally {
      await worker.stop();
    }
  });

  it("two chains' connections never see each other's data: not the connection, its log, nor a payment at the other's location", async () => {
    const one = await connected('LOC-H1', '+353 87 777 0001');
    const two = await connected('LOC-H2', '+353 87 777 0001');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353877770001' }));
    const { payment } = latteOrder('LOC-H2', customer.id);
    await deliver(one.integration.id, squareEvent('payment.updated', payment));
    await runDue(ctx, PROVIDERS);
    expect(await checksOf(one.venue)).toEqual([]);
    expect(await checksOf(two.venue)).toEqual([]);
    expect((await log(one.api, one.integration.id))[0]).toMatchObject({ outcome: 'unknown_location' });
    expectError(await one.api.get(`/api/v1/integrations/${two.integration.id}`), 404, 'integration_not_found');
    expectError(await one.api.get(`/api/v1/integrations/${two.integration.id}/log`), 404, 'integration_not_found');
    expectError(await one.api.patch(`/api/v1/integrations/${one.integration.id}`, { locations: { 'LOC-H2': two.venue.id } }), 404, 'venue_not_found');
    expect((await one.api.get('/api/v1/integrations')).body.data.map((i: { id: string }) => i.id)).toEqual([one.integration.id]);
  });
});

describe('/v1/integrations', () => {
  it('secrets are write-only (…last4 after creation), changes are audited without them, and pausing applies nothing', async () => {
    const { venue, api, integration } = await connected('LOC-I1', '+353 87 888 0001');
    const got = await api.get(`/api/v1/integrations/${integration.id}`);
    expect(got.body).toMatchObject({ object: 'integration', provider: 'square', status: 'active', settings: { access_token: '…6789', webhook_signature_key: '…61Dw' } });
    expect(JSON.stringify(got.body)).not.toContain(TOKEN);
    expect(got.body.endpoint_url).toBe(`http://localhost:3000/integrations/square/${integration.id}`);
    expect(got.body.rules).toMatchObject({ card_scan_required: false, max_check_age_seconds: null });
    const paused = await api.patch(`/api/v1/integrations/${integration.id}`, { status: 'paused', settings: { access_token: 'EAAA-new-token-9999' } });
    expect(paused.body).toMatchObject({ status: 'paused', settings: { access_token: '…9999' } });
    const audit = await api.get('/api/v1/audit_events');
    const entries = audit.body.data.filter((e: { target: { id: string } }) => e.target.id === integration.id);
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['integration.updated', 'integration.created']);
    expect(JSON.stringify(entries)).not.toContain('EAAA');
    // Paused: a matched guest's completed payment is answered and logged, and applies nothing.
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353878880001' }));
    expect((await deliver(integration.id, squareEvent('payment.updated', latteOrder('LOC-I1', customer.id).payment))).status).toBe(200);
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    expect((await log(api, integration.id))[0]).toMatchObject({ outcome: 'ignored', message: expect.stringContaining('paused') });
    expect(await checksOf(venue)).toEqual([]);
    expect(expectError(await api.post('/api/v1/integrations', { provider: 'square', settings: { webhook_signature_key: SIGNATURE_KEY } }), 400, 'parameter_invalid')).toMatchObject({ param: 'settings.access_token' });
    expect((await api.delete(`/api/v1/integrations/${integration.id}`)).body).toEqual({ object: 'integration', id: integration.id, deleted: true });
    expectError(await api.get(`/api/v1/integrations/${integration.id}`), 404, 'integration_not_found');
  });

  it("a venue's key sees only connections made for its venue; a location another connection maps is refused", async () => {
    const { venue, api, integration } = await connected('LOC-L1', '+353 87 121 0001');
    const chain = client(t, (await createChainKey(t, venue.chainId)).secret);
    const chainWide = await chain.post('/api/v1/integrations', { provider: 'square', settings: { access_token: TOKEN, webhook_signature_key: SIGNATURE_KEY } });
    expect(chainWide.status).toBe(201);
    expectError(await api.get(`/api/v1/integrations/${chainWide.body.id}`), 404, 'integration_not_found');
    expect((await api.get('/api/v1/integrations')).body.data.map((i: { id: string }) => i.id)).toEqual([integration.id]);
    expect((await chain.get('/api/v1/integrations')).body.data.map((i: { id: string }) => i.id).sort()).toEqual([integration.id, chainWide.body.id].sort());
    const twice = expectError(await chain.patch(`/api/v1/integrations/${chainWide.body.id}`, { locations: { 'LOC-L1': venue.id } }), 400, 'parameter_invalid');
    expect(twice).toMatchObject({ param: 'locations.LOC-L1' });
  });

  it('a signed payload with text PostgreSQL cannot store (NUL) is queued without it, and applied', async () => {
    const location = 'LOC-M1';
    const { venue, integration } = await connected(location, '+353 87 131 0001');
    const customer = square.addCustomer(squareCustomer({ phone_number: '+353871310001' }));
    const { payment } = latteOrder(location, customer.id);
    const res = await deliver(integration.id, squareEvent('payment.updated', { ...payment, note: 'table 4\u0000' } as typeof payment));
    expect(res.status).toBe(200);
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    expect(await checksOf(venue)).toHaveLength(1);
  });

  it('"try again" queues an entry that found no guest once more; a refused request cannot be', async () => {
    const location = 'LOC-J1';
    const { api, integration } = await connected(location, '+353 87 999 0001');
    const { payment } = latteOrder(location);
    await deliver(integration.id, squareEvent('payment.updated', payment));
    await runDue(ctx, PROVIDERS);
    const [entry] = await log(api, integration.id);
    expect(entry).toMatchObject({ outcome: 'unmatched_guest', retryable: true });
    const retried = await api.post(`/api/v1/integrations/${integration.id}/log/${entry!.id}/retry`);
    expect(retried.body).toMatchObject({ outcome: 'queued', attempts: 0 });
    expect(await runDue(ctx, PROVIDERS)).toBe(1);
    expect((await log(api, integration.id))[0]).toMatchObject({ id: entry!.id, outcome: 'unmatched_guest', attempts: 1 });
    await deliver(integration.id, squareEvent('payment.updated', payment), 'not-the-key');
    const [refused] = await log(api, integration.id);
    expect(refused).toMatchObject({ outcome: 'bad_signature', retryable: false });
    expectError(await api.post(`/api/v1/integrations/${integration.id}/log/${refused!.id}/retry`), 409, 'integration_entry_not_retryable');
  });
});
