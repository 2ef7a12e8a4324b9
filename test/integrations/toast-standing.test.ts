// A Toast check's standing (D26) across REDEEM, INQUIRE, ACCRUE and REVERSE in the orders Toast sends them: each
// REVERSE takes back what its own transaction still does, a check's own redemption is not counted as spent, only our
// live discounts count, and Toast's answers pass its schema. Money worked out by hand (Bronze 3 %, member at 10.00).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { newCardNumber, PROGRAM_SETTINGS, seedLedger } from '../support/factories.js';
import { callToast, checksOf, dinner, toastConnected, type ToastConnected } from '../support/toast-connection.js';
import {
  accrueBody,
  checkWithLoyaltyDiscount,
  inquireBody,
  redeemBody,
  reverseBody,
  signupBody,
  toastCheck,
  toastKeys,
  toastRedemption,
  type ToastCheck,
  type ToastLoyaltyTransaction,
  type ToastTransactionType,
} from '../support/toast-pos.js';

const t = useTestApp();
const toast = (c: ToastConnected, type: ToastTransactionType, body: ToastLoyaltyTransaction, guid = randomUUID()) => callToast(t, c, type, body, { guid });
const statuses = async (c: ToastConnected) => (await checksOf(t, c)).map((x) => [x.status, Number(x.redeemed), Number(x.earned)]);
const cashback = (amount: number, extra: { quantity?: number; appliedDiscountGuid?: string } = {}) => toastRedemption({ identifier: 'cashback', amount, ...extra });
const closed = (check: ToastCheck): ToastCheck => ({ ...check, paymentStatus: 'CLOSED' });
const ACCEPT = { transactionStatus: 'ACCEPT' };
/** Burger 12.00, two fries at 4.00 and a cake at 10.00: 30.00. */
const withCake = (guid: string) =>
  toastCheck({ guid, selections: [{ name: 'Burger', price: 12, quantity: 1 }, { name: 'Fries', price: 8, quantity: 2 }, { name: 'Cake', price: 10, quantity: 1 }] });

describe('Toast check standing', () => {
  it('REVERSE of the REDEEM after ACCRUE gives 5.00 back and the check stands unredeemed, 20.00 earning 0.60 (10.60); REVERSE of the ACCRUE then voids it (10.00)', async () => {
    const c = await toastConnected(t);
    const redemption = cashback(5);
    const check = checkWithLoyaltyDiscount(dinner(), redemption);
    const [redeemGuid, accrueGuid] = [randomUUID(), randomUUID()];
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [redemption]), redeemGuid);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(check)), accrueGuid);
    expect(await c.balance()).toBe(545);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid));
    expect(await c.balance()).toBe(1060);
    expect(await statuses(c)).toEqual([['voided', 500, 45], ['completed', 0, 60]]);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid));
    expect(await c.balance()).toBe(1000);
    expect(await statuses(c)).toEqual([['voided', 500, 45], ['voided', 0, 60]]);
  });

  it('a payment changed (ACCRUE again under a new GUID, then REVERSE of the first): the check stands as the second ACCRUE left it (10.60)', async () => {
    const c = await toastConnected(t);
    const check = closed(dinner());
    const [first, second] = [randomUUID(), randomUUID()];
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, check), first);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, check), second);
    expect((await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, first))).body).toEqual({ transactionStatus: 'ACCEPT' });
    expect(await c.balance()).toBe(1060);
    expect(await statuses(c)).toEqual([['completed', 0, 60]]);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, second));
    expect(await c.balance()).toBe(1000);
  });

  it('REVERSE naming one of two 2.50 redemptions gives 2.50 back: 17.50 paid with 2.50 redeemed earning 0.31 + 0.21 (8.02)', async () => {
    const c = await toastConnected(t);
    const redemption = cashback(2.5, { quantity: 2 });
    const redeemGuid = randomUUID();
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, checkWithLoyaltyDiscount(dinner(), redemption), [redemption]), redeemGuid);
    expect(await c.balance()).toBe(545);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid, [cashback(2.5)]));
    // 2.50 spread 1.50 / 1.00 over burger and fries: 3 % of 10.50 is 0.315 → 0.31, of 7.00 is 0.21.
    expect(await c.balance()).toBe(1000 - 250 + 31 + 21);
    expect(await statuses(c)).toEqual([['voided', 500, 45], ['completed', 250, 52]]);
  });

  it('a second REDEEM listing the 3.00 taken before and 2.00 more makes the check\'s redemption 5.00, one check standing (5.45)', async () => {
    const c = await toastConnected(t);
    const first = cashback(3, { appliedDiscountGuid: randomUUID() });
    const onceRedeemed = checkWithLoyaltyDiscount(dinner(), first);
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, onceRedeemed, [first]));
    // 3.00 spread 1.80 / 1.20: 3 % of 10.20 → 0.30, of 6.80 → 0.20.
    expect(await c.balance()).toBe(1000 - 300 + 50);
    const more = cashback(2);
    const answer = await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, checkWithLoyaltyDiscount(onceRedeemed, more), [first, more]));
    expect(answer.body.checkResponse).toMatchObject({ appliedRedemptions: [first, more], rejectedRedemptions: [] });
    expect(await c.balance()).toBe(545);
    expect(await statuses(c)).toEqual([['voided', 300, 50], ['completed', 500, 45]]);
  });

  it('INQUIRE after REDEEM of 8.00 counts the check\'s own redemption as its own: applied, offered up to 10.00, nothing written', async () => {
    const c = await toastConnected(t);
    const redemption = cashback(8, { appliedDiscountGuid: randomUUID() });
    const check = checkWithLoyaltyDiscount(dinner(), redemption);
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [redemption]));
    // 8.00 spread 4.80 / 3.20: 3 % of 7.20 → 0.21, of 4.80 → 0.14; 2.35 left, less than the 8.00 on the check.
    expect(await c.balance()).toBe(235);
    const inquired = await toast(c, 'LOYALTY_INQUIRE', inquireBody(c.memberId, check, [redemption]));
    expect(inquired.body.checkResponse).toMatchObject({ appliedRedemptions: [redemption], rejectedRedemptions: [], offers: [{ identifier: 'cashback', amount: 10 }] });
    expect(await c.balance()).toBe(235);
    expect(await statuses(c)).toEqual([['completed', 800, 35]]);
  });

  it('ACCRUE of a check that shrank below what its 10.00 redemption may pay (50 % of 12.00) keeps the check REDEEM applied, ACCEPT, and logs why', async () => {
    const c = await toastConnected(t, undefined, { settings: { ...PROGRAM_SETTINGS.cashback, max_redeem_percent: 50 } });
    const redemption = cashback(10);
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, checkWithLoyaltyDiscount(dinner(), redemption), [redemption]));
    // 10.00 spread 6.00 / 4.00: 3 % of 6.00 and of 4.00.
    expect(await c.balance()).toBe(30);
    const burgerOnly = toastCheck({ selections: [{ name: 'Burger', price: 12, quantity: 1 }] });
    const accrued = await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(checkWithLoyaltyDiscount({ ...burgerOnly, guid: dinnerGuidOf(await checksOf(t, c)) }, redemption))));
    expect(accrued.body).toMatchObject({ transactionStatus: 'ACCEPT' });
    expect(await c.balance()).toBe(30);
    expect(await statuses(c)).toEqual([['completed', 1000, 30]]);
    const log = (await c.api.get(`/api/v1/integrations/${c.integrationId}/log`)).body.data;
    expect(log[0]).toMatchObject({ kind: 'toast.accrue', message: expect.stringContaining('refused') });
  });

  it('only our live discounts count as the redemption: one VOID, one on a voided line, and the venue\'s own (another referenceId) stay what they are', async () => {
    const c = await toastConnected(t);
    const base = toastCheck({ selections: [{ name: 'Burger', price: 11, quantity: 1 }, { name: 'Fries', price: 8, quantity: 2 }, { name: 'Cake', price: 3, quantity: 1 }] });
    const discount = (amount: number, referenceId: string, processingState: 'APPLIED' | 'VOID' = 'APPLIED') => ({
      guid: randomUUID(), entityType: 'AppliedLoyaltyProviderDiscount', discountAmount: amount, processingState, loyaltyDetails: { vendor: 'INTEGRATION' as const, referenceId },
    });
    const check: ToastCheck = {
      ...base,
      appliedDiscounts: [discount(2, 'cashback', 'VOID')],
      selections: [
        { ...base.selections[0]!, appliedDiscounts: [discount(1, 'house-reward')] },
        base.selections[1]!,
        { ...base.selections[2]!, voided: true, appliedDiscounts: [discount(1, 'cashback')] } as ToastCheck['selections'][number],
      ],
    };
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(check)));
    // Burger at its net 11.00 and fries 8.00, nothing redeemed: 3 % of 11.00 and of 8.00.
    expect(await statuses(c)).toEqual([['completed', 0, 33 + 24]]);
    expect(await c.balance()).toBe(1057);
  });

  it('the check ACCRUEd for another guest moves to them: the first guest back at 10.00, the second earns 0.60', async () => {
    const c = await toastConnected(t);
    const other = (await c.api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    const check = closed(dinner());
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, check));
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(other.id, check));
    expect([await c.balance(), await c.balanceOf(other.id)]).toEqual([1000, 60]);
    expect((await checksOf(t, c)).map((x) => [x.status, x.member_id])).toEqual([['voided', c.memberId], ['completed', other.id]]);
  });

  it('a REVERSE that arrives before its ACCRUE is refused without being kept: sent again with its GUID, it reverses', async () => {
    const c = await toastConnected(t);
    const [accrueGuid, reverseGuid] = [randomUUID(), randomUUID()];
    const early = await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid), reverseGuid);
    expect([early.status, early.body]).toEqual([400, { transactionStatus: 'ERROR_TRANSACTION_DOES_NOT_EXIST' }]);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(dinner())), accrueGuid);
    expect(await c.balance()).toBe(1060);
    expect((await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid), reverseGuid)).body).toEqual({ transactionStatus: 'ACCEPT' });
    expect(await c.balance()).toBe(1000);
  });

  it('answers Toast\'s schema takes: no nulls echoed, and a rejected redemption names its discount on the check', async () => {
    const c = await toastConnected(t);
    const guid = randomUUID();
    const sent = { ...cashback(12.5), selectionGuid: null, appliedDiscountGuid: null } as unknown as ReturnType<typeof cashback>;
    const check = checkWithLoyaltyDiscount(dinner(), { ...cashback(12.5), appliedDiscountGuid: guid });
    const rejected = await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [sent]));
    expect(rejected.body.checkResponse.rejectedRedemptions).toEqual([{ redemption: { identifier: 'cashback', amount: 12.5, quantity: 1, appliedDiscountGuid: guid }, message: expect.any(String) }]);
    const fits = { ...cashback(5), selectionGuid: null } as unknown as ReturnType<typeof cashback>;
    const applied = await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, checkWithLoyaltyDiscount(dinner(), cashback(5)), [fits]));
    expect(applied.body.checkResponse.appliedRedemptions).toEqual([{ identifier: 'cashback', amount: 5, quantity: 1 }]);
  });

  it('REVERSE of an ACCRUE that brought its own 5.00 redemption (no REDEEM: Toast sends none offline) gives it back: 10.00', async () => {
    const c = await toastConnected(t);
    const accrueGuid = randomUUID();
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(checkWithLoyaltyDiscount(dinner(), cashback(5)))), accrueGuid);
    expect(await c.balance()).toBe(545);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid));
    expect(await c.balance()).toBe(1000);
  });

  it('REVERSE of a 3.00 REDEEM whose final check carried 5.00 gives back its own 3.00: 2.00 stays redeemed (10.80 and 7.20 earn 0.32 + 0.21: 8.53)', async () => {
    const c = await toastConnected(t);
    const redeemGuid = randomUUID();
    const check = checkWithLoyaltyDiscount(dinner(), cashback(3));
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [cashback(3)]), redeemGuid);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed({ ...checkWithLoyaltyDiscount(dinner(), cashback(5)), guid: check.guid })));
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid));
    expect(await c.balance()).toBe(1000 - 200 + 32 + 21);
  });

  it('REVERSE of the REDEEM after its final check was refused makes the final check stand unredeemed (12.00 earning 0.36: 10.36)', async () => {
    const c = await toastConnected(t, undefined, { settings: { ...PROGRAM_SETTINGS.cashback, max_redeem_percent: 50 } });
    const redeemGuid = randomUUID();
    const check = checkWithLoyaltyDiscount(dinner(), cashback(10));
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [cashback(10)]), redeemGuid);
    const burgerOnly = { ...toastCheck({ selections: [{ name: 'Burger', price: 12, quantity: 1 }] }), guid: check.guid };
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(checkWithLoyaltyDiscount(burgerOnly, cashback(10)))));
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid));
    expect(await c.balance()).toBe(1036);
  });

  it('a REDEEM for one guest and an ACCRUE refused for another (no cashback): reversing the REDEEM gives the first 10.00 back and the second earns 0.60', async () => {
    const c = await toastConnected(t);
    const other = (await c.api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body.id as string;
    const redeemGuid = randomUUID();
    const check = checkWithLoyaltyDiscount(dinner(), cashback(5));
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [cashback(5)]), redeemGuid);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(other, closed(check)));
    expect([await c.balance(), await c.balanceOf(other)]).toEqual([545, 0]);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid));
    expect([await c.balance(), await c.balanceOf(other)]).toEqual([1000, 60]);
  });

  it('REVERSE of an ACCRUE that added a 10.00 cake brings back the check REDEEM applied (5.74 back to 5.45)', async () => {
    const c = await toastConnected(t);
    const check = checkWithLoyaltyDiscount(dinner(), cashback(5));
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [cashback(5)]));
    const accrueGuid = randomUUID();
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(checkWithLoyaltyDiscount(withCake(check.guid), cashback(5)))), accrueGuid);
    // Toast takes 5.00 off as 2.01 / 1.33 / 1.66: 3 % of 9.99, 6.67 and 8.34 is 0.29 + 0.20 + 0.25.
    expect(await c.balance()).toBe(574);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid));
    expect(await c.balance()).toBe(545);
  });

  it('a 25.00 loyalty discount on a check of 20.00 before discounts redeems at most 20.00', async () => {
    const c = await toastConnected(t);
    await seedLedger(t, c.venue, { memberId: c.memberId, kind: 'import', cashback: 2000 });
    const d = dinner();
    const check: ToastCheck = closed({
      ...d,
      selections: d.selections.map((s) => ({ ...s, price: 0 })),
      appliedDiscounts: [{ guid: randomUUID(), entityType: 'AppliedLoyaltyProviderDiscount', discountAmount: 25, processingState: 'APPLIED', loyaltyDetails: { vendor: 'INTEGRATION', referenceId: 'cashback' } }],
    });
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, check));
    expect(await c.balance()).toBe(1000);
  });

  it('two checks changing guests at once, each way round, end applied for their new guests, never a 500', async () => {
    const c = await toastConnected(t);
    const other = (await c.api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body.id as string;
    const [first, second] = [closed(dinner()), closed(dinner())];
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(other, first));
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, second));
    for (let round = 0; round < 6; round++) {
      const [x, y] = round % 2 ? [other, c.memberId] : [c.memberId, other];
      const answers = await Promise.all([toast(c, 'LOYALTY_ACCRUE', accrueBody(x, first)), toast(c, 'LOYALTY_ACCRUE', accrueBody(y, second))]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
    }
    // Each guest ends with one of the two checks: 0.60 each.
    expect([await c.balance(), await c.balanceOf(other)]).toEqual([1060, 60]);
  });

  it('Toast voids a check whose guest spent the cashback elsewhere: both REVERSEs are accepted (a retry too) and everything is undone (5.74 − 5.74 + 5.00 − 0.74 = 4.26)', async () => {
    const c = await toastConnected(t);
    const check = checkWithLoyaltyDiscount(dinner(), cashback(5));
    const [redeemGuid, accrueGuid, reverseAccrue] = [randomUUID(), randomUUID(), randomUUID()];
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [cashback(5)]), redeemGuid);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(checkWithLoyaltyDiscount(withCake(check.guid), cashback(5)))), accrueGuid);
    expect(await c.balance()).toBe(574);
    await c.api.post('/api/v1/checks', { external_id: `elsewhere-${randomUUID()}`, member_id: c.memberId, redeem_amount: 574, line_items: [{ name: 'Gift', quantity: 1, unit_price: 574 }] });
    expect(await c.balance()).toBe(0);
    const answers = [
      await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid), reverseAccrue),
      await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid)),
      await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid), reverseAccrue),
    ];
    expect(answers.map((a) => a.body)).toEqual([ACCEPT, ACCEPT, ACCEPT]);
    expect(await c.balance()).toBe(426);
  });

  it('a REDEEM reversed after staff voided its check by hand is not taken again by a later refused final check', async () => {
    const c = await toastConnected(t, undefined, { settings: { ...PROGRAM_SETTINGS.cashback, max_redeem_percent: 50 } });
    const check = checkWithLoyaltyDiscount(dinner(), cashback(10));
    const redeemGuid = randomUUID();
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [cashback(10)]), redeemGuid);
    expect((await c.api.post(`/api/v1/transactions/${encodeURIComponent(`toast:${check.guid}`)}/void`)).status).toBe(200);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid));
    const burgerOnly = { ...toastCheck({ selections: [{ name: 'Burger', price: 12, quantity: 1 }] }), guid: check.guid };
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(checkWithLoyaltyDiscount(burgerOnly, cashback(10)))));
    // The 10.00 on the final check is more than half its 12.00 and no REDEEM stands for it: refused, nothing taken.
    expect(await c.balance()).toBe(1000);
  });

  it('two REDEEMs (3.00, then 3.00 again with 2.00 more), ACCRUE, REVERSE of the first naming its 3.00: 2.00 stays redeemed (8.53)', async () => {
    const c = await toastConnected(t);
    const a = cashback(3, { appliedDiscountGuid: randomUUID() });
    const once = checkWithLoyaltyDiscount(dinner(), a);
    const first = randomUUID();
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, once, [a]), first);
    const b = cashback(2, { appliedDiscountGuid: randomUUID() });
    const twice = checkWithLoyaltyDiscount(once, b);
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, twice, [a, b]));
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(twice)));
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, first, [a]));
    // 2.00 spread 1.20 / 0.80: 3 % of 10.80 and 7.20.
    expect(await c.balance()).toBe(1000 - 200 + 32 + 21);
  });

  it('a check applied again two hours later is judged as of when it was paid: its happy-hour bonus stays (8.89)', async () => {
    const c = await toastConnected(t);
    await c.api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5, ends_at: new Date(t.clock.now().getTime() + 3600_000).toISOString() });
    const redemption = cashback(2.5, { quantity: 2 });
    const check = checkWithLoyaltyDiscount(dinner(), redemption);
    const redeemGuid = randomUUID();
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [redemption]), redeemGuid);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(check)));
    expect(await c.balance()).toBe(620);
    t.clock.advance(2 * 3600_000);
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid, [cashback(2.5)]));
    // 17.50 paid (10.50 and 7.00): 3 % is 0.31 + 0.21, the bonus 5 % is 0.52 + 0.35.
    expect(await c.balance()).toBe(1000 - 250 + 52 + 87);
  });

  it('lines are rebuilt from Toast\'s own figures: 12 / 8 / 10 with 5.00 off (2.01 / 1.33 / 1.66), the redemption reversed, earn 0.36 + 0.24 + 0.30', async () => {
    const c = await toastConnected(t);
    const check = checkWithLoyaltyDiscount(withCake(randomUUID()), cashback(5));
    const redeemGuid = randomUUID();
    await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, check, [cashback(5)]), redeemGuid);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, closed(check)));
    await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid));
    expect(await c.balance()).toBe(1090);
    expect((await checksOf(t, c)).at(-1)).toMatchObject({ status: 'completed', subtotal: 3000, redeemed: 0 });
  });

  it('two SIGNUPs of one phone at once enrol one member; the other is ERROR_ALREADY_REGISTERED', async () => {
    const c = await toastConnected(t);
    const answers = await Promise.all([toast(c, 'LOYALTY_SIGNUP', signupBody({ phone: '0861230001' })), toast(c, 'LOYALTY_SIGNUP', signupBody({ phone: '0861230001' }))]);
    expect(answers.map((a) => a.body.transactionStatus).sort()).toEqual(['ACCEPT', 'ERROR_ALREADY_REGISTERED']);
    const found = await c.api.get('/api/v1/members?phone=%2B353861230001');
    expect(found.body.data).toHaveLength(1);
  });

  it('a restaurant GUID in capitals is the same restaurant; one named like an object\'s own property, and a JWT that never expires, are refused', async () => {
    const c = await toastConnected(t);
    expect((await callToast(t, c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, dinner()), { restaurant: c.restaurant.toUpperCase() })).status).toBe(200);
    for (const restaurant of ['constructor', '__proto__', 'toString']) {
      const res = await callToast(t, c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, dinner()), { restaurant });
      expect([res.status, res.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_RESTAURANT' }]);
    }
    const keys = await toastKeys();
    const jwt = await toastConnected(t, { public_key: keys.publicKeyPem });
    const forever = await keys.sign({ exp: undefined });
    const res = await callToast(t, jwt, 'LOYALTY_ACCRUE', accrueBody(jwt.memberId, dinner()), { authorization: forever });
    expect([res.status, res.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_TOKEN' }]);
    expect(await checksOf(t, jwt)).toEqual([]);
    expect(await checksOf(t, c)).toHaveLength(1);
  });
});

/** The Toast check guid a check of ours was applied for. */
const dinnerGuidOf = (rows: { metadata: unknown }[]) => (rows[0]!.metadata as { check_guid: string }).check_guid;
