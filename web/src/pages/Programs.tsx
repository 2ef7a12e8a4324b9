import { ActionIcon, Alert, Badge, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, client, money, type Program } from '../api';
import { MoneyInput } from '../components/MoneyInput';
import { useVenue } from '../session';

type Settings = Record<string, any>;
type ProgramType = 'cashback' | 'stamps' | 'visit_discount' | 'vip';

const BARCODE_LABEL: Record<string, string> = {
  qr_card_number: 'QR code of the card number',
  code128_card_number: 'Barcode (Code 128) of the card number',
  qr_serial: "QR code of the member's own number",
};

const TYPE_LABEL: Record<ProgramType, string> = { cashback: 'Cashback', stamps: 'Stamps', visit_discount: 'Visit discount', vip: 'VIP' };
const STARTING: Record<ProgramType, Settings> = {
  cashback: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }], max_redeem_percent: 100 },
  stamps: { stamps_required: 8, reward_name: 'Free coffee', stamps_per_visit: 1, min_check_amount: 0 },
  visit_discount: { tiers: [{ min_visits: 0, percent: 0 }, { min_visits: 5, percent: 5 }] },
  vip: { levels: [{ name: 'Guest', min_spend: 0, percent: 0 }, { name: 'VIP', min_spend: 100000, percent: 10 }] },
};

function summary(p: Program, venue: { currency: string; locale: string }): string {
  const s = p.settings as Settings;
  switch (p.type) {
    case 'cashback':
    case 'vip': {
      const levels = s.levels.map((l: Settings) => `${l.name} ${l.percent} % from ${money(l.min_spend, venue)}`).join(' · ');
      const period = s.level_period_days ? ` · levels on the last ${s.level_period_days} days` : '';
      return s.cashback_expires_after_days ? `${levels}${period} · expires after ${s.cashback_expires_after_days} days` : `${levels}${period}`;
    }
    case 'stamps':
      return `${s.stamps_required} stamps → ${s.reward_name}`;
    case 'visit_discount':
      return s.tiers.map((t: Settings) => `${t.percent} % from ${t.min_visits} visits`).join(' · ');
  }
}

export function ProgramsPage() {
  const programs = useQuery({ queryKey: ['programs'], queryFn: () => call(client.GET('/dashboard/api/programs')) });
  const [editing, setEditing] = useState<Program | 'new'>();
  const venue = useVenue();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Programs</Title>
        <Button onClick={() => setEditing('new')}>New program</Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {programs.data?.map((p) => (
          <Card key={p.id} withBorder data-program={p.name}>
            <Group justify="space-between" mb="xs">
              <Text fw={600}>{p.name}</Text>
              <Group gap={4}>
                <Badge variant="light">{TYPE_LABEL[p.type as ProgramType]}</Badge>
                {p.is_default && <Badge color="teal">default</Badge>}
              </Group>
            </Group>
            <Text size="sm" c="dimmed" mb="sm">
              {summary(p, venue)}
            </Text>
            <Text size="xs" c="dimmed" mb="sm">
              Card: {BARCODE_LABEL[p.barcode_format] ?? p.barcode_format}
            </Text>
            <Button size="xs" variant="default" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
              Edit
            </Button>
          </Card>
        ))}
      </SimpleGrid>
      {editing && <ProgramModal program={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Stack>
  );
}

function ProgramModal({ program, onClose }: { program?: Program; onClose: () => void }) {
  const qc = useQueryClient();
  const [type, setType] = useState<ProgramType>((program?.type as ProgramType) ?? 'cashback');
  const [name, setName] = useState(program?.name ?? '');
  const [barcode, setBarcode] = useState<string>(program?.barcode_format ?? 'qr_card_number');
  const [isDefault, setIsDefault] = useState(program?.is_default ?? false);
  const [settings, setSettings] = useState<Settings>(structuredClone((program?.settings as Settings) ?? STARTING.cashback));
  const [error, setError] = useState<ApiError | Error>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setError(undefined);
    setSaving(true);
    try {
      const barcode_format = barcode as 'qr_card_number';
      if (program) {
        await call(
          client.PATCH('/dashboard/api/programs/{id}', {
            params: { path: { id: program.id } },
            body: { name, settings, barcode_format, ...(isDefault && !program.is_default ? { is_default: true as const } : {}) },
          }),
        );
      } else {
        await call(client.POST('/dashboard/api/programs', { body: { name, type, settings, barcode_format, is_default: isDefault } }));
      }
      void qc.invalidateQueries({ queryKey: ['programs'] });
      onClose();
    } catch (err) {
      setError(err as Error);
    } finally {
      setSaving(false);
    }
  };
  const fieldError = (param: string) => (error instanceof ApiError && error.param === param ? error.message : undefined);
  // A setting's error shows beside its field (settings.levels[1].percent); one about the settings as a whole above.
  const besideField = error instanceof ApiError && (error.param === 'name' || !!error.param?.startsWith('settings.'));
  return (
    <Modal opened onClose={onClose} title={program ? `Edit “${program.name}”` : 'New program'} size="xl">
      <Stack>
        {error && !besideField && <Alert color="red">{error.message}</Alert>}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Program name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError('name')} />
          <Select
            label="Type"
            disabled={!!program}
            allowDeselect={false}
            data={Object.entries(TYPE_LABEL).map(([value, label]) => ({ value, label }))}
            value={type}
            onChange={(v) => {
              setType(v as ProgramType);
              setSettings(structuredClone(STARTING[v as ProgramType]));
            }}
          />
          <Select
            label="What the member's card shows"
            allowDeselect={false}
            data={Object.entries(BARCODE_LABEL).map(([value, label]) => ({ value, label }))}
            value={barcode}
            onChange={(v) => setBarcode(v ?? 'qr_card_number')}
          />
          <Switch mt="lg" label="Default program" disabled={program?.is_default} checked={isDefault} onChange={(e) => setIsDefault(e.currentTarget.checked)} />
        </SimpleGrid>
        <SettingsEditor type={type} value={settings} onChange={setSettings} errorAt={(path) => fieldError(`settings.${path}`)} />
        <Group justify="flex-end">
          <Button loading={saving} onClick={save}>
            Save program
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type ErrorAt = (path: string) => string | undefined;

function SettingsEditor({ type, value, onChange, errorAt }: { type: ProgramType; value: Settings; onChange: (s: Settings) => void; errorAt: ErrorAt }) {
  const venue = useVenue();
  const set = (key: string, v: unknown) => onChange({ ...value, [key]: v });
  if (type === 'stamps') {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput label="Stamps required" clampBehavior="none" error={errorAt('stamps_required')} value={value.stamps_required} onChange={(v) => set('stamps_required', Number(v))} />
        <TextInput label="Reward name" error={errorAt('reward_name')} value={value.reward_name} onChange={(e) => set('reward_name', e.currentTarget.value)} />
        <NumberInput label="Stamps per visit" clampBehavior="none" error={errorAt('stamps_per_visit')} value={value.stamps_per_visit ?? 1} onChange={(v) => set('stamps_per_visit', Number(v))} />
        <MoneyInput label="Smallest check that earns a stamp" place={venue} error={errorAt('min_check_amount')} value={value.min_check_amount ?? 0} onChange={(v) => set('min_check_amount', v === '' ? 0 : v)} />
      </SimpleGrid>
    );
  }
  if (type === 'visit_discount') {
    return (
      <Rows
        title="Tiers"
        rows={value.tiers}
        onChange={(tiers) => set('tiers', tiers)}
        errorAt={(path) => errorAt(`tiers${path}`)}
        blank={{ min_visits: 0, percent: 0 }}
        columns={[
          { key: 'min_visits', label: 'From visits', kind: 'int' },
          { key: 'percent', label: 'Discount %', kind: 'percent' },
        ]}
      />
    );
  }
  return (
    <Stack>
      <Rows
        title="Levels"
        rows={value.levels}
        onChange={(levels) => set('levels', levels)}
        errorAt={(path) => errorAt(`levels${path}`)}
        blank={{ name: '', min_spend: 0, percent: 0 }}
        columns={[
          { key: 'name', label: 'Level name', kind: 'text' },
          { key: 'min_spend', label: 'From spend', kind: 'money' },
          { key: 'percent', label: 'Percent', kind: 'percent' },
        ]}
      />
      <NumberInput
        label="Levels judged on the last (days)"
        description="Empty: on all spend. Set: a guest falls a level as old spend leaves the window"
        clampBehavior="none"
        allowDecimal={false}
        error={errorAt('level_period_days')}
        value={value.level_period_days ?? ''}
        onChange={(v) => set('level_period_days', v === '' ? undefined : Number(v))}
        maw={320}
      />
      {type === 'cashback' && (
        <NumberInput
          label="Most of a check payable with cashback (%)"
          clampBehavior="none"
          decimalScale={2}
          error={errorAt('max_redeem_percent')}
          value={value.max_redeem_percent ?? 100}
          onChange={(v) => set('max_redeem_percent', Number(v))}
          maw={320}
        />
      )}
      {type === 'cashback' && (
        <Group align="flex-start">
          <NumberInput
            label="Cashback expires after (days)"
            description="Empty: never. Members are told before theirs expires"
            clampBehavior="none"
            allowDecimal={false}
            error={errorAt('cashback_expires_after_days')}
            value={value.cashback_expires_after_days ?? ''}
            onChange={(v) => set('cashback_expires_after_days', v === '' ? undefined : Number(v))}
            maw={320}
          />
          {value.cashback_expires_after_days !== undefined && (
            <NumberInput
              label="Warn members"
              description="Days before; 0: no warning"
              clampBehavior="none"
              allowDecimal={false}
              error={errorAt('cashback_expiry_warning_days')}
              value={value.cashback_expiry_warning_days ?? 7}
              onChange={(v) => set('cashback_expiry_warning_days', Number(v))}
              maw={320}
            />
          )}
        </Group>
      )}
    </Stack>
  );
}

interface Column {
  key: string;
  label: string;
  kind: 'text' | 'int' | 'percent' | 'money';
}

function Rows({ title, rows, onChange, columns, blank, errorAt }: { title: string; rows: Settings[]; onChange: (r: Settings[]) => void; columns: Column[]; blank: Settings; errorAt: ErrorAt }) {
  const venue = useVenue();
  const setCell = (i: number, key: string, v: unknown) => onChange(rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  return (
    <Stack gap="xs">
      <Text fw={500}>{title}</Text>
      {rows.map((row, i) => (
        <Group key={i} align="flex-end" wrap="wrap" gap="xs" data-row={i}>
          {columns.map((c) =>
            c.kind === 'text' ? (
              <TextInput key={c.key} label={`${c.label} ${i + 1}`} error={errorAt(`[${i}].${c.key}`)} value={row[c.key]} onChange={(e) => setCell(i, c.key, e.currentTarget.value)} w={160} />
            ) : c.kind === 'money' ? (
              <MoneyInput key={c.key} label={`${c.label} ${i + 1}`} place={venue} error={errorAt(`[${i}].${c.key}`)} value={row[c.key]} onChange={(v) => setCell(i, c.key, v === '' ? 0 : v)} w={160} />
            ) : (
              <NumberInput
                key={c.key}
                label={`${c.label} ${i + 1}`}
                clampBehavior="none"
                error={errorAt(`[${i}].${c.key}`)}
                decimalScale={c.kind === 'percent' ? 2 : 0}
                value={row[c.key]}
                onChange={(v) => setCell(i, c.key, Number(v))}
                w={160}
              />
            ),
          )}
          <ActionIcon variant="light" color="red" size="lg" aria-label={`Remove ${title.toLowerCase()} ${i + 1}`} disabled={rows.length === 1} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            ×
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button size="xs" variant="light" onClick={() => onChange([...rows, { ...blank }])}>
          Add {title === 'Levels' ? 'level' : 'tier'}
        </Button>
      </Group>
    </Stack>
  );
}
