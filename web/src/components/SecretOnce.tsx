// A secret shown the one time the server answers it (a new key's, a new endpoint's), with a copy button.
import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';

export function SecretOnceModal({ secret, title, warning, testId, onClose }: { secret: string | undefined; title: string; warning: string; testId: string; onClose: () => void }) {
  return (
    <Modal opened={secret !== undefined} onClose={onClose} title={title} size="lg" closeOnClickOutside={false}>
      <Stack>
        <Alert color="yellow">{warning}</Alert>
        <Code block data-testid={testId} style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
