// Toast's Loyalty Integration API (D26) as Toast's POS calls it: every transaction type, each answer validated
// against Toast's published response schema, money worked out by hand to the cent, retries by GUID, concurrent
// ACCRUE of one check, credentials (static key and a throw-away RS256 key pair) and restaurants refused.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { callToast, checksOf as checksOfVenue, dinner, toastConnected, type ToastConnected } from '../support/toast-connection.js';
import {
  accrueBody,
  checkWithLoyaltyDiscount,
  inquireBody,
  redeemBody,
  reverseBody,
  searchBody,
  signupBody,
  toastCheck,
  toastKeys,
  toastRedemption,
  transferBody,
  type ToastLoyaltyTransaction,
  type ToastTransactionType,
} from '../support/toast-pos.js';

const t = useTestApp();
const connected = (settings?: Record<string, string>) => toastConnected(t, settings);
type Connected = ToastConnected;
const toast = (c: Connected, type: ToastTransactionType, body: ToastLoyaltyTransaction, options?: Parameters<typeof callToast>[4]) => callToast(t, c, type, body, options);
const checksOf = (c: Connected) => checksOfVenue(t, c);

describe('Toast loyalty', () => {
  it('SEARCH by phone finds the member (the id as identifier, 10.00 as pointsBalance); none is 404 ERROR_ACCOUNT_INVALID', async () => {
    const c = await connected();
    const found = await toast(c, 'LOYALTY_SEARCH', searchBody({ phone: c.phone }));
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      transactionStatus: 'ACCEPT',
      searchResponse: { accounts: [{ identifier: c.memberId, firstName: 'Aoife', lastName: 'Byrne', phone: expect.stringMatching(/^\+353/), pointsBalance: '10.00' }] },
    });
    const none = await toast(c, 'LOYALTY_SEARCH', searchBody({ phone: '0860000000' }));
    expect([none.status, none.body]).toEqual([404, { transactionStatus: 'ERROR_ACCOUNT_INVALID' }]);
  });

  it('INQUIRE offers cashback up to 10.00 on 20.00; REDEEM takes 5.00 at once, 15.00 paid earning 0.45; ACCRUE of that check changes nothing; REVERSE of the ACCRUE leaves the redemption, of the REDEEM gives it all back', async () => {
    const c = await connected();
    const check = dinner();
    const inquired = await toast(c, 'LOYALTY_INQUIRE', inquireBody(c.memberId, check));
    expect(inquired.body.checkResponse).toMatchObject({
      accountInfo: { identifier: c.memberId, pointsBalance: '10.00' },
      offers: [{ identifier: 'cashback', applicable: true, selectionType: 'CHECK', amount: 10 }],
      appliedRedemptions: [],
      rejectedRedemptions: [],
    });

    const redemption = toastRedemption({ identifier: 'cashback', amount: 5 });
    const withDiscount = checkWithLoyaltyDiscount(check, redemption);
    const redeemGuid = randomUUID();
    const redeemed = await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, withDiscount, [redemption]), { guid: redeemGuid });
    expect(redeemed.body).toMatchObject({ transactionStatus: 'ACCEPT', checkResponse: { appliedRedemptions: [redemption], rejectedRedemptions: [] } });
    // 10.00 − 5.00 redeemed + 3 % of 15.00 (burger 12.00 − 3.00, fries 8.00 − 2.00: 0.27 + 0.18).
    expect(await c.balance()).toBe(545);
    const [applied, ...others] = await checksOf(c);
    expect(others).toEqual([]);
    expect(applied).toMatchObject({ external_id: `toast:${check.guid}`, subtotal: 2000, redeemed: 500, paid: 1500, earned: 45, source: 'toast' });
    expect(applied!.metadata).toMatchObject({ check_guid: check.guid, transaction_guid: redeemGuid, restaurant_id: c.restaurant });

    // The same REDEEM again (Toast's retry): the same answer, nothing twice.
    const again = await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, withDiscount, [redemption]), { guid: redeemGuid });
    expect(again.body).toEqual(redeemed.body);
    const accrueGuid = randomUUID();
    const accrued = await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, { ...withDiscount, paymentStatus: 'CLOSED' }), { guid: accrueGuid });
    expect(accrued.body).toMatchObject({ transactionStatus: 'ACCEPT' });
    expect(await c.balance()).toBe(545);
    expect(await checksOf(c)).toHaveLength(1);

    // The accrual reversed: the redemption REDEEM took still stands on the check (and the check with it).
    expect((await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, accrueGuid))).body).toEqual({ transactionStatus: 'ACCEPT' });
    expect(await c.balance()).toBe(545);
    expect((await checksOf(c)).map((x) => x.status)).toEqual(['completed']);
    const reversed = await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid));
    expect(reversed.body).toEqual({ transactionStatus: 'ACCEPT' });
    expect(await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, redeemGuid)).then((r) => r.body)).toEqual({ transactionStatus: 'ACCEPT' });
    expect(await c.balance()).toBe(1000);
    expect((await checksOf(c))[0]).toMatchObject({ status: 'voided' });
  });

  it('a redemption over what the check can be paid with is rejected with the reason, still ACCEPT, and takes nothing', async () => {
    const c = await connected();
    const redemption = toastRedemption({ identifier: 'cashback', amount: 12.5 });
    const res = await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, checkWithLoyaltyDiscount(dinner(), redemption), [redemption]));
    expect(res.body).toMatchObject({ transactionStatus: 'ACCEPT', checkResponse: { appliedRedemptions: [], rejectedRedemptions: [{ redemption, message: expect.stringContaining('10') }] } });
    expect(await c.balance()).toBe(1000);
  });

  it('ACCRUE without REDEEM applies the check: 20.00 earning 0.60; a changed check is applied again in its place; a null identifier changes nothing', async () => {
    const c = await connected();
    const check = dinner();
    const unnamed = randomUUID();
    expect((await toast(c, 'LOYALTY_ACCRUE', accrueBody(null, check), { guid: unnamed })).body).toEqual({ transactionStatus: 'ACCEPT' });
    expect(await checksOf(c)).toEqual([]);
    // Its REVERSE, also without an identifier, is accepted: there is nothing to give back.
    const reversed = await toast(c, 'LOYALTY_REVERSE', reverseBody(null, unnamed));
    expect([reversed.status, reversed.body]).toEqual([200, { transactionStatus: 'ACCEPT' }]);
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, check));
    expect(await c.balance()).toBe(1060);
    // The guest's fries were taken off and the check paid again: 12.00 now, 0.36.
    const smaller = { ...check, selections: check.selections.slice(0, 1), amount: 12, totalAmount: 12 };
    await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, smaller));
    expect(await c.balance()).toBe(1036);
    expect((await checksOf(c)).map((x) => [x.status, x.paid])).toEqual([['voided', 2000], ['completed', 1200]]);
  });

  it('ACCRUE of one check sent twice at once under two GUIDs applies it once', async () => {
    const c = await connected();
    const check = dinner();
    const answers = await Promise.all([toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, check)), toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, check))]);
    expect(answers.map((a) => a.body.transactionStatus)).toEqual(['ACCEPT', 'ACCEPT']);
    expect(await checksOf(c)).toHaveLength(1);
    expect(await c.balance()).toBe(1060);
  });

  it('after a REDEEM, a changed check ACCRUEd twice at once (Toast retrying under a new GUID) ends as one check, as when sent one after the other', async () => {
    const changedAfterRedeem = async (c: Connected, together: boolean) => {
      const check = dinner();
      const redemption = toastRedemption({ identifier: 'cashback', amount: 5 });
      await toast(c, 'LOYALTY_REDEEM', redeemBody(c.memberId, checkWithLoyaltyDiscount(check, redemption), [redemption]));
      const withCake = checkWithLoyaltyDiscount(
        { ...check, selections: [...check.selections, toastCheck({ selections: [{ name: 'Cake', price: 4, quantity: 1 }] }).selections[0]!], amount: 24, totalAmount: 24 },
        redemption,
      );
      const accrue = () => toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, { ...withCake, paymentStatus: 'CLOSED' }));
      if (together) await Promise.all([accrue(), accrue()]);
      else await accrue().then(accrue);
      return { completed: (await checksOf(c)).filter((x) => x.status === 'completed').length, balance: await c.balance() };
    };
    const sequential = await changedAfterRedeem(await connected(), false);
    const concurrent = await changedAfterRedeem(await connected(), true);
    expect(sequential.completed).toBe(1);
    expect(concurrent).toEqual(sequential);
  });

  it('SIGNUP enrols by phone and answers the member id; the same phone again is ERROR_ALREADY_REGISTERED; TRANSFER is refused', async () => {
    const c = await connected();
    const res = await toast(c, 'LOYALTY_SIGNUP', signupBody({ phone: '0861234999' }));
    expect(res.body).toEqual({ transactionStatus: 'ACCEPT', signupResponse: { loyaltyIdentifier: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const member = await c.api.get(`/api/v1/members/${res.body.signupResponse.loyaltyIdentifier}`);
    expect(member.body).toMatchObject({ phone: '+353861234999' });
    // Nameless, as Toast's sign-up sends no name: its account answers without names (Toast's fields are strings).
    const found = await toast(c, 'LOYALTY_SEARCH', searchBody({ phone: '0861234999' }));
    expect(found.body.searchResponse.accounts).toEqual([{ identifier: member.body.id, phone: '+353861234999', pointsBalance: '0.00' }]);
    expect((await toast(c, 'LOYALTY_SIGNUP', signupBody({ phone: '086 123 4999' }))).body).toEqual({ transactionStatus: 'ERROR_ALREADY_REGISTERED' });
    const transfer = await toast(c, 'LOYALTY_TRANSFER', transferBody(c.memberId, randomUUID()));
    expect([transfer.status, transfer.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_TRANSFER' }]);
  });

  it('SEARCH by e-mail (any case, spaces around) finds the member, with the e-mail on the account; another chain\'s member with it is not found', async () => {
    const c = await connected();
    expect((await c.api.patch(`/api/v1/members/${c.memberId}`, { email: 'aoife@example.com' })).status).toBe(200);
    const found = await toast(c, 'LOYALTY_SEARCH', searchBody({ email: '  Aoife@EXAMPLE.com ' }));
    expect(found.status).toBe(200);
    expect(found.body.searchResponse.accounts).toEqual([
      { identifier: c.memberId, firstName: 'Aoife', lastName: 'Byrne', phone: expect.stringMatching(/^\+353/), email: 'aoife@example.com', pointsBalance: '10.00' },
    ]);
    // A phone that finds no one, then the e-mail.
    expect((await toast(c, 'LOYALTY_SEARCH', searchBody({ phone: '0860000000', email: 'aoife@example.com' }))).body.searchResponse.accounts).toHaveLength(1);
    const other = await connected();
    expect((await other.api.patch(`/api/v1/members/${other.memberId}`, { email: 'someone.else@example.com' })).status).toBe(200);
    for (const email of ['someone.else@example.com', 'nobody@example.com', 'not an address']) {
      const none = await toast(c, 'LOYALTY_SEARCH', searchBody({ email }));
      expect([none.status, none.body]).toEqual([404, { transactionStatus: 'ERROR_ACCOUNT_INVALID' }]);
    }
  });

  it('SIGNUP by e-mail (and by phone with e-mail) enrols the member with it; the same e-mail or phone again is ERROR_ALREADY_REGISTERED', async () => {
    const c = await connected();
    const res = await toast(c, 'LOYALTY_SIGNUP', signupBody({ email: ' New.Guest@Example.com' }));
    expect(res.body).toEqual({ transactionStatus: 'ACCEPT', signupResponse: { loyaltyIdentifier: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const member = await c.api.get(`/api/v1/members/${res.body.signupResponse.loyaltyIdentifier}`);
    expect(member.body).toMatchObject({ email: 'new.guest@example.com', phone: null });
    expect((await toast(c, 'LOYALTY_SIGNUP', signupBody({ email: 'NEW.GUEST@example.com' }))).body).toEqual({ transactionStatus: 'ERROR_ALREADY_REGISTERED' });
    const both = (phone: string, email: string) => ({ ...signupBody({ phone }), signupTransactionInformation: { phone, email } });
    const second = await toast(c, 'LOYALTY_SIGNUP', both('0861235888', 'second@example.com'));
    expect(second.body.transactionStatus).toBe('ACCEPT');
    expect((await c.api.get(`/api/v1/members/${second.body.signupResponse.loyaltyIdentifier}`)).body).toMatchObject({ phone: '+353861235888', email: 'second@example.com' });
    // A free phone with a taken e-mail, and a taken phone with a free e-mail: both already registered, nobody enrolled.
    expect((await toast(c, 'LOYALTY_SIGNUP', both('0861235777', 'new.guest@example.com'))).body).toEqual({ transactionStatus: 'ERROR_ALREADY_REGISTERED' });
    expect((await toast(c, 'LOYALTY_SIGNUP', both('0861235888', 'third@example.com'))).body).toEqual({ transactionStatus: 'ERROR_ALREADY_REGISTERED' });
    expect((await c.api.get('/api/v1/members/lookup?email=third@example.com')).status).toBe(404);
    const bad = await toast(c, 'LOYALTY_SIGNUP', signupBody({ email: 'no-at-sign' }));
    expect([bad.status, bad.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_INPUT_PROPERTIES' }]);
  });

  it('a wrong static key, a JWT of another key pair, and an unknown restaurant are refused in Toast\'s terms; nothing applied', async () => {
    const c = await connected();
    const wrong = await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, dinner()), { authorization: 'not-the-key' });
    expect([wrong.status, wrong.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_TOKEN' }]);
    const elsewhere = await toast(c, 'LOYALTY_ACCRUE', accrueBody(c.memberId, dinner()), { restaurant: randomUUID() });
    expect([elsewhere.status, elsewhere.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_RESTAURANT' }]);
    expect(await checksOf(c)).toEqual([]);

    const keys = await toastKeys();
    const jwt = await connected({ public_key: keys.publicKeyPem });
    const signed = await keys.sign({}, { now: new Date() });
    expect((await toast(jwt, 'LOYALTY_SEARCH', searchBody({ phone: jwt.phone }), { authorization: signed })).status).toBe(200);
    const forged = await (await toastKeys()).sign({}, { now: new Date() });
    const refused = await toast(jwt, 'LOYALTY_SEARCH', searchBody({ phone: jwt.phone }), { authorization: forged });
    expect([refused.status, refused.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_TOKEN' }]);
    const log = (await jwt.api.get(`/api/v1/integrations/${jwt.integrationId}/log`)).body.data;
    expect(log.map((e: { outcome: string }) => e.outcome)).toEqual(['bad_signature']);
  });

  it('REVERSE of a transaction Toast never sent is ERROR_TRANSACTION_DOES_NOT_EXIST; an unknown identifier is 404 ERROR_ACCOUNT_INVALID', async () => {
    const c = await connected();
    const res = await toast(c, 'LOYALTY_REVERSE', reverseBody(c.memberId, randomUUID()));
    expect([res.status, res.body]).toEqual([400, { transactionStatus: 'ERROR_TRANSACTION_DOES_NOT_EXIST' }]);
    const unknown = await toast(c, 'LOYALTY_INQUIRE', inquireBody(randomUUID(), dinner()));
    expect([unknown.status, unknown.body]).toEqual([404, { transactionStatus: 'ERROR_ACCOUNT_INVALID' }]);
  });
});
