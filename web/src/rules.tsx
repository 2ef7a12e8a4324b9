// The register rules of D12: as venue defaults (Venue page) and as a key's own overrides (API keys page).
import { NumberInput, Select, SimpleGrid, Switch } from '@mantine/core';
import { money, type KeyRules, type VenueSettings } from './api';
import { MoneyInput } from './components/MoneyInput';
import { useVenue } from './session';

type BoolRule = 'redeem_only_via_holds' | 'checks_numbered_per_register' | 'card_scan_required' | 'manual_adjustments_allowed';
type NumberRule = 'max_check_age_seconds' | 'max_cashback_per_check' | 'max_cashback_per_day' | 'hold_ttl_seconds';

export const BOOL_RULES: { key: BoolRule; label: string; description: string }[] = [
  { key: 'redeem_only_via_holds', label: 'Pay with cashback only through a hold', description: 'The till reserves the cashback first, then takes it when the bill is paid.' },
  { key: 'checks_numbered_per_register', label: 'Checks numbered per till', description: 'Every check must say which till it came from.' },
  { key: 'card_scan_required', label: 'Card scan required', description: 'A check counts only for a card the same till scanned shortly before.' },
  { key: 'manual_adjustments_allowed', label: 'Balance changes from other software', description: 'API keys allowed to adjust balances may add or take away cashback.' },
];

export const NUMBER_RULES: { key: NumberRule; label: string; description: string; nullable: boolean; money: boolean }[] = [
  { key: 'max_check_age_seconds', label: 'Oldest check accepted (seconds)', description: 'A check closed longer ago is refused; empty: any age.', nullable: true, money: false },
  { key: 'max_cashback_per_check', label: 'Most cashback one check earns', description: 'Empty: no limit.', nullable: true, money: true },
  { key: 'max_cashback_per_day', label: 'Most cashback a member earns a day', description: 'Empty: no limit.', nullable: true, money: true },
  { key: 'hold_ttl_seconds', label: 'How long a hold lasts (seconds)', description: '30 to 86,400 (a day).', nullable: false, money: false },
];

/** A number rule's field: money in the venue's currency, seconds as a whole number; never clamped. */
function NumberRuleInput({ rule, value, onChange, description, error }: { rule: (typeof NUMBER_RULES)[number]; value: number | null | undefined; onChange: (v: number | '') => void; description: string; error?: string }) {
  const venue = useVenue();
  const common = { label: rule.label, description, error, clampBehavior: 'none' as const };
  if (rule.money) return <MoneyInput {...common} place={venue} value={value} onChange={onChange} />;
  return <NumberInput {...common} allowDecimal={false} value={value ?? ''} onChange={(v) => onChange(v === '' ? '' : Number(v))} />;
}

/** Venue defaults: every rule has a value. */
export function VenueRulesFields({ value, onChange, errors }: { value: VenueSettings; onChange: (v: VenueSettings) => void; errors?: Record<string, string> }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {BOOL_RULES.map((r) => (
        <Switch key={r.key} label={r.label} description={r.description} checked={value[r.key]} onChange={(e) => onChange({ ...value, [r.key]: e.currentTarget.checked })} />
      ))}
      {NUMBER_RULES.map((r) => (
        <NumberRuleInput
          key={r.key}
          rule={r}
          description={r.description}
          value={value[r.key]}
          error={errors?.[`settings.${r.key}`]}
          onChange={(v) => onChange({ ...value, [r.key]: v === '' ? (r.nullable ? null : value[r.key]) : v })}
        />
      ))}
    </SimpleGrid>
  );
}

/** A key's own rules: each one either follows the venue (absent) or overrides it. */
export function KeyRulesFields({ value, onChange, venue }: { value: KeyRules; onChange: (v: KeyRules) => void; venue: VenueSettings }) {
  const place = useVenue();
  const shown = (r: (typeof NUMBER_RULES)[number], v: number | null) => (v === null ? 'none' : r.money ? money(v, place) : String(v));
  const set = (key: string, v: unknown) => {
    const next: Record<string, unknown> = { ...value };
    if (v === undefined) delete next[key];
    else next[key] = v;
    onChange(next as KeyRules);
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {BOOL_RULES.map((r) => (
        <Select
          key={r.key}
          label={r.label}
          allowDeselect={false}
          data={[
            { value: 'default', label: `As the venue (${venue[r.key] ? 'on' : 'off'})` },
            { value: 'on', label: 'On' },
            { value: 'off', label: 'Off' },
          ]}
          value={value[r.key] === undefined ? 'default' : value[r.key] ? 'on' : 'off'}
          onChange={(v) => set(r.key, v === 'on' ? true : v === 'off' ? false : undefined)}
        />
      ))}
      {NUMBER_RULES.map((r) => (
        <NumberRuleInput key={r.key} rule={r} description={`Empty: as the venue (${shown(r, venue[r.key])})`} value={value[r.key]} onChange={(v) => set(r.key, v === '' ? undefined : v)} />
      ))}
    </SimpleGrid>
  );
}

/** A key's own rules in words: each rule's label and its value (money in the venue's currency). */
export function describeRules(rules: KeyRules, place: { currency: string; locale: string }): string {
  const parts = Object.entries(rules).map(([k, v]) => {
    const bool = BOOL_RULES.find((r) => r.key === k);
    const number = NUMBER_RULES.find((r) => r.key === k);
    const shown = v === true ? 'on' : v === false ? 'off' : v === null || v === undefined ? 'none' : number?.money ? money(v as number, place) : String(v);
    return `${bool?.label ?? number?.label ?? k}: ${shown}`;
  });
  return parts.length ? parts.join(', ') : 'As the venue';
}
