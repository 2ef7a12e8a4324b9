// The signed-in session: loaded once, shared through TanStack Query; its CSRF token goes on every change.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call, client, setCsrfToken, type Session } from './api';

export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async (): Promise<Session | null> => {
      try {
        const s = await call(client.GET('/dashboard/api/session'));
        setCsrfToken(s.csrf_token);
        return s;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
  });
}

export function useSetSession() {
  const qc = useQueryClient();
  return (s: Session | null) => {
    setCsrfToken(s?.csrf_token);
    qc.setQueryData(['session'], s);
    // Signed out: forget what this owner's pages loaded (the session query itself stays, as null).
    if (s === null) qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  };
}

/**
 * Puts a new session in place after the venue changed (switched or added): per-venue pages load again for the new venue,
 * and nothing of the previous venue is shown meanwhile.
 */
export function useVenueChanged() {
  const qc = useQueryClient();
  const setSession = useSetSession();
  return (s: Session) => {
    setSession(s);
    void qc.resetQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  };
}

/**
 * Whether the signed-in user's role allows a call (`METHOD /path` below /dashboard/api, as the server's role table
 * names it): pages show only what they can use; the server refuses the rest anyway.
 */
export function useCan(): (route: string) => boolean {
  const { data } = useSession();
  const allowed = new Set(data?.allowed ?? []);
  return (route) => allowed.has(route);
}

/** The owner's chain: its currency and the venues the switcher lists. */
export function useChain(): Session['chain'] {
  const { data } = useSession();
  return data?.chain ?? { id: '', slug: '', name: '', currency: 'EUR', venues: [] };
}

/** The session inside signed-in pages (the layout guarantees one). */
export function useVenue(): Session['venue'] {
  const { data } = useSession();
  // Between sign-out and the sign-in page, pages may render once more without a session.
  return data?.venue ?? SIGNED_OUT_VENUE;
}

const SIGNED_OUT_VENUE: Session['venue'] = {
  id: '',
  slug: '',
  name: '',
  currency: 'EUR',
  locale: 'en',
  timezone: 'UTC',
  country: 'IE',
  created_at: new Date(0).toISOString(),
  settings: {
    redeem_only_via_holds: false,
    checks_numbered_per_register: false,
    max_check_age_seconds: null,
    max_cashback_per_check: null,
    max_cashback_per_day: null,
    card_scan_required: false,
    manual_adjustments_allowed: false,
    hold_ttl_seconds: 900,
  },
};
