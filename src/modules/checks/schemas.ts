// Checks (D11): the body a till sends, and what a calculation answers.
import { Type, type Static } from 'typebox';
import { Display } from '../../shared/display.js';

export const LineItem = Type.Object(
  {
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Resolves the line through the catalogue.' })),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "A category's external_id, when there is no SKU." })),
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Positive, up to 3 decimals (sold by weight).' }),
    unit_price: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Minor units.' }),
  },
  { additionalProperties: false },
);

export const CheckBody = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 64, description: "The till's check number; makes applying idempotent." }),
    member_id: Type.Optional(Type.String({ maxLength: 64 })),
    card_number: Type.Optional(Type.String({ maxLength: 64 })),
    barcode: Type.Optional(Type.String({ maxLength: 256 })),
    line_items: Type.Array(LineItem, { minItems: 1, maxItems: 500 }),
    redeem_amount: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Cashback to pay with, minor units.' })),
    hold_id: Type.Optional(Type.String({ maxLength: 64, description: 'Capture this hold: redeem its amount, or a smaller redeem_amount and release the rest.' })),
    register_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    closed_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        external_id: 'T7-000123',
        card_number: '4000123',
        line_items: [
          { sku: 'PASTA-1', name: 'Carbonara', quantity: 1, unit_price: 900 },
          { name: 'House wine', category: 'alcohol', quantity: 1, unit_price: 600 },
        ],
        redeem_amount: 500,
        register_id: 'till-7',
        closed_at: '2026-11-22T12:41:07.000+00:00',
      },
    ],
  },
);
export type CheckBody = Static<typeof CheckBody>;

/** A calculation writes nothing and needs no identity: external_id is optional there. */
export const CalculateBody = Type.Object(
  { ...CheckBody.properties, external_id: Type.Optional(CheckBody.properties.external_id) },
  { additionalProperties: false },
);
export type CalculateBody = Static<typeof CalculateBody>;

export const CalculatedLine = Type.Object({
  sku: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  category: Type.Union([Type.String(), Type.Null()], { description: 'The category the line resolved to.' }),
  quantity: Type.Number(),
  unit_price: Type.Integer(),
  amount: Type.Integer({ description: 'quantity × unit_price, rounded half up.' }),
  earns_cashback: Type.Boolean(),
  payable_with_cashback: Type.Boolean(),
  cashback_percent: Type.Number({ description: 'The percent this line earns at (0 when it does not earn).' }),
  redeemed: Type.Integer({ description: 'The share of redeem_amount paid on this line.' }),
  earned: Type.Integer({ description: 'Before per-check and per-day caps.' }),
  rule_source: Type.Union([Type.Literal('product'), Type.Literal('category'), Type.Literal('default')], {
    description:
      "Where the line's rule came from: product (the SKU's product's category), category (the category the line named) or default (neither is known: the program's defaults).",
  }),
}, { title: 'CalculatedLine' });

export const CheckCampaignCredit = Type.Object({
  campaign_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  amount: Type.Integer({ description: "The campaign's share alone, in the member's unit: cashback (minor units) or stamps." }),
}, { title: 'CheckCampaignCredit' });

const Campaigns = Type.Array(CheckCampaignCredit, {
  description: 'What each campaign credits besides `earned` (D22), as it reaches the balance; [] when none applies.',
});

export const CheckCalculation = Type.Object({
  object: Type.Literal('check_calculation'),
  member_id: Type.Union([Type.String(), Type.Null()]),
  program_type: Type.Union([Type.String(), Type.Null()]),
  subtotal: Type.Integer(),
  discount_amount: Type.Integer({ description: "Visit-discount and VIP programs: the member's discount on the subtotal." }),
  payable_base: Type.Integer({ description: 'The sum of the lines that can be paid with cashback.' }),
  max_redeem: Type.Integer({ description: 'The most cashback this check can be paid with.' }),
  redeemed: Type.Integer(),
  earned: Type.Integer({ description: 'Cashback the check would earn, after caps.' }),
  earn_capped: Type.Boolean({ description: 'A per-check or per-day cap lowered earned.' }),
  stamps_earned: Type.Integer(),
  paid: Type.Integer({ description: 'subtotal − discount_amount − redeemed: what total_spend would grow by.' }),
  balance_after: Type.Union([Type.Integer(), Type.Null()]),
  available_after: Type.Union([Type.Integer(), Type.Null()]),
  line_items: Type.Array(CalculatedLine),
  campaigns: Campaigns,
  display: Display,
}, {
  title: 'CheckCalculation',
  examples: [
    {
      object: 'check_calculation', member_id: '01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b', program_type: 'cashback',
      subtotal: 1500, discount_amount: 0, payable_base: 1500, max_redeem: 1240, redeemed: 500, earned: 50, earn_capped: false,
      stamps_earned: 0, paid: 1000, balance_after: 790, available_after: 790,
      line_items: [{ sku: 'PASTA-1', name: 'Carbonara', category: null, quantity: 1, unit_price: 900, amount: 900, earns_cashback: true, payable_with_cashback: true, cashback_percent: 5, redeemed: 300, earned: 30, rule_source: 'default' }, { sku: null, name: 'House wine', category: null, quantity: 1, unit_price: 600, amount: 600, earns_cashback: true, payable_with_cashback: true, cashback_percent: 5, redeemed: 200, earned: 20, rule_source: 'default' }],
      campaigns: [],
      display: { cashier: 'Anna K. · Member 5% · available €12.40 · up to €12.40 payable', receipt: ['Cashback used: −€5.00', 'Cashback earned: +€0.50', 'To pay: €10.00', 'Cashback available: €7.90', 'Level: Member 5%'] },
    },
  ],
});
export type CheckCalculation = Static<typeof CheckCalculation>;

export const Transaction = Type.Object({
  object: Type.Literal('transaction'),
  id: Type.String({ format: 'uuid' }),
  venue_id: Type.String({ format: 'uuid', description: 'The venue where it happened (D21).' }),
  external_id: Type.String(),
  register_id: Type.Union([Type.String(), Type.Null()]),
  member_id: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('completed'), Type.Literal('voided')]),
  line_items: Type.Array(CalculatedLine),
  campaigns: Campaigns,
  subtotal: Type.Integer(),
  discount_amount: Type.Integer(),
  redeemed: Type.Integer(),
  earned: Type.Integer(),
  earn_capped: Type.Boolean(),
  stamps_earned: Type.Integer(),
  paid: Type.Integer(),
  refunded_amount: Type.Integer(),
  refundable: Type.Integer({ description: 'What can still be refunded; 0 once voided.' }),
  closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  hold_id: Type.Union([Type.String(), Type.Null()]),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
  source: Type.Union([Type.Literal('api'), Type.Literal('square'), Type.Literal('toast')], {
    description: 'Who sent the check: the API (a till or a script), or a point-of-sale connector (D26).',
  }),
  metadata: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
    description: "A connector's own ids for the check (Square's payment, order and location; Toast's check and order); null from the API.",
  }),
}, {
  title: 'Transaction',
  examples: [
    {
      object: 'transaction', id: '01a2046b-2f1e-7c3a-9d0e-1b2c3d4e5f60', venue_id: '01a20400-0c1d-7e2f-8a3b-4c5d6e7f8091', external_id: 'T7-000123', register_id: 'till-7',
      member_id: '01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b', status: 'completed',
      line_items: [{ sku: 'PASTA-1', name: 'Carbonara', category: null, quantity: 1, unit_price: 900, amount: 900, earns_cashback: true, payable_with_cashback: true, cashback_percent: 5, redeemed: 300, earned: 30, rule_source: 'default' }, { sku: null, name: 'House wine', category: null, quantity: 1, unit_price: 600, amount: 600, earns_cashback: true, payable_with_cashback: true, cashback_percent: 5, redeemed: 200, earned: 20, rule_source: 'default' }],
      campaigns: [],
      subtotal: 1500, discount_amount: 0, redeemed: 500, earned: 50, earn_capped: false, stamps_earned: 0, paid: 1000,
      refunded_amount: 0, refundable: 1000, closed_at: '2026-11-22T12:41:07.000+00:00', hold_id: null, livemode: true,
      created_at: '2026-11-22T12:41:08.214+00:00',
      display: { cashier: 'Anna K. · Member 5% · available €12.40 · up to €12.40 payable', receipt: ['Cashback used: −€5.00', 'Cashback earned: +€0.50', 'To pay: €10.00', 'Cashback available: €7.90', 'Level: Member 5%'] },
      source: 'api', metadata: null,
    },
  ],
});
export type Transaction = Static<typeof Transaction>;

export const RefundBody = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 64, description: "The refund's own id; makes it idempotent." }),
    amount: Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Part of what was paid, minor units.' }),
    register_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const Refund = Type.Object({
  object: Type.Literal('refund'),
  id: Type.String({ format: 'uuid' }),
  external_id: Type.String(),
  amount: Type.Integer(),
  earned_reversed: Type.Integer({ description: 'Earned cashback taken back.' }),
  redeemed_returned: Type.Integer({ description: 'Redeemed cashback given back.' }),
  campaigns_reversed: Type.Array(CheckCampaignCredit, { description: 'What it took back of each campaign credit of the check (D22), in its unit.' }),
  transaction: Transaction,
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
}, { title: 'Refund' });
export type Refund = Static<typeof Refund>;

export const TransactionParams = Type.Object({ external_id: Type.String({ maxLength: 64 }) });
export const RegisterQuery = Type.Object(
  { register_id: Type.Optional(Type.String({ maxLength: 64, description: 'When checks are numbered per register.' })) },
  { additionalProperties: false },
);

export const CaptureBody = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 64, description: 'The applied check to pay with the hold.' }),
    redeem_amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000, description: "Default: the hold's amount; the rest is released." })),
    register_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type CaptureBody = Static<typeof CaptureBody>;
