// Program types and their settings (D9), as the API shows them; percents are stored as basis points.
import { Type, type Static } from 'typebox';
import { shownAs } from '../../http/responses.js';

export const PROGRAM_TYPES = ['cashback', 'stamps', 'visit_discount', 'vip'] as const;
export type ProgramType = (typeof PROGRAM_TYPES)[number];
export const BARCODE_FORMATS = ['qr_card_number', 'code128_card_number', 'qr_serial'] as const;
export type BarcodeFormat = (typeof BARCODE_FORMATS)[number];

const Percent = Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01, description: 'Percent, up to two decimals (7.5).' });
const Money = Type.Integer({ minimum: 0, description: 'Minor units of the venue currency.' });

const Level = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 40 }), min_spend: Money, percent: Percent },
  { additionalProperties: false },
);

const LevelPeriodDays = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: 3650,
    description: 'Levels judged on the paid spend of checks in this many days, a rolling window: a member falls a level as old spend leaves it (absent: on all spend).',
  }),
);

export const CashbackSettings = Type.Object(
  {
    levels: Type.Array(Level, { minItems: 1, maxItems: 20, description: 'By paid spend (see level_period_days); the first starts at 0.' }),
    level_period_days: LevelPeriodDays,
    max_redeem_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01, default: 100 })),
    cashback_expires_after_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'Cashback earned on a venue day expires this many days later (off when absent); see docs/members.md.' }),
    ),
    cashback_expiry_warning_days: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 365, description: 'How many days before a lot expires cashback.expiring is sent (default 7; 0: not sent).' }),
    ),
  },
  { title: 'CashbackSettings', additionalProperties: false },
);

export const StampsSettings = Type.Object(
  {
    stamps_required: Type.Integer({ minimum: 1, maximum: 100 }),
    reward_name: Type.String({ minLength: 1, maxLength: 80 }),
    stamps_per_visit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 1 })),
    min_check_amount: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'A check of at least this much counts as a visit.' })),
  },
  { title: 'StampsSettings', additionalProperties: false },
);

export const VisitDiscountSettings = Type.Object(
  {
    tiers: Type.Array(Type.Object({ min_visits: Type.Integer({ minimum: 0 }), percent: Percent }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 20,
    }),
  },
  { title: 'VisitDiscountSettings', additionalProperties: false },
);

export const VipSettings = Type.Object(
  {
    levels: Type.Array(Level, { minItems: 1, maxItems: 20, description: 'By paid spend (see level_period_days), or set by hand on the member.' }),
    level_period_days: LevelPeriodDays,
  },
  { title: 'VipSettings', additionalProperties: false },
);

export const Program = Type.Object({
  object: Type.Literal('program'),
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  type: Type.Union([Type.Literal('cashback'), Type.Literal('stamps'), Type.Literal('visit_discount'), Type.Literal('vip')]),
  barcode_format: Type.Union([Type.Literal('qr_card_number'), Type.Literal('code128_card_number'), Type.Literal('qr_serial')]),
  is_default: Type.Boolean(),
  settings: shownAs(
    Type.Object({}, { additionalProperties: true }),
    Type.Union([CashbackSettings, StampsSettings, VisitDiscountSettings, VipSettings], { description: 'The settings of the program type (see docs/programs.md).' }),
  ),
  created_at: Type.String({ format: 'date-time' }),
}, { title: 'Program' });
export type Program = Static<typeof Program>;

/** A level with its percent in basis points, as rules compute with it. */
export interface LevelRule {
  name: string;
  minSpend: number;
  percentBp: number;
}

/** A program as the rules use it: percents in basis points, lists sorted. */
export type ProgramRules =
  | { type: 'cashback'; levels: LevelRule[]; levelPeriodDays?: number; maxRedeemBp: number; expiresAfterDays?: number; expiryWarningDays?: number }
  | { type: 'stamps'; stampsRequired: number; rewardName: string; stampsPerVisit: number; minCheckAmount: number }
  | { type: 'visit_discount'; tiers: { minVisits: number; percentBp: number }[] }
  | { type: 'vip'; levels: LevelRule[]; levelPeriodDays?: number };

export interface ProgramInfo {
  id: string;
  name: string;
  barcodeFormat: BarcodeFormat;
  isDefault: boolean;
  rules: ProgramRules;
  createdAt: string;
}
