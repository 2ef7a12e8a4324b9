// A button for what cannot simply be taken back (D27): it asks first, in words, and acts only on the second click.
import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';

export function ConfirmButton({
  title,
  message,
  confirmLabel,
  onConfirm,
  children,
  'aria-label': ariaLabel,
  ...button
}: ButtonProps & {
  /** The dialog's question: "Remove Tea from the menu?" */
  title: string;
  /** What will happen, said plainly. */
  message: ReactNode;
  /** The dialog's red button. */
  confirmLabel: string;
  onConfirm: () => Promise<unknown> | unknown;
  children: ReactNode;
  'aria-label'?: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <>
      <Button color="red" {...button} aria-label={ariaLabel} onClick={() => setOpen(true)}>
        {children}
      </Button>
      {open && (
        <Modal opened onClose={() => setOpen(false)} title={title}>
          <Stack>
            <Text size="sm">{message}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button color="red" loading={busy} onClick={() => void confirm()}>
                {confirmLabel}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}
