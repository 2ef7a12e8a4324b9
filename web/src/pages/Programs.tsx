import { ActionIcon, Alert, Badge, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, client, type Program } from '../api';

type Settings = Record<string, any>;
type ProgramType = 'cashback' | 'stamps' | 'visit_discount' | 'vip';

const TYPE_LABEL: Record<ProgramType, string> = { cashback: 'Cashback', stamps: 'Stamps', visit_discount: 'Visit discount', vip: 'VIP' };
const STARTING: Record<ProgramType, Settings> = {
  cashback: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }], max_redeem_percent: 100 },
  stamps: { stamps_required: 8, reward_name: 'Free coffee', stamps_per_visit: 1, min_check_amount: 0 },
  visit_discount: { tiers: [{ min_visits: 0, percent: 0 }, { min_visits: 5, percent: 5 }] },
  vip: { levels: [{ name: 'Guest', min_spend: 0, percent: 0 }, { name: 'VIP', min_spend: 100000, percent: 10 }] },
};

function summary(p: Program): string {
  const s = p.settings as Settings;
  switch (p.type) {
    case 'cashback':
    case 'vip': {
      const levels = s.levels.map((l: Settings) => `${l.name} ${l.percent} % from ${l.min_spend}`).join(' · ');
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
              {summary(p)}
            </Text>
            <Text size="xs" c="dimmed" mb="sm">
              Barcode: {p.barcode_format}
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
  return (
    <Modal opened onClose={onClose} title={program ? `Edit “${program.name}”` : 'New program'} size="xl">
      <Stack>
        {error && !(error instanceof ApiError && (error.param === 'name' || error.param === 'settings')) && <Alert color="red">{error.message}</Alert>}
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
            label="Barcode format"
            allowDeselect={false}
            data={['qr_card_number', 'code128_card_number', 'qr_serial']}
            value={barcode}
            onChange={(v) => setBarcode(v ?? 'qr_card_number')}
          />
          <Switch mt="lg" label="Default program" disabled={program?.is_default} checked={isDefault} onChange={(e) => setIsDefault(e.currentTarget.checked)} />
        </SimpleGrid>
        <SettingsEditor type={type} value={settings} onChange={setSettings} />
        {fieldError('settings') && <Alert color="red">{fieldError('settings')}</Alert>}
        <Group justify="flex-end">
          <Button loading={saving} onClick={save}>
            Save program
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SettingsEditor({ type, value, onChange }: { type: ProgramType; value: Settings; onChange: (s: Settings) => void }) {
  const set = (key: string, v: unknown) => onChange({ ...value, [key]: v });
  if (type === 'stamps') {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput label="Stamps required" min={1} max={100} value={value.stamps_required} onChange={(v) => set('stamps_required', Number(v))} />
        <TextInput label="Reward name" value={value.reward_name} onChange={(e) => set('reward_name', e.currentTarget.value)} />
        <NumberInput label="Stamps per visit" min={1} max={100} value={value.stamps_per_visit ?? 1} onChange={(v) => set('stamps_per_visit', Number(v))} />
        <NumberInput label="Minimum check (minor units)" min={0} value={value.min_check_amount ?? 0} onChange={(v) => set('min_check_amount', Number(v))} />
      </SimpleGrid>
    );
  }
  if (type === 'visit_discount') {
    return (
      <Rows
        title="Tiers"
        rows={value.tiers}
        onChange={(tiers) => set('tiers', tiers)}
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
        blank={{ name: '', min_spend: 0, percent: 0 }}
        columns={[
          { key: 'name', label: 'Level name', kind: 'text' },
          { key: 'min_spend', label: 'From spend (minor units)', kind: 'int' },
          { key: 'percent', label: 'Percent', kind: 'percent' },
        ]}
      />
      <NumberInput
        label="Levels judged on the last (days)"
        description="Empty: on all spend. Set: a guest falls a level as old spend leaves the window"
        min={1}
        max={3650}
        allowDecimal={false}
        value={value.level_period_days ?? ''}
        onChange={(v) => set('level_period_days', v === '' ? undefined : Number(v))}
        maw={320}
      />
      {type === 'cashback' && (
        <NumberInput
          label="Most of a check payable with cashback (%)"
          min={0}
          max={100}
          decimalScale={2}
          value={value.max_redeem_percent ?? 100}
          onChange={(v) => set('max_redeem_percent', Number(v))}
          maw={320}
        />
      )}
      {type === 'cashback' && (
        <Group align="flex-start">
          <NumberInput
            label="Cashback expires after (days)"
            description="Empty: never. See docs/members.md"
            min={1}
            max={3650}
            allowDecimal={false}
            value={value.cashback_expires_after_days ?? ''}
            onChange={(v) => set('cashback_expires_after_days', v === '' ? undefined : Number(v))}
            maw={320}
          />
          {value.cashback_expires_after_days !== undefined && (
            <NumberInput
              label="Warn members (days before)"
              description="cashback.expiring; 0: no warning"
              min={0}
              max={365}
              allowDecimal={false}
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
  kind: 'text' | 'int' | 'percent';
}

function Rows({ title, rows, onChange, columns, blank }: { title: string; rows: Settings[]; onChange: (r: Settings[]) => void; columns: Column[]; blank: Settings }) {
  const setCell = (i: number, key: string, v: unknown) => onChange(rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  return (
    <Stack gap="xs">
      <Text fw={500}>{title}</Text>
      {rows.map((row, i) => (
        <Group key={i} align="flex-end" wrap="wrap" gap="xs" data-row={i}>
          {columns.map((c) =>
            c.kind === 'text' ? (
              <TextInput key={c.key} label={`${c.label} ${i + 1}`} value={row[c.key]} onChange={(e) => setCell(i, c.key, e.currentTarget.value)} w={160} />
            ) : (
              <NumberInput
                key={c.key}
                label={`${c.label} ${i + 1}`}
                min={0}
                max={c.kind === 'percent' ? 100 : undefined}
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
