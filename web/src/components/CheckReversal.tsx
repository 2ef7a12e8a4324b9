// Refund part of a check, or void it, from a member's page (D27): a confirmation that says what will happen, the till's
// own refusal in words beside the action, and the receipt after.
import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, money, type Venue } from '../api';
import { MoneyInput } from './MoneyInput';

export interface ReversedCheck {
  id: string;
  reference: string | null;
  /** What is left of what it paid: the most a refund can be. */
  spend: number;
}

/** A refund's own number, made once per dialog: sent again (a double click, a retry), it answers the same refund. */
const refundNumber = () => `dash-${crypto.randomUUID().slice(0, 8)}`;

export function CheckReversal({ check, action, memberId, venue, onClose }: { check: ReversedCheck; action: 'refund' | 'void'; memberId: string; venue: Venue; onClose: () => void }) {
  const qc = useQueryClient();
  const [amount, setAmount] = useState<number | ''>(check.spend);
  const [number] = useState(refundNumber);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<string[]>();
  const run = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const path = { params: { path: { id: check.id } } };
      const done =
        action === 'refund'
          ? await call(client.POST('/dashboard/api/transactions/{id}/refunds', { ...path, body: { amount: Number(amount), external_id: number } }))
          : await call(client.POST('/dashboard/api/transactions/{id}/void', path));
      setReceipt(done.display.receipt);
      void qc.invalidateQueries({ queryKey: ['member', memberId] });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const title = action === 'refund' ? `Refund check ${check.reference}?` : `Void check ${check.reference}?`;
  return (
    <Modal opened onClose={onClose} title={receipt ? (action === 'refund' ? 'Refunded' : 'Voided') : title}>
      {receipt ? (
        <Stack>
          <Text size="sm">The receipt, as the till prints it:</Text>
          <Code block>{receipt.join('\n')}</Code>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            {action === 'refund'
              ? `Cashback the check earned is taken back and cashback it redeemed given back, in proportion. Up to ${money(check.spend, venue)} can be refunded.`
              : 'Everything the check did is undone: the cashback it redeemed comes back, what it earned goes (the balance may go below zero), its spend and visit no longer count. This cannot be undone.'}
          </Text>
          {action === 'refund' && <MoneyInput label="Amount to refund" place={venue} value={amount} onChange={setAmount} />}
          {error && <Alert color="red">{error}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red" loading={busy} disabled={action === 'refund' && !amount} onClick={() => void run()}>
              {action === 'refund' ? 'Refund' : 'Void check'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
