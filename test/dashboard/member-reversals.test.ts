// Refunds and voids from a member's page (D27): the till's own rules and errors, the check found by its id exactly
// (numbering per register included), in its mode, repeated requests answered once, audited with the user; the
// member's activity shows the refund under its check.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, expectError, ok } from '../support/http.js';
import { needs } from '../support/services.js';
import { signedUpOwner } from './support.js';

const t = useTestApp();
const postgres = await needs('postgres');

async function ownerWithChecks() {
  const owner = await signedUpOwner(t, 'Refund Bistro');
  const key = async (body: Record<string, unknown>) => client(t, ok(await owner.c.post('/dashboard/api/api-keys', { name: 'Till', livemode: true, scopes: [], ...body }), 'key').body.secret as string);
  const till = await key({});
  const member = ok(await till.post('/api/v1/members', { consent: true, card_number: `RF-${randomBytes(3).toString('hex')}`, name: 'Aoife Byrne' }), 'member').body;
  const check = async (api: ReturnType<typeof client>, externalId: string, amount: number, extra: Record<string, unknown> = {}) =>
    ok(await api.post('/api/v1/checks', { external_id: externalId, member_id: member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }], ...extra }), externalId).body;
  return { ...owner, key, till, member, check };
}

describe("refunds and voids from a member's page", () => {
  it('refunds part of a check once however often it is sent, shows it under the check, and audits it with the user', async () => {
    const { c, till, member, check } = await ownerWithChecks();
    const paid = await check(till, 'R-1', 4_000);
    expect(paid.earned).toBeGreaterThan(0);
    const refund = await c.post(`/dashboard/api/transactions/${paid.id}/refunds`, { amount: 1_000, external_id: 'D-1' });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    // A quarter of the check: a quarter of what it earned, rounded down.
    expect(refund.body).toMatchObject({ object: 'refund', amount: 1_000, earned_reversed: Math.floor(paid.earned / 4), redeemed_returned: 0 });
    expect(refund.body.display.receipt.length).toBeGreaterThan(0);
    const again = await c.post(`/dashboard/api/transactions/${paid.id}/refunds`, { amount: 1_000, external_id: 'D-1' });
    expect(again.body.id).toBe(refund.body.id);
    expect((await till.get('/api/v1/transactions/R-1')).body.refunded_amount).toBe(1_000);

    // The till's own refusal, in the currency.
    const over = expectError(await c.post(`/dashboard/api/transactions/${paid.id}/refunds`, { amount: 3_001, external_id: 'D-2' }), 402, 'refund_exceeds_check');
    expect(over.message).toContain('€30.00');

    const activity = (await c.get(`/dashboard/api/members/${member.id}/activity`)).body.data;
    expect(activity).toMatchObject([{ type: 'check', reference: 'R-1', spend: 3_000, refunds: [{ external_id: 'D-1', amount: 1_000 }] }]);
    expect(activity[0].cashback).toBe(paid.earned - Math.floor(paid.earned / 4));

    const log = (await c.get('/dashboard/api/audit-events?action=transaction.refunded')).body.data;
    expect(log).toMatchObject([{ actor: { type: 'user' }, target: { type: 'transaction', id: paid.id }, changes: { check: [null, 'R-1'], refund: [null, 'D-1'], amount: [null, 1_000] } }]);
  });

  // On PostgreSQL the requests really run at once; the embedded database takes them one after another.
  postgres.it('five voids of one check at once: one void, audited once', async () => {
    const { c, till, check } = await ownerWithChecks();
    const paid = await check(till, 'VV-1', 2_500);
    const answers = await Promise.all(Array.from({ length: 5 }, () => c.post(`/dashboard/api/transactions/${paid.id}/void`)));
    expect(answers.map((a) => [a.status, a.body.status])).toEqual(Array.from({ length: 5 }, () => [200, 'voided']));
    expect((await c.get('/dashboard/api/audit-events?action=transaction.voided')).body.data).toHaveLength(1);
  });

  it('voids a check once, in its own mode, and audits it once', async () => {
    const { c, key, member, check } = await ownerWithChecks();
    const testTill = await key({ livemode: false });
    const paid = await check(testTill, 'V-1', 2_500);
    const voided = await c.post(`/dashboard/api/transactions/${paid.id}/void`);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body).toMatchObject({ id: paid.id, status: 'voided', livemode: false });
    expect((await c.post(`/dashboard/api/transactions/${paid.id}/void`)).body.status).toBe('voided');
    expect((await testTill.get(`/api/v1/members/${member.id}`)).body).toMatchObject({ balance: 0, total_spend: 0 });
    // The void's entries are in the test check's mode.
    const history = (await testTill.get(`/api/v1/members/${member.id}/history`)).body.data;
    expect(history.filter((e: { type: string }) => e.type === 'void')).toMatchObject([{ livemode: false }]);
    expect((await c.get('/dashboard/api/audit-events?action=transaction.voided')).body.data).toHaveLength(1);
  });

  it('finds the very check by its id where two registers numbered checks alike', async () => {
    const { c, key, check } = await ownerWithChecks();
    const perRegister = await key({ rules: { checks_numbered_per_register: true } });
    const first = await check(perRegister, 'N-1', 1_000, { register_id: 'till-1' });
    const second = await check(perRegister, 'N-1', 2_000, { register_id: 'till-2' });
    ok(await c.post(`/dashboard/api/transactions/${second.id}/refunds`, { amount: 500, external_id: 'D-1' }), 'refund');
    expect((await perRegister.get('/api/v1/transactions/N-1?register_id=till-2')).body).toMatchObject({ id: second.id, refunded_amount: 500 });
    expect((await perRegister.get('/api/v1/transactions/N-1?register_id=till-1')).body).toMatchObject({ id: first.id, refunded_amount: 0 });
    ok(await c.post(`/dashboard/api/transactions/${first.id}/void`), 'void');
    expect((await perRegister.get('/api/v1/transactions/N-1?register_id=till-2')).body.status).toBe('completed');
  });

  it("answers another venue's check, or none, as not found", async () => {
    const { c, till, check } = await ownerWithChecks();
    const paid = await check(till, 'O-1', 1_000);
    const added = await c.post('/dashboard/api/venues', { name: 'Refund Bistro Quay', slug: `quay-${randomBytes(3).toString('hex')}` });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    // The session now runs the new venue: the check is another venue's.
    expectError(await c.post(`/dashboard/api/transactions/${paid.id}/void`), 404, 'transaction_not_found');
    expectError(await c.post(`/dashboard/api/transactions/${paid.id}/refunds`, { amount: 100, external_id: 'D-1' }), 404, 'transaction_not_found');
    expectError(await c.post('/dashboard/api/transactions/not-an-id/void'), 404, 'transaction_not_found');
    expect(expectError(await c.post(`/dashboard/api/transactions/${paid.id}/refunds`, { amount: 0, external_id: 'D-1' }), 400, 'parameter_invalid').param).toBe('amount');
  });
});
