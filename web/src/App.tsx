import { AppShell, Burger, Group, Loader, NavLink, Text, Title, Button, Center } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Navigate, Route, Routes, useLocation, useNavigate, Link } from 'react-router';
import { call, client } from './api';
import { useSession, useSetSession } from './session';
import { SignInPage, SignUpPage } from './pages/Auth';
import { KeysPage } from './pages/Keys';
import { VenuePage } from './pages/Venue';
import { CategoriesPage } from './pages/Categories';
import { ProgramsPage } from './pages/Programs';
import { MemberPage, MembersPage } from './pages/Members';
import { AccountPage } from './pages/Account';
import { TransactionPage, TransactionsPage } from './pages/Transactions';
import { WebhooksPage } from './pages/Webhooks';
import { OverviewPage } from './pages/Overview';
import { MenuPage } from './pages/Menu';
import { OrdersPage } from './pages/Orders';

const NAV = [
  { to: '/overview', label: 'Overview' },
  { to: '/keys', label: 'API keys' },
  { to: '/venue', label: 'Venue and rules' },
  { to: '/categories', label: 'Categories' },
  { to: '/programs', label: 'Programs' },
  { to: '/members', label: 'Members' },
  { to: '/transactions', label: 'Transactions' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/menu', label: 'Menu and tables' },
  { to: '/orders', label: 'Orders' },
  { to: '/account', label: 'Account' },
];

export function App() {
  const { data: session, isLoading } = useSession();
  if (isLoading) {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }
  if (!session) {
    return (
      <Routes>
        <Route path="/signup" element={<SignUpPage />} />
        <Route path="*" element={<SignInPage />} />
      </Routes>
    );
  }
  return <Shell />;
}

function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const { data: session } = useSession();
  const setSession = useSetSession();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = async () => {
    await call(client.DELETE('/dashboard/api/session'));
    navigate('/');
    setSession(null);
  };
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap" gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={4} style={{ whiteSpace: 'nowrap' }}>
              {session?.venue.name}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="sm">
              {session?.owner.email}
            </Text>
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Pages">
        {NAV.map((n) => (
          <NavLink key={n.to} component={Link} to={n.to} label={n.label} active={location.pathname.startsWith(n.to)} onClick={close} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Routes>
          <Route path="/overview" element={<OverviewPage />} />
          <Route path="/keys" element={<KeysPage />} />
          <Route path="/venue" element={<VenuePage />} />
          <Route path="/categories" element={<CategoriesPage />} />
          <Route path="/programs" element={<ProgramsPage />} />
          <Route path="/members" element={<MembersPage />} />
          <Route path="/members/:id" element={<MemberPage />} />
          <Route path="/transactions" element={<TransactionsPage />} />
          <Route path="/transactions/:id" element={<TransactionPage />} />
          <Route path="/webhooks" element={<WebhooksPage />} />
          <Route path="/menu" element={<MenuPage />} />
          <Route path="/orders" element={<OrdersPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/signup" element={<Navigate to="/keys" replace />} />
          <Route path="*" element={<Navigate to="/overview" replace />} />
        </Routes>
      </AppShell.Main>
    </AppShell>
  );
}
