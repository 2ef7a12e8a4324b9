import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { call, client } from '../api';
import { applyApiError } from '../form-errors';
import { useSetSession } from '../session';

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Title order={2} mb="md">
          {title}
        </Title>
        {children}
      </Paper>
    </Center>
  );
}

export function SignInPage() {
  const setSession = useSetSession();
  const [error, setError] = useState<string>();
  const config = useQuery({ queryKey: ['config'], queryFn: () => call(client.GET('/dashboard/api/config')) });
  const form = useForm({ initialValues: { email: '', password: '' } });
  const submit = form.onSubmit(async (values) => {
    setError(undefined);
    try {
      // Signed in, the page asked for opens (a bookmark, a link); the bare address opens the overview.
      setSession(await call(client.POST('/dashboard/api/session', { body: values })));
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Card title="Sign in">
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="E-mail" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
          <Button type="submit" loading={form.submitting}>
            Sign in
          </Button>
          <Anchor component={Link} to="/forgot" size="sm">
            Forgot your password?
          </Anchor>
          {config.data?.signup_open && (
            <Text size="sm">
              New venue?{' '}
              <Anchor component={Link} to="/signup">
                Create an account
              </Anchor>
            </Text>
          )}
        </Stack>
      </form>
    </Card>
  );
}

/** The browser's time zone when it is one the server knows (UTC, say, is not a named zone); else Europe/Dublin. */
function browserTimeZone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return tz && Intl.supportedValuesOf('timeZone').includes(tz) ? tz : 'Europe/Dublin';
}

/**
 * A sign-up is confirmed by its link (issue 45). A server that sends e-mail mails it: the page says to look there.
 * One that does not shows it, and the page uses it at once with the password just typed.
 */
export function SignUpPage() {
  const setSession = useSetSession();
  const [error, setError] = useState<string>();
  const [mailedTo, setMailedTo] = useState<string>();
  const form = useForm({
    initialValues: { venue_name: '', email: '', password: '', currency: 'EUR', timezone: browserTimeZone() },
    validate: { password: (v) => (v.length < 10 ? 'At least 10 characters.' : null) },
  });
  const submit = form.onSubmit(async (values) => {
    setError(undefined);
    try {
      const sent = await call(client.POST('/dashboard/api/signup', { body: values }));
      if (!sent.link) return setMailedTo(values.email);
      const token = sent.link.slice(sent.link.indexOf('#') + 1);
      // Signed in, the app's routes take /signup to the keys: a new venue starts by making one.
      setSession(await call(client.POST('/dashboard/api/links/accept', { body: { token, password: values.password } })));
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  if (mailedTo) {
    return (
      <Card title="Check your inbox">
        <Alert color="green">
          We sent a link to {mailedTo}. Open it within 24 hours and enter the password you chose to open your dashboard.
        </Alert>
      </Card>
    );
  }
  return (
    <Card title="Create your venue">
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="Venue name" required {...form.getInputProps('venue_name')} />
          <TextInput label="E-mail" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordInput label="Password" description="At least 10 characters" autoComplete="new-password" required {...form.getInputProps('password')} />
          <TextInput label="Currency" description="ISO 4217, e.g. EUR, GBP" {...form.getInputProps('currency')} />
          <TextInput label="Time zone" {...form.getInputProps('timezone')} />
          <Button type="submit" loading={form.submitting}>
            Create venue
          </Button>
          <Text size="sm">
            Have an account?{' '}
            <Anchor component={Link} to="/">
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Card>
  );
}

/** A forgotten password: the link is e-mailed when the server sends e-mail; otherwise the chain's owner makes one. */
export function ForgotPasswordPage() {
  const [answer, setAnswer] = useState<{ emailed: boolean }>();
  const [error, setError] = useState<string>();
  const form = useForm({ initialValues: { email: '' } });
  const submit = form.onSubmit(async (values) => {
    setError(undefined);
    try {
      setAnswer(await call(client.POST('/dashboard/api/password-reset', { body: values })));
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Card title="Forgot your password?">
      <Stack>
        {answer?.emailed && (
          <Alert color="green">If this address has an account, a link to choose a new password is on its way. It works once, for 24 hours.</Alert>
        )}
        {answer && !answer.emailed && (
          <Alert color="yellow">
            This server does not send e-mail. Ask your chain&apos;s owner: on the Users page they can make you a link to choose a new password.
          </Alert>
        )}
        {!answer && (
          <form onSubmit={submit}>
            <Stack>
              {error && <Alert color="red">{error}</Alert>}
              <TextInput label="E-mail" type="email" autoComplete="username" required {...form.getInputProps('email')} />
              <Button type="submit" loading={form.submitting}>
                Send me a link
              </Button>
            </Stack>
          </form>
        )}
        <Anchor component={Link} to="/" size="sm">
          Back to sign-in
        </Anchor>
      </Stack>
    </Card>
  );
}
