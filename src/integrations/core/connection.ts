// A connection acting at one of its venues: the caller every service call of a connector runs as (D26).
import type { Db } from '../../db/database.js';
import * as accounts from '../../modules/accounts/service.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import type { IntegrationRow } from './repo.js';

/**
 * The connection as a caller at `venueId`, a venue of its chain: its own register rules over the venue's (D12), full
 * access, and itself as the audit actor. Undefined when the venue is not the chain's (a mapping gone stale).
 */
export async function connectionCaller(db: Db, integration: IntegrationRow, venueId: string, now: Date): Promise<PlaceCaller | undefined> {
  const venue = await accounts.findVenue(db, venueId);
  if (!venue || venue.chainId !== integration.chain_id) return undefined;
  return {
    chainId: integration.chain_id,
    keyVenueId: venue.id,
    venueId: venue.id,
    rules: integration.rules,
    keyId: integration.id,
    keyName: integration.name,
    keyPrefix: '',
    livemode: integration.livemode,
    scopes: [],
    settings: accounts.effectiveSettings(venue.settings, integration.rules),
    venue: { name: venue.name, country: venue.country, currency: venue.currency, locale: venue.locale, timezone: venue.timezone },
    now,
    actor: { type: 'integration', id: integration.id },
    address: null,
  };
}

/** The venue a provider's location is mapped to, or undefined (logged as unknown_location, never guessed; `constructor` is no location). */
export const venueOfLocation = (integration: IntegrationRow, location: string | undefined): string | undefined =>
  location !== undefined && Object.hasOwn(integration.locations, location) ? integration.locations[location] : undefined;
