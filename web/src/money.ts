// Amounts as owners type them: the venue's way of writing its currency, and the exact minor units of what was typed.
export interface Place {
  currency: string;
  locale: string;
}

/** The separators and the symbol's place for amounts of `currency` in `locale`. */
export function moneyFormat({ currency, locale }: Place) {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(12345.5);
  const at = (type: string) => parts.findIndex((p) => p.type === type);
  const [symbol, first] = [at('currency'), at('integer')];
  const literal = (i: number) => (parts[i]?.type === 'literal' ? parts[i]!.value : '');
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value,
    prefix: symbol < first ? parts[symbol]!.value + literal(symbol + 1) : undefined,
    suffix: symbol > first ? literal(symbol - 1) + parts[symbol]!.value : undefined,
  };
}

/**
 * Minor units of an amount typed in major units ("12.5", 12.5 → 1250 for two digits), exactly: the decimal text is
 * split, never multiplied as a float. Digits past the currency's are cut (the field never lets them through). Empty
 * or not a number: ''.
 */
export function toMinor(value: number | string, digits: number): number | '' {
  // A number's shortest decimal text is what was typed (0.29, not 0.28999…).
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (!match[2] && !match[3])) return '';
  const [, sign, whole = '', fraction = ''] = match;
  const minor = Number(whole || '0') * 10 ** digits + Number(fraction.slice(0, digits).padEnd(digits, '0') || '0');
  return sign ? -minor : minor;
}

