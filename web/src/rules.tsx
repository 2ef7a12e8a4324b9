// The register rules of D12: as venue defaults (Venue page) and as a key's own overrides (API keys page).
import { NumberInput, Select, SimpleGrid, Switch } from '@mantine/core';
import type { KeyRules, VenueSettings } from './api';

type BoolRule = 'redeem_only_via_holds' | 'checks_numbered_per_register' | 'card_scan_required' | 'manual_adjustments_allowed';
type NumberRule = 'max_check_age_seconds' | 'max_cashback_per_check' | 'max_cashback_per_day' | 'hold_ttl_seconds';

export const BOOL_RULES: { key: BoolRule; label: string; description: string }[] = [
  { key: 'redeem_only_via_holds', label: 'Redeem only via holds', description: 'Cashback is spent only by capturing a hold (hold_required).' },
  { key: 'checks_numbered_per_register', label: 'Checks numbered per register', description: 'register_id is required on checks.' },
  { key: 'card_scan_required', label: 'Card scan required', description: 'A check needs a card the same key scanned shortly before.' },
  { key: 'manual_adjustments_allowed', label: 'Adjustments through the API', description: 'Keys with members:adjust may change balances.' },
];

export const NUMBER_RULES: { key: NumberRule; label: string; description: string; nullable: boolean; min: number }[] = [
  { key: 'max_check_age_seconds', label: 'Max check age (s)', description: 'Older closed_at is refused; empty: no limit.', nullable: true, min: 1 },
  { key: 'max_cashback_per_check', label: 'Max cashback per check', description: 'Minor units (cents); empty: no cap.', nullable: true, min: 0 },
  { key: 'max_cashback_per_day', label: 'Max cashback per day', description: 'Minor units per member per day; empty: no cap.', nullable: true, min: 0 },
  { key: 'hold_ttl_seconds', label: 'Hold lifetime (s)', description: '30 to 86400.', nullable: false, min: 30 },
];

/** Venue defaults: every rule has a value. */
export function VenueRulesFields({ value, onChange, errors }: { value: VenueSettings; onChange: (v: VenueSettings) => void; errors?: Record<string, string> }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {BOOL_RULES.map((r) => (
        <Switch key={r.key} label={r.label} description={r.description} checked={value[r.key]} onChange={(e) => onChange({ ...value, [r.key]: e.currentTarget.checked })} />
      ))}
      {NUMBER_RULES.map((r) => (
        <NumberInput
          key={r.key}
          label={r.label}
          description={r.description}
          min={r.min}
          allowDecimal={false}
          value={value[r.key] ?? ''}
          error={errors?.[`settings.${r.key}`]}
          onChange={(v) => onChange({ ...value, [r.key]: v === '' ? (r.nullable ? null : value[r.key]) : Number(v) })}
        />
      ))}
    </SimpleGrid>
  );
}

/** A key's own rules: each one either follows the venue (absent) or overrides it. */
export function KeyRulesFields({ value, onChange, venue }: { value: KeyRules; onChange: (v: KeyRules) => void; venue: VenueSettings }) {
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
            { value: 'default', label: `Venue default (${venue[r.key] ? 'on' : 'off'})` },
            { value: 'on', label: 'On' },
            { value: 'off', label: 'Off' },
          ]}
          value={value[r.key] === undefined ? 'default' : value[r.key] ? 'on' : 'off'}
          onChange={(v) => set(r.key, v === 'on' ? true : v === 'off' ? false : undefined)}
        />
      ))}
      {NUMBER_RULES.map((r) => (
        <NumberInput
          key={r.key}
          label={r.label}
          description={`Empty: venue default (${venue[r.key] ?? 'none'})`}
          min={r.min}
          allowDecimal={false}
          value={value[r.key] ?? ''}
          onChange={(v) => set(r.key, v === '' ? undefined : Number(v))}
        />
      ))}
    </SimpleGrid>
  );
}

export function describeRules(rules: KeyRules): string {
  const parts = Object.entries(rules).map(([k, v]) => `${k.replaceAll('_', ' ')}: ${v === true ? 'on' : v === false ? 'off' : v ?? 'none'}`);
  return parts.length ? parts.join(', ') : 'Venue defaults';
}
