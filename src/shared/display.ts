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

// Building an Intl.NumberFormat costs far more than using one: one per locale and currency, for the process.
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function moneyFormat({ currency, locale }: Locale) {
  const key = `${locale}|${currency}`;
  let entry = moneyFormats.get(key);
  if (!entry) {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    moneyFormats.set(key, entry);
  }
  return entry;
}

/** Minor units (cents) as the venue writes money: 1240 EUR in en-IE → "€12.40". */
export function formatMoney(minor: number, where: Locale): string {
  const { format, digits } = moneyFormat(where);
  return format.format(minor / 10 ** digits);
}

/** Like formatMoney, with an explicit sign: "+€5.00", "−€2.50". */
export function formatSignedMoney(minor: number, where: Locale): string {
  return `${minor < 0 ? '−' : '+'}${formatMoney(Math.abs(minor), where)}`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar date ('YYYY-MM-DD') as the venue writes a short date: "31 Jan" in en-IE. */
export function formatDay(day: string, locale: string): string {
  let format = dayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    dayFormats.set(locale, format);
  }
  return format.format(new Date(`${day}T00:00:00.000Z`));
}

// Formatting is dear too, and a venue's percents are a handful (its levels' and rules'): each is formatted once.
const percentTexts = new Map<string, { format: Intl.NumberFormat; texts: Map<number, string> }>();
const PERCENT_TEXTS_LIMIT = 1000;

/** Basis points as a percent: 750 → "7.5%". */
export function formatPercent(bp: number, locale: string): string {
  let entry = percentTexts.get(locale);
  if (!entry) {
    entry = { format: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }), texts: new Map() };
    percentTexts.set(locale, entry);
  }
  let text = entry.texts.get(bp);
  if (text === undefined) {
    if (entry.texts.size >= PERCENT_TEXTS_LIMIT) entry.texts.clear();
    text = entry.format.format(bp / 10_000);
    entry.texts.set(bp, text);
  }
  return text;
}

/** "Anna Kowalska" → "Anna K.": enough for a cashier to greet, no more. */
export function shortName(name: string | null, fallback: string): string {
  if (!name?.trim()) return fallback;
  const [first, ...rest] = name.trim().split(/\s+/);
  const last = rest.at(-1);
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first!;
}
