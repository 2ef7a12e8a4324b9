// A member's birthday on their page: what birthday campaigns credit on, set or cleared by the owner.
import { Alert, Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, type Member } from '../api';
import { applyApiError } from '../form-errors';

export function MemberBirthday({ member }: { member: Member }) {
  const qc = useQueryClient();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const form = useForm({ initialValues: { birthday: member.birthday ?? '' } });
  const save = form.onSubmit(async (v) => {
    setError(undefined);
    setSaved(false);
    try {
      const changed = await call(
        client.PATCH('/dashboard/api/members/{id}', { params: { path: { id: member.id } }, body: { birthday: v.birthday.trim() || null } }),
      );
      form.setValues({ birthday: changed.birthday ?? '' });
      setSaved(true);
      void qc.invalidateQueries({ queryKey: ['member', member.id] });
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <form onSubmit={save}>
      {error && <Alert color="red">{error}</Alert>}
      <Group align="flex-end" mt="sm">
        <TextInput
          label="Birthday"
          description="Month and day (12-31) or the whole date (1990-12-31); empty for none. Birthday campaigns give their treat on it."
          placeholder="MM-DD"
          w={320}
          maw="100%"
          {...form.getInputProps('birthday')}
        />
        <Button type="submit" variant="default" loading={form.submitting}>
          Save birthday
        </Button>
      </Group>
      {saved && <Alert color="green" mt="xs">Birthday saved.</Alert>}
    </form>
  );
}
