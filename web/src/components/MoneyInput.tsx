// An amount typed and shown in the chain's currency as the venue writes it (12,50 € in de-DE, €12.50 in en-IE), held as
// integer minor units: the conversion is exact, and nothing typed is clamped (the server's reason shows instead).
import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { minorDigits } from '../api';
import { moneyFormat, toMinor, type Place } from '../money';

const toMajor = (minor: number | '' | null | undefined, digits: number): number | '' =>
  minor === '' || minor === null || minor === undefined ? '' : minor / 10 ** digits;

export type MoneyInputProps = Omit<NumberInputProps, 'value' | 'onChange' | 'decimalScale' | 'prefix' | 'suffix'> & {
  /** Minor units; '' or null: empty. */
  value?: number | '' | null;
  onChange: (minor: number | '') => void;
  place: Place;
};

export function MoneyInput({ value, onChange, place, ...props }: MoneyInputProps) {
  const digits = minorDigits(place.currency);
  const format = useMemo(() => moneyFormat(place), [place.currency, place.locale]);
  // What is being typed ("12," on the way to "12,50") stays as typed; a new value from outside replaces it.
  const [typed, setTyped] = useState<number | string>(toMajor(value, digits));
  useEffect(() => {
    if ((value ?? '') !== toMinor(typed, digits)) setTyped(toMajor(value, digits));
  }, [value, digits]);
  return (
    <NumberInput
      clampBehavior="none"
      {...props}
      value={typed}
      decimalScale={digits}
      fixedDecimalScale
      decimalSeparator={format.decimal}
      thousandSeparator={format.group}
      prefix={format.prefix}
      suffix={format.suffix}
      onChange={(v) => {
        setTyped(v);
        onChange(toMinor(v, digits));
      }}
    />
  );
}
