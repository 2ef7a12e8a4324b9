// A secret shown the one time the server answers it (a new key's, a new endpoint's, a generated Toast key), with a copy
// button: on its own in a page, or in a modal.
import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** The warning, the secret and "Copy"; `children` (a "Done") sit on the copy button's row. */
export function SecretOnce({ secret, warning, testId, copyLabel = 'Copy', children }: { secret: string; warning: string; testId: string; copyLabel?: string; children?: ReactNode }) {
  return (
    <Stack>
      <Alert color="yellow">{warning}</Alert>
      <Code block data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {secret}
      </Code>
      <Group justify="space-between">
        <CopyButton value={secret}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : copyLabel}</Button>}</CopyButton>
        {children}
      </Group>
    </Stack>
  );
}

export function SecretOnceModal({ secret, title, warning, testId, onClose }: { secret: string | undefined; title: string; warning: string; testId: string; onClose: () => void }) {
  return (
    <Modal opened={secret !== undefined} onClose={onClose} title={title} size="lg" closeOnClickOutside={false}>
      <SecretOnce secret={secret ?? ''} warning={warning} testId={testId}>
        <Button variant="default" onClick={onClose}>
          Done
        </Button>
      </SecretOnce>
    </Modal>
  );
}
