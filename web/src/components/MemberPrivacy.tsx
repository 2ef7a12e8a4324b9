// A member's data requests on their page: download everything held about them, or erase them after typing a card
// number (or ERASE) to confirm.
import { Alert, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call, client, type Member } from '../api';

export function MemberPrivacy({ member }: { member: Member }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="xs">
        Personal data
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        On the guest&apos;s request: download everything held about them, or erase their name, phone, e-mail, birthday and cards. Their checks and ledger stay in the venue&apos;s accounts, anonymised.
      </Text>
      <Group>
        <Button component="a" href={`/dashboard/api/members/${member.id}/export`} download={`member-${member.id}.json`} variant="default">
          Export data
        </Button>
        <Button color="red" variant="light" onClick={() => setConfirming(true)}>
          Erase member
        </Button>
      </Group>
      {confirming && <EraseModal member={member} onClose={() => setConfirming(false)} />}
    </Paper>
  );
}

function EraseModal({ member, onClose }: { member: Member; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const expected = member.card_numbers[0] ?? 'ERASE';
  const confirmed = typed.trim() === 'ERASE' || member.card_numbers.includes(typed.trim());
  const erase = async () => {
    setError(undefined);
    setBusy(true);
    try {
      await call(client.POST('/dashboard/api/members/{id}/erase', { params: { path: { id: member.id } }, body: { confirm: typed.trim() } }));
      void qc.invalidateQueries({ queryKey: ['members'] });
      qc.removeQueries({ queryKey: ['member', member.id] });
      navigate('/members', { state: { notice: 'The member was erased.' } });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title="Erase this member?">
      <Stack>
        <Text size="sm">
          Their name, phone, card numbers and serial are removed everywhere, active holds are released, and no card, phone or scan finds them again. This cannot be undone.
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        <TextInput
          label={`Type ${expected === 'ERASE' ? 'ERASE' : `the card number ${expected} or ERASE`} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          autoComplete="off"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" disabled={!confirmed} loading={busy} onClick={() => void erase()}>
            Erase member
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
