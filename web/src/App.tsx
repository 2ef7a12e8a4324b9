import { ActionIcon, Alert, AppShell, Burger, Group, Loader, Menu, NavLink, Text, Title, Button, Center } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate, Link } from 'react-router';
import { call, client } from './api';
import { useCan, useChain, useSession, useSetSession, useVenueChanged } from './session';
import { ForgotPasswordPage, SignInPage, SignUpPage } from './pages/Auth';
import { WelcomePage } from './pages/Welcome';
import { KeysPage } from './pages/Keys';
import { VenuePage } from './pages/Venue';
import { CategoriesPage } from './pages/Categories';
import { ProgramsPage } from './pages/Programs';
import { CampaignsPage } from './pages/Campaigns';
import { MemberPage } from './pages/Members';
import { MembersPage } from './pages/MembersDirectory';
import { AccountPage } from './pages/Account';
import { TransactionPage, TransactionsPage } from './pages/Transactions';
import { WebhooksPage } from './pages/Webhooks';
import { OverviewPage } from './pages/Overview';
import { MenuPage } from './pages/Menu';
import { OrdersPage } from './pages/Orders';
import { AddVenuePage } from './pages/AddVenue';
import { LiabilityPage } from './pages/Liability';
import { AuditPage } from './pages/Audit';
import { UsersPage } from './pages/Users';
import { ProductsPage } from './pages/Products';
import { BrandPage } from './pages/Brand';
import { PointOfSalePage } from './pages/PointOfSale';

/** The pages, each shown when the user's role allows the call it is built on. */
const NAV = [
  { to: '/overview', label: 'Overview', needs: 'GET /overview' },
  { to: '/keys', label: 'API keys', needs: 'GET /api-keys' },
  { to: '/venue', label: 'Venue and rules', needs: 'PATCH /venue' },
  { to: '/categories', label: 'Categories', needs: 'GET /categories' },
  { to: '/products', label: 'Products', needs: 'GET /products' },
  { to: '/programs', label: 'Programs', needs: 'GET /programs' },
  { to: '/campaigns', label: 'Campaigns', needs: 'GET /campaigns' },
  { to: '/members', label: 'Members', needs: 'GET /members' },
  { to: '/transactions', label: 'Transactions', needs: 'GET /transactions' },
  { to: '/liability', label: 'Venue liability', needs: 'GET /reports/venue-liability' },
  { to: '/webhooks', label: 'Webhooks', needs: 'GET /webhook-endpoints' },
  { to: '/point-of-sale', label: 'Point of sale', needs: 'GET /integrations' },
  { to: '/users', label: 'Users', needs: 'GET /users' },
  { to: '/brand', label: 'Brand', needs: 'GET /brand' },
  { to: '/audit', label: 'Audit log', needs: 'GET /audit-events' },
  { to: '/menu', label: 'Menu and tables', needs: 'GET /tables' },
  { to: '/orders', label: 'Orders', needs: 'GET /orders' },
  { to: '/account', label: 'Account', needs: 'POST /password' },
];

export function App() {
  const { data: session, isLoading } = useSession();
  const location = useLocation();
  // An invitation or reset link opens its page whoever is signed in (its own sign-in replaces the session).
  if (location.pathname === '/welcome') return <WelcomePage />;
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
        <Route path="/forgot" element={<ForgotPasswordPage />} />
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
  const [switchError, setSwitchError] = useState<string>();
  const can = useCan();
  const pages = NAV.filter((n) => can(n.needs));
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
            <Title order={4} style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} data-testid="current-venue">
              {session?.venue.name}
            </Title>
            <VenueSwitcher onError={setSwitchError} />
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
        {pages.map((n) => (
          <NavLink key={n.to} component={Link} to={n.to} label={n.label} variant="filled" active={location.pathname === n.to || location.pathname.startsWith(`${n.to}/`)} onClick={close} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        {switchError && (
          <Alert color="red" mb="md" withCloseButton onClose={() => setSwitchError(undefined)}>
            {switchError}
          </Alert>
        )}
        {/* Keyed by the venue: a switch remounts the page, so forms start from the new venue's values. */}
        <Routes key={session?.venue.id}>
          <Route path="/overview" element={<OverviewPage />} />
          <Route path="/keys" element={<KeysPage />} />
          <Route path="/venue" element={<VenuePage />} />
          <Route path="/categories" element={<CategoriesPage />} />
          <Route path="/products" element={<ProductsPage />} />
          <Route path="/brand" element={<BrandPage />} />
          <Route path="/programs" element={<ProgramsPage />} />
          <Route path="/campaigns" element={<CampaignsPage />} />
          <Route path="/members" element={<MembersPage />} />
          <Route path="/members/:id" element={<MemberPage />} />
          <Route path="/transactions" element={<TransactionsPage />} />
          <Route path="/transactions/:id" element={<TransactionPage />} />
          <Route path="/webhooks" element={<WebhooksPage />} />
          <Route path="/point-of-sale" element={<PointOfSalePage />} />
          <Route path="/menu" element={<MenuPage />} />
          <Route path="/orders" element={<OrdersPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/liability" element={<LiabilityPage />} />
          <Route path="/audit" element={<AuditPage />} />
          <Route path="/users" element={<UsersPage />} />
          <Route path="/venues/new" element={<AddVenuePage />} />
          <Route path="/signup" element={<Navigate to="/keys" replace />} />
          <Route path="*" element={<Navigate to={pages[0]?.to ?? '/account'} replace />} />
        </Routes>
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The venue switcher (D21): the chain's venues, the current one ticked, and "Add venue". Switching moves the session;
 * per-venue pages (transactions, menu, orders, keys, webhooks, venue rules) load again for the new venue.
 */
function VenueSwitcher({ onError }: { onError: (message: string | undefined) => void }) {
  const { data: session } = useSession();
  const chain = useChain();
  const venueChanged = useVenueChanged();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const can = useCan();
  const switchTo = async (venueId: string) => {
    onError(undefined);
    if (venueId === session?.venue.id) return;
    try {
      venueChanged(await call(client.PUT('/dashboard/api/session/venue', { body: { venue_id: venueId } })));
      // A transaction belongs to the venue where it happened: back to the list of the new venue's.
      if (/^\/transactions\/./.test(location.pathname)) navigate('/transactions');
    } catch (err) {
      onError(err instanceof Error ? err.message : String(err));
      void qc.invalidateQueries({ queryKey: ['session'] });
    }
  };
  return (
    <Menu position="bottom-start" shadow="md" width={260}>
      <Menu.Target>
        <ActionIcon variant="default" size="md" aria-label="Switch venue" title="Switch venue">
          <span aria-hidden style={{ fontSize: 12 }}>
            ▼
          </span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown aria-label="Venues">
        <Menu.Label>Venues of {chain.name}</Menu.Label>
        {chain.venues.map((v) => {
          const current = v.id === session?.venue.id;
          return (
            <Menu.Item key={v.id} onClick={() => void switchTo(v.id)} rightSection={current ? '✓' : undefined} aria-current={current ? 'true' : undefined} data-venue-slug={v.slug}>
              {v.name}
            </Menu.Item>
          );
        })}
        {can('POST /venues') && (
          <>
            <Menu.Divider />
            <Menu.Item onClick={() => navigate('/venues/new')}>Add venue</Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
