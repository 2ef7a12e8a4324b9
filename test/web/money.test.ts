// The dashboard's money typing (web/src/money.ts): exact minor units from what an owner types, and each locale's way
// of writing its currency — checked against hand-written figures, not against Intl's own formatting.
import { describe, expect, it } from 'vitest';
import { moneyFormat, toMinor } from '../../web/src/money.js';

describe('toMinor', () => {
  it('converts typed amounts exactly, with no float rounding', () => {
    expect(toMinor('12.5', 2)).toBe(1250);
    expect(toMinor('12.50', 2)).toBe(1250);
    expect(toMinor(0.29, 2)).toBe(29);
    expect(toMinor(0.1 + 0.2, 2)).toBe(30); // 0.30000000000000004: the digits past the currency's are cut, not rounded up
    expect(toMinor('1.009', 2)).toBe(100);
    expect(toMinor('0.07', 2)).toBe(7);
    expect(toMinor('19.99', 2)).toBe(1999);
    expect(toMinor(99999999.99, 2)).toBe(9999999999);
    expect(toMinor('-3.5', 2)).toBe(-350);
    expect(toMinor('12.', 2)).toBe(1200);
    expect(toMinor('.5', 2)).toBe(50);
    expect(toMinor('500', 0)).toBe(500);
    expect(toMinor('1.234', 3)).toBe(1234);
  });

  it('is empty for nothing or what is not a number', () => {
    expect(toMinor('', 2)).toBe('');
    expect(toMinor('-', 2)).toBe('');
    expect(toMinor('abc', 2)).toBe('');
    expect(toMinor('1e3', 2)).toBe('');
  });
});

describe('moneyFormat', () => {
  it('writes euros the German way after the number, the Irish way before it', () => {
    expect(moneyFormat({ currency: 'EUR', locale: 'de-DE' })).toEqual({ decimal: ',', group: '.', prefix: undefined, suffix: '\u00a0€' });
    expect(moneyFormat({ currency: 'EUR', locale: 'en-IE' })).toEqual({ decimal: '.', group: ',', prefix: '€', suffix: undefined });
    expect(moneyFormat({ currency: 'GBP', locale: 'en-GB' })).toMatchObject({ decimal: '.', prefix: '£' });
  });
});
