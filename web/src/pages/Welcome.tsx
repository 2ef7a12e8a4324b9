// The page a sign-up, invitation or password reset link opens (D24, issue 45): the token is the link's fragment (never
// sent in a request's address). A sign-up's is used with the password chosen then; an invitation's or reset's with
// a password chosen here. A used, expired or unknown link says so, and so does one for an address that has an account.
import { Alert, Anchor, Button, Center, Loader, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, call, client } from '../api';
import { applyApiError } from '../form-errors';
import { useSetSession } from '../session';

const ROLE_WORDS = { owner: 'an owner', manager: 'a manager', staff: 'staff' } as const;

/** What a dead link says, in the user's words. */
const DEAD: Record<string, string> = {
  link_used: 'This link has already been used. Sign in with the password chosen then, or ask for a new link.',
  link_expired: 'This link has expired: invitations last 7 days, sign-ups and password resets 24 hours. Ask for a new one, or sign up again.',
  link_not_found: 'This link is not valid: it may be mistyped, withdrawn, or replaced by a newer one. Ask for a new one.',
  email_taken: 'This address already has a dashboard account, and an address belongs to one chain. Sign in, or use "Forgot your password?" on the sign-in page.',
};

export function WelcomePage() {
  const token = window.location.hash.slice(1);
  const setSession = useSetSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const link = useQuery({
    queryKey: ['link', token],
    queryFn: () => call(client.POST('/dashboard/api/links/inspect', { body: { token: token || '-' } })),
    retry: false,
  });
  const signUp = link.data?.purpose === 'signup';
  const form = useForm({
    initialValues: { password: '', repeat: '' },
    validate: {
      password: (v) => (v.length < 10 ? 'At least 10 characters.' : null),
      repeat: (v, all) => (!signUp && v !== all.password ? 'The two passwords differ.' : null),
    },
  });
  const submit = form.onSubmit(async ({ password }) => {
    setError(undefined);
    try {
      const session = await call(client.POST('/dashboard/api/links/accept', { body: { token, password } }));
      window.history.replaceState(null, '', window.location.pathname);
      // Whoever was signed in here before is signed out of these pages: nothing of theirs stays loaded.
      setSession(null);
      setSession(session);
      navigate('/');
    } catch (err) {
      setError(err instanceof ApiError && DEAD[err.code] ? DEAD[err.code] : applyApiError(form, err));
    }
  });
  const dead = link.error instanceof ApiError ? (DEAD[link.error.code] ?? link.error.message) : link.error ? 'The link could not be checked; try again.' : undefined;
  const invitation = link.data?.purpose === 'invitation';
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={440}>
        <Title order={2} mb="md">
          {link.data ? (signUp ? `Open ${link.data.chain_name}` : invitation ? `Join ${link.data.chain_name}` : 'Choose a new password') : 'Your link'}
        </Title>
        {link.isLoading && <Loader />}
        {dead && (
          <Stack>
            <Alert color="red" title="This link cannot be used">
              {dead}
            </Alert>
            <Anchor component={Link} to="/">
              Go to sign-in
            </Anchor>
          </Stack>
        )}
        {link.data && (
          <form onSubmit={submit}>
            <Stack>
              <Text>
                {signUp
                  ? `Enter the password you chose when you signed up ${link.data.chain_name} with ${link.data.email}.`
                  : invitation
                    ? `You are invited to ${link.data.chain_name}'s dashboard as ${ROLE_WORDS[link.data.role ?? 'staff']}. Choose a password for ${link.data.email}.`
                    : `Choose a new password for ${link.data.email}. You will be signed out everywhere else.`}
              </Text>
              {error && <Alert color="red">{error}</Alert>}
              {signUp ? (
                <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
              ) : (
                <>
                  <PasswordInput label="New password" description="At least 10 characters" autoComplete="new-password" required {...form.getInputProps('password')} />
                  <PasswordInput label="The same password again" autoComplete="new-password" required {...form.getInputProps('repeat')} />
                </>
              )}
              <Button type="submit" loading={form.submitting}>
                {signUp ? 'Open my dashboard' : invitation ? 'Join and sign in' : 'Set password and sign in'}
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
