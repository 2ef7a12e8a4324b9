import { ActionIcon, Alert, AppShell, Burger, Group, Loader, Menu, NavLink, Stack, Text, Title, Button, Center } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
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
import { ReportsPage } from './pages/Reports';
import { AuditPage } from './pages/Audit';
import { UsersPage } from './pages/Users';
import { ProductsPage } from './pages/Products';
import { BrandPage } from './pages/Brand';
import { PointOfSalePage } from './pages/PointOfSale';

/**
 * The pages, each open to a role that may make the call it is built on; `nav`: listed in the menu. A page the role
 * may not open says so instead of showing an empty one.
 */
const PAGES: Array<{ to: string; label: string; needs: string; element: ReactNode; nav?: true }> = [
  { to: '/overview', label: 'Overview', needs: 'GET /overview', element: <OverviewPage />, nav: true },
  { to: '/reports', label: 'Reports', needs: 'GET /reports/activity', element: <ReportsPage />, nav: true },
  { to: '/keys', label: 'API keys', needs: 'GET /api-keys', element: <KeysPage />, nav: true },
  { to: '/venue', label: 'Venue and rules', needs: 'PATCH /venue', element: <VenuePage />, nav: true },
  { to: '/categories', label: 'Categories', needs: 'GET /categories', element: <CategoriesPage />, nav: true },
  { to: '/products', label: 'Products', needs: 'GET /products', element: <ProductsPage />, nav: true },
  { to: '/programs', label: 'Programs', needs: 'GET /programs', element: <ProgramsPage />, nav: true },
  { to: '/campaigns', label: 'Campaigns', needs: 'GET /campaigns', element: <CampaignsPage />, nav: true },
  { to: '/members', label: 'Members', needs: 'GET /members', element: <MembersPage />, nav: true },
  { to: '/members/:id', label: 'a member', needs: 'GET /members/:id', element: <MemberPage /> },
  { to: '/transactions', label: 'Transactions', needs: 'GET /transactions', element: <TransactionsPage />, nav: true },
  { to: '/transactions/:id', label: 'a transaction', needs: 'GET /transactions/:id', element: <TransactionPage /> },
  { to: '/liability', label: 'Venue liability', needs: 'GET /reports/venue-liability', element: <LiabilityPage />, nav: true },
  { to: '/webhooks', label: 'Webhooks', needs: 'GET /webhook-endpoints', element: <WebhooksPage />, nav: true },
  { to: '/point-of-sale', label: 'Point of sale', needs: 'GET /integrations', element: <PointOfSalePage />, nav: true },
  { to: '/users', label: 'Users', needs: 'GET /users', element: <UsersPage />, nav: true },
  { to: '/brand', label: 'Brand', needs: 'GET /brand', element: <BrandPage />, nav: true },
  { to: '/audit', label: 'Audit log', needs: 'GET /audit-events', element: <AuditPage />, nav: true },
  { to: '/menu', label: 'Menu and tables', needs: 'GET /tables', element: <MenuPage />, nav: true },
  { to: '/orders', label: 'Orders', needs: 'GET /orders', element: <OrdersPage />, nav: true },
  { to: '/account', label: 'Account', needs: 'POST /password', element: <AccountPage />, nav: true },
  { to: '/venues/new', label: 'Add venue', needs: 'POST /venues', element: <AddVenuePage /> },
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
  const pages = PAGES.filter((n) => n.nav && can(n.needs));
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
          {PAGES.map((p) => (
            <Route key={p.to} path={p.to} element={can(p.needs) ? p.element : <NotForYourRole page={p.label} home={pages[0]?.to ?? '/account'} />} />
          ))}
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

const ROLE_WORDS = { owner: 'an owner', manager: 'a manager', staff: 'staff' } as const;

/** What a page the role may not open shows: which role can, and who changes roles (D27). */
function NotForYourRole({ page, home }: { page: string; home: string }) {
  const { data: session } = useSession();
  const chain = useChain();
  const role = session?.owner.role ?? 'staff';
  return (
    <Stack maw={640}>
      <Title order={2}>Not open to your role</Title>
      <Text>
        You are {ROLE_WORDS[role]} of {chain.name}, and your role does not open {page}. An owner can change your role on the Users page.
      </Text>
      <Group>
        <Button component={Link} to={home} variant="default">
          Back to your pages
        </Button>
      </Group>
    </Stack>
  );
}
