// test/support/toast-pos.ts held to Toast's spec and guide: its tokens verify with its PEM, its bodies are the spec's
// LoyaltyTransaction, and its response check says of Toast's own examples what the spec says of them.
import { readFileSync } from 'node:fs';
import { importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  TOAST_TRANSACTION_STATUSES, TOAST_TRANSACTION_TYPES, accrueBody, checkWithLoyaltyDiscount, formatAjvErrors, inquireBody,
  redeemBody, reverseBody, searchBody, signupBody, toastAjv, toastCheck, toastHeaders, toastJsonSchema, toastKeys,
  toastRedemption, toastResponseValidator, transferBody, type ToastLoyaltyTransaction, type ToastTransactionType,
} from './toast-pos.js';

const spec = parse(readFileSync(new URL('../fixtures/toast/loyalty-openapi.yaml', import.meta.url), 'utf8'));
const schemas = spec.components.schemas;

/**
 * Where Toast sends null though the spec types the member without `nullable`; each is Toast's documented behaviour,
 * and everything else in a request is held to the spec as written.
 */
const TOAST_NULLS: Record<string, string[]> = {
  // The members a type does not use: "searchTransactionInformation":null … in every example of the guide.
  LoyaltyTransaction: ['searchTransactionInformation', 'signupTransactionInformation', 'checkTransactionInformation', 'reverseTransactionInformation', 'transferTransactionInformation'],
  // The cookbook: ACCRUE and REVERSE whose loyaltyIdentifier is null get 200 ACCEPT.
  TransactionInformationCheck: ['loyaltyIdentifier'],
  TransactionInformationReverse: ['loyaltyIdentifier'],
  // The guide's SEARCH example: "email":null,"phone":null.
  AccountSearchCriteria: ['firstName', 'lastName', 'email', 'phone'],
  // No SIGNUP example exists; the unused one of phone and email as null, as in SEARCH.
  TransactionInformationSignup: ['phone', 'email'],
};

function requestValidator(): (body: unknown) => string[] {
  const schema = toastJsonSchema('LoyaltyTransaction');
  const defs = schema.$defs as Record<string, { properties: Record<string, unknown> }>;
  for (const [name, members] of Object.entries(TOAST_NULLS)) {
    for (const member of members) {
      const original = defs[name]!.properties[member];
      if (original === undefined) throw new Error(`${name}.${member} is not in the spec`);
      defs[name]!.properties[member] = { if: { type: 'null' }, else: original };
    }
  }
  const validate = toastAjv().compile(schema);
  // The `if` added above reports its own failure beside the member's: only the member's says what is wrong.
  return (body) => (validate(body) ? [] : formatAjvErrors(validate.errors?.filter((e) => e.keyword !== 'if')));
}
const validateRequest = requestValidator();
const validateResponse = toastResponseValidator();
/** The paths a body fails at, which is what each expectation below names. */
const failingPaths = (errors: string[]) => [...new Set(errors.map((e) => e.split(' ')[0]))].sort();

describe('toastKeys', () => {
  it('signs an RS256 JWT with iat and a short exp that verifies with the SPKI PEM, as Toast\'s token_key serves it', async () => {
    const keys = await toastKeys();
    expect(keys.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(keys.tokenKeyResponse).toEqual({ alg: 'SHA256withRSA', value: keys.publicKeyPem });
    const token = await keys.sign({ sub: 'toast' });
    const { payload, protectedHeader } = await jwtVerify(token, await importSPKI(keys.publicKeyPem, 'RS256'), { algorithms: ['RS256'] });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.sub).toBe('toast');
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60);
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it('signs at the time it is given, and a past exp or another key pair fails verification', async () => {
    const keys = await toastKeys();
    const key = await importSPKI(keys.publicKeyPem, 'RS256');
    const now = new Date('2026-11-22T10:00:00.000Z'); // ManualClock's default start
    const token = await keys.sign({}, { now, expiresIn: 60 });
    const { payload } = await jwtVerify(token, key, { currentDate: now });
    expect(payload).toEqual({ iat: now.getTime() / 1000, exp: now.getTime() / 1000 + 60 });
    const expired = await keys.sign({ exp: Math.floor(Date.now() / 1000) - 10 });
    await expect(jwtVerify(expired, key)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
    const stranger = await (await toastKeys()).sign();
    await expect(jwtVerify(stranger, key)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });
});

describe('toastHeaders', () => {
  it('sends the raw Authorization value, the restaurant and the type, and a fresh transaction GUID unless given one', () => {
    const headers = toastHeaders({ type: 'LOYALTY_ACCRUE', restaurant: 'r-1', authorization: 'c75a2aa085d30a90' });
    expect(headers).toEqual({
      'Toast-Transaction-Type': 'LOYALTY_ACCRUE',
      'Toast-Transaction-GUID': expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      'Toast-Restaurant-External-ID': 'r-1',
      Authorization: 'c75a2aa085d30a90',
      'content-type': 'application/json',
    });
    expect(toastHeaders({ type: 'LOYALTY_ACCRUE', restaurant: 'r-1', authorization: 'k' })['Toast-Transaction-GUID']).not.toBe(headers['Toast-Transaction-GUID']);
    expect(toastHeaders({ type: 'LOYALTY_REVERSE', guid: 'g-1', restaurant: 'r-1', authorization: 'k' })['Toast-Transaction-GUID']).toBe('g-1');
  });
});

describe('the spec read by toast-pos', () => {
  it('gives the transactionStatus enum as the spec has it: no ERROR, no names from the gift-card API', () => {
    expect(TOAST_TRANSACTION_STATUSES).toEqual(schemas.LoyaltyTransactionResponse.properties.transactionStatus.enum);
    expect(TOAST_TRANSACTION_STATUSES).toContain('ACCEPT');
    expect(TOAST_TRANSACTION_STATUSES).not.toContain('ERROR');
    expect(TOAST_TRANSACTION_STATUSES).not.toContain('ERROR_ACCOUNT_DOES_NOT_EXIST');
  });

  it('types the transaction types the spec lists, in the header and in the body', () => {
    const header = spec.paths['/yourendpointname'].post.parameters.find((p: { name: string }) => p.name === 'Toast-Transaction-Type');
    expect([...TOAST_TRANSACTION_TYPES]).toEqual(header.schema.enum);
    expect([...TOAST_TRANSACTION_TYPES]).toEqual(schemas.LoyaltyTransaction.properties.toastTransactionType.enum);
  });

  it('refuses a schema the spec does not have', () => {
    expect(() => toastJsonSchema('ToastRedemption')).toThrow(/no schema ToastRedemption/);
  });
});

describe('request bodies', () => {
  const MEMBER: Record<ToastTransactionType, keyof ToastLoyaltyTransaction> = {
    LOYALTY_INQUIRE: 'checkTransactionInformation', LOYALTY_REDEEM: 'checkTransactionInformation', LOYALTY_ACCRUE: 'checkTransactionInformation',
    LOYALTY_SEARCH: 'searchTransactionInformation', LOYALTY_SIGNUP: 'signupTransactionInformation',
    LOYALTY_REVERSE: 'reverseTransactionInformation', LOYALTY_TRANSFER: 'transferTransactionInformation',
  };
  const check = toastCheck({ selections: [{ name: 'Crab Cakes', price: 87.92, quantity: 8 }, { name: 'Sliders', price: 9.5, quantity: 1 }], taxAmount: 6.09 });
  const reward = toastRedemption({ identifier: 'offer-1', amount: 5, appliedDiscountGuid: 'ad-1', name: 'Free coffee' });
  const discounted = checkWithLoyaltyDiscount(toastCheck({ selections: [{ name: 'Crab Cakes', price: 43.96, quantity: 4 }], loyaltyIdentifier: 'm-1' }), reward);
  const bodies: Array<[string, ToastLoyaltyTransaction]> = [
    ['inquire', inquireBody('m-1', check)],
    ['inquire with a redemption not yet on the check', inquireBody('m-1', check, [toastRedemption({ identifier: 'offer-1', amount: 5 })])],
    ['redeem', redeemBody('m-1', discounted, [reward])],
    ['accrue for a member', accrueBody('m-1', toastCheck({ selections: [{ name: 'IPA', price: 8, quantity: 1 }], paymentStatus: 'CLOSED', taxAmount: 0.69 }))],
    ['accrue with no member', accrueBody(null, check)],
    ['reverse all', reverseBody('m-1', 'ab11d469-5ed5-4daa-b9d6-addefdb1c1f7')],
    ['reverse some, no member', reverseBody(null, 'ab11d469-5ed5-4daa-b9d6-addefdb1c1f7', [reward])],
    ['search', searchBody({ firstName: 'James', lastName: 'Smith' })],
    ['signup by phone', signupBody({ phone: '6175550100' })],
    ['signup by email', signupBody({ email: 'a@example.com' })],
    ['transfer', transferBody('m-1', 'm-2')],
  ];

  it.each(bodies)('%s is a LoyaltyTransaction, with its one member set and the others explicit null', (_name, body) => {
    expect(validateRequest(body)).toEqual([]);
    const member = MEMBER[body.toastTransactionType];
    for (const other of new Set(Object.values(MEMBER))) {
      expect(body).toHaveProperty(other);
      if (other === member) expect(body[other]).not.toBeNull();
      else expect(body[other]).toBeNull();
    }
  });

  it('leaves redemptions out of a reverse that reverses all of them, since absent means all', () => {
    expect(reverseBody('m-1', 't-1').reverseTransactionInformation).not.toHaveProperty('redemptions');
    expect(reverseBody('m-1', 't-1', []).reverseTransactionInformation).toHaveProperty('redemptions', []);
  });

  it('adds up a check as Toast\'s INQUIRE example does', () => {
    expect(check).toMatchObject({ amount: 97.42, taxAmount: 6.09, totalAmount: 103.51, appliedDiscounts: [] });
    expect(check.selections[0]).toMatchObject({ displayName: 'Crab Cakes', quantity: 8, price: 87.92, preDiscountPrice: 87.92, item: { entityType: 'MenuItem' } });
    expect(toastCheck({ selections: [{ name: 'x', price: 1, quantity: 1, itemGuid: 'item-1' }] }).selections[0]!.item.guid).toBe('item-1');
  });

  it('puts a loyalty discount on the check as Toast\'s REDEEM example has it: 43.96 less 5.00 is 38.96', () => {
    const before = toastCheck({ selections: [{ name: 'Crab Cakes', price: 43.96, quantity: 4 }], taxAmount: 2.44 });
    const after = checkWithLoyaltyDiscount(before, reward);
    expect(after).toMatchObject({ amount: 38.96, totalAmount: 41.4, taxAmount: 2.44 });
    expect(after.selections[0]).toMatchObject({ price: 38.96, preDiscountPrice: 43.96 });
    expect(after.appliedDiscounts).toEqual([expect.objectContaining({
      guid: 'ad-1', name: 'Free coffee', discountAmount: 5, processingState: 'PENDING_APPLIED',
      loyaltyDetails: { vendor: 'INTEGRATION', referenceId: 'offer-1' },
    })]);
  });

  it('spreads a discount over the lines to the cent, times its quantity, and never below zero', () => {
    const before = toastCheck({ selections: [{ name: 'a', price: 10, quantity: 1 }, { name: 'b', price: 5.01, quantity: 3 }, { name: 'c', price: 0.02, quantity: 1 }] });
    const after = checkWithLoyaltyDiscount(before, toastRedemption({ identifier: 'o', amount: 1.11, quantity: 3 }));
    expect(after.amount).toBe(11.7);
    expect(after.appliedDiscounts[0]!.discountAmount).toBe(3.33);
    expect(Math.round(after.selections.reduce((a, s) => a + s.price * 100, 0))).toBe(1170);
    const all = checkWithLoyaltyDiscount(before, toastRedemption({ identifier: 'o', amount: 100 }));
    expect(all).toMatchObject({ amount: 0, totalAmount: 0 });
    expect(all.appliedDiscounts[0]!.discountAmount).toBe(15.03);
    expect(all.selections.map((s) => s.price)).toEqual([0, 0, 0]);
  });

  it('is a real check: the spec\'s required fields and enums are enforced, and a null the list above does not name is refused', () => {
    const body = inquireBody('m-1', check);
    const { item: _item, ...noItem } = check.selections[0]!;
    expect(failingPaths(validateRequest({ ...body, checkTransactionInformation: { ...body.checkTransactionInformation!, check: { ...check, selections: [noItem] } } })))
      .toEqual(['/checkTransactionInformation/check/selections/0']);
    expect(failingPaths(validateRequest({ ...body, toastTransactionType: 'LOYALTY_GIFT' }))).toEqual(['/toastTransactionType']);
    expect(failingPaths(validateRequest({ ...body, checkTransactionInformation: { ...body.checkTransactionInformation!, check: { ...check, amount: null } } })))
      .toContain('/checkTransactionInformation/check/amount');
  });
});

describe('Toast\'s own requests (guide, "Transaction types") against the spec', () => {
  it('SEARCH conforms once its nulls are allowed, as above', () => {
    const search = { toastTransactionType: 'LOYALTY_SEARCH', searchTransactionInformation: { searchCriteria: { firstName: 'James', lastName: 'Smith', email: null, phone: null } }, checkTransactionInformation: null, reverseTransactionInformation: null };
    expect(validateRequest(search)).toEqual([]);
  });

  it('REVERSE and REDEEM send nulls and a vendor the spec does not allow: an endpoint must not validate Toast strictly', () => {
    const redemption = { identifier: '5', appliedDiscountGuid: '64456691-c34e-4784-9c6e-fc514a0f4b7b', selectionGuid: null, amount: 0.01, quantity: 1 };
    const reverse = { toastTransactionType: 'LOYALTY_REVERSE', searchTransactionInformation: null, checkTransactionInformation: null, reverseTransactionInformation: { loyaltyIdentifier: '1', transactionId: 'ab11d469-5ed5-4daa-b9d6-addefdb1c1f7', redemptions: [redemption, redemption] } };
    expect(failingPaths(validateRequest(reverse))).toEqual(['/reverseTransactionInformation/redemptions/0/selectionGuid', '/reverseTransactionInformation/redemptions/1/selectionGuid']);
    const check = toastCheck({ selections: [{ name: 'Crab Cakes', price: 43.96, quantity: 4 }], loyaltyIdentifier: '3' });
    const redeem = redeemBody('3', checkWithLoyaltyDiscount(check, toastRedemption({ identifier: '1', amount: 5 })), []);
    // Toast's example: "loyaltyDetails":{"vendor":null,…} and "appliedLoyaltyInfo":{…,"vendor":null,…}.
    const asToastSendsIt: unknown = JSON.parse(JSON.stringify(redeem).replaceAll('"vendor":"INTEGRATION"', '"vendor":null'));
    expect(validateRequest(redeem)).toEqual([]);
    expect(failingPaths(validateRequest(asToastSendsIt))).toEqual([
      '/checkTransactionInformation/check/appliedDiscounts/0/loyaltyDetails/vendor',
      '/checkTransactionInformation/check/appliedLoyaltyInfo/vendor',
    ]);
  });
});

describe('toastResponseValidator', () => {
  // Verbatim from the guide ("Transaction types", "Error handling"), with what the spec makes of each.
  const examples: Array<[string, unknown, string[]]> = [
    ['SEARCH 200: pointsBalance is a number, the spec says string',
      { searchResponse: { accounts: [{ identifier: '1', firstName: 'james', lastName: 'smith', phone: '1111111111', email: 'a1@toasttab.com', pointsBalance: 40 }] }, transactionStatus: 'ACCEPT' },
      ['/searchResponse/accounts/0/pointsBalance']],
    ['SEARCH 404', { transactionStatus: 'ERROR_ACCOUNT_INVALID' }, []],
    ['INQUIRE 200: Offer.amount is a string, the spec says number',
      { checkResponse: { accountInfo: { identifier: '1', firstName: 'james', lastName: 'smith', phone: '1111111111', email: 'a1@gmail.com' },
        offers: [{ identifier: '4', name: 'reward 3', applicable: false, selectionType: 'ITEM', amount: '10', quantity: 2 }],
        rejectedRedemptions: [], appliedRedemptions: [], userMessage: 'Visit http://www.website.com to check your points balance.' }, transactionStatus: 'ACCEPT' },
      ['/checkResponse/offers/0/amount']],
    ['REDEEM 200: string amounts again, and a null selectionGuid',
      { checkResponse: { accountInfo: { identifier: '3', firstName: 'jack', lastName: 'williams', phone: '1111111113', email: 'a3@gmail.com' },
        offers: [{ identifier: '1', name: 'reward 1', applicable: true, selectionType: 'CHECK', amount: '5', quantity: 4 },
          { identifier: '3', name: 'reward 3', applicable: false, selectionType: 'ITEM', amount: '10', itemApplication: [{ selectionIdentifier: 'undefined', amount: '10' }], quantity: 10 }],
        rejectedRedemptions: [], appliedRedemptions: [{ identifier: '1', itemId: null, selectionGuid: null, amount: 5, quantity: 2 }],
        userMessage: 'Visit http://www.website.com to check your points balance' }, transactionStatus: 'ACCEPT' },
      ['/checkResponse/appliedRedemptions/0/selectionGuid', '/checkResponse/offers/0/amount', '/checkResponse/offers/1/amount', '/checkResponse/offers/1/itemApplication/0/amount']],
    ['ACCRUE and REVERSE 200', { transactionStatus: 'ACCEPT' }, []],
    ['500, the guide\'s ERROR', { transactionStatus: 'ERROR', message: 'This is my helpful message about the error condition.' }, []],
  ];

  it.each(examples)('%s', (_name, body, paths) => {
    expect(failingPaths(validateResponse(body))).toEqual(paths);
  });

  it('is compiled once', () => {
    expect(toastResponseValidator()).toBe(validateResponse);
  });

  it('takes Offer.amount and pointsBalance as the spec types them', () => {
    const offer = { identifier: '4', name: 'reward 3', applicable: true, selectionType: 'CHECK', amount: 10, quantity: 2 };
    const inquire = (o: object, account: object = {}) => ({ checkResponse: { accountInfo: { identifier: '1', ...account }, offers: [o] }, transactionStatus: 'ACCEPT' });
    expect(validateResponse(inquire(offer))).toEqual([]);
    expect(failingPaths(validateResponse(inquire({ ...offer, amount: '10' })))).toEqual(['/checkResponse/offers/0/amount']);
    expect(validateResponse(inquire(offer, { pointsBalance: '40' }))).toEqual([]);
    expect(failingPaths(validateResponse(inquire(offer, { pointsBalance: 40 })))).toEqual(['/checkResponse/accountInfo/pointsBalance']);
  });

  it('allows the guide\'s ERROR body and nothing more under that status', () => {
    expect(validateResponse({ transactionStatus: 'ERROR' })).toEqual([]);
    expect(failingPaths(validateResponse({ transactionStatus: 'ERROR', message: 42 }))).toEqual(['/message']);
    expect(failingPaths(validateResponse({ transactionStatus: 'ERROR', checkResponse: {} }))).toEqual(['(body)']);
  });

  it('rejects a status the spec does not list, and a body without one', () => {
    expect(failingPaths(validateResponse({ transactionStatus: 'ERROR_ACCOUNT_DOES_NOT_EXIST' }))).toEqual(['/transactionStatus']);
    expect(failingPaths(validateResponse({ transactionStatus: 'accept' }))).toEqual(['/transactionStatus']);
    expect(failingPaths(validateResponse({ checkResponse: {} }))).toEqual(['(body)']);
    expect(validateResponse('ACCEPT')).not.toEqual([]);
  });

  it('reads nullable: maxRedemptions may be null, not negative, and must be there', () => {
    const limit = (redemptionLimit: object) => validateResponse({ transactionStatus: 'ACCEPT', checkResponse: { redemptionLimit } });
    expect(limit({ maxRedemptions: null })).toEqual([]);
    expect(limit({ maxRedemptions: 2 })).toEqual([]);
    expect(failingPaths(limit({ maxRedemptions: -1 }))).toEqual(['/checkResponse/redemptionLimit/maxRedemptions']);
    expect(failingPaths(limit({ maxRedemptions: '2' }))).toEqual(['/checkResponse/redemptionLimit/maxRedemptions']);
    expect(failingPaths(limit({}))).toEqual(['/checkResponse/redemptionLimit']);
  });

  it('checks what the provider answers to SIGNUP and TRANSFER', () => {
    expect(validateResponse({ transactionStatus: 'ACCEPT', signupResponse: { loyaltyIdentifier: 'm-9' } })).toEqual([]);
    expect(failingPaths(validateResponse({ transactionStatus: 'ACCEPT', signupResponse: {} }))).toEqual(['/signupResponse']);
    expect(validateResponse({ transactionStatus: 'ERROR_ALREADY_REGISTERED' })).toEqual([]);
    expect(validateResponse({ transactionStatus: 'ACCEPT', transferResponse: { loyaltyIdentifier: 'm-2' } })).toEqual([]);
  });

  it('takes the Response* members as objects, though the spec forgets to say so', () => {
    const members = { searchResponse: 'ResponseSearch', checkResponse: 'ResponseCheck', signupResponse: 'ResponseSignup', transferResponse: 'ResponseTransfer' };
    for (const [member, schema] of Object.entries(members)) {
      expect(schemas[schema]).not.toHaveProperty('type');
      expect(failingPaths(validateResponse({ transactionStatus: 'ACCEPT', [member]: 42 }))).toEqual([`/${member}`]);
    }
  });
});
