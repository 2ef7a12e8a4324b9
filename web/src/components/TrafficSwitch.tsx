// The live / test switch of the report pages (liability, reports), and the notice they show while a chain has had
// test traffic only and they opened on it (traffic.ts decides).
import { Alert, SegmentedControl, Stack, Text } from '@mantine/core';

export function TrafficSwitch({ livemode, onChange }: { livemode: boolean; onChange: (livemode: boolean) => void }) {
  return (
    <Stack gap={6} justify="flex-end">
      <Text size="sm" fw={500}>
        Traffic
      </Text>
      <SegmentedControl
        value={livemode ? 'live' : 'test'}
        onChange={(v) => onChange(v !== 'test')}
        data={[
          { value: 'live', label: 'Live' },
          { value: 'test', label: 'Test' },
        ]}
        aria-label="Traffic"
      />
    </Stack>
  );
}

export function TestOnlyNotice() {
  return (
    <Alert color="orange" title="Only test traffic so far" data-testid="test-only">
      Showing what test keys did. Live figures show here once a live key sends its first check or enrols a member.
    </Alert>
  );
}
