// Ready text for cashiers and receipts (D13): money and percents in the venue's locale and currency, via Intl.
import { Type, type Static } from 'typebox';

export const Display = Type.Object(
  {
    cashier: Type.String({ description: 'One line for the cashier screen.' }),
    receipt: Type.Array(Type.String(), { description: 'Lines to print on the receipt.' }),
  },
  { description: "Ready text in the venue's locale and currency." },
);
export type Display = Static<typeof Display>;

export interface Locale {
  currency: string;
  locale: string;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat({ currency, locale }: Locale): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    moneyFormats.set(key, format);
  }
  return format;
}

/** Minor units (cents) as the venue writes money: 1240 EUR in en-IE → "€12.40". */
export function formatMoney(minor: number, where: Locale): string {
  const format = moneyFormat(where);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** Like formatMoney, with an explicit sign: "+€5.00", "−€2.50". */
export function formatSignedMoney(minor: number, where: Locale): string {
  return `${minor < 0 ? '−' : '+'}${formatMoney(Math.abs(minor), where)}`;
}

/** Basis points as a percent: 750 → "7.5%". */
export function formatPercent(bp: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(bp / 10_000);
}

/** "Anna Kowalska" → "Anna K.": enough for a cashier to greet, no more. */
export function shortName(name: string | null, fallback: string): string {
  if (!name?.trim()) return fallback;
  const [first, ...rest] = name.trim().split(/\s+/);
  const last = rest.at(-1);
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first!;
}
