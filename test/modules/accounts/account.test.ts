// GET /v1/account: the venue, the calling key, and the register rules in effect for that key (D12).
import { describe, expect, it } from 'vitest';
import { DEFAULT_VENUE_SETTINGS } from '../../../src/modules/accounts/schemas.js';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createVenue } from '../../support/factories.js';
import { client } from '../../support/http.js';

const t = useTestApp();

describe('GET /v1/account', () => {
  it('shows the venue with its settings and the calling key', async () => {
    const venue = await createVenue(t, { currency: 'GBP', locale: 'en-GB', timezone: 'Europe/London', country: 'GB' });
    const { key, secret } = await createKey(t, venue, { scopes: ['menu:read'], name: 'Kiosk 1' });
    const res = await client(t, secret).get('/api/v1/account');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'account',
      id: venue.id,
      name: venue.name,
      slug: venue.slug,
      currency: 'GBP',
      locale: 'en-GB',
      timezone: 'Europe/London',
      country: 'GB',
      livemode: false,
      api_key: { id: key.id, name: 'Kiosk 1', prefix: secret.slice(0, 12), scopes: ['menu:read'] },
      settings: DEFAULT_VENUE_SETTINGS,
      programs: [],
      created_at: venue.createdAt,
      // New with chains (D21): the key's venue, and its chain of one.
      venue: { id: venue.id, name: venue.name, slug: venue.slug, timezone: 'Europe/London' },
      chain: { id: venue.chainId, name: venue.name, currency: 'GBP', venues: [{ id: venue.id, name: venue.name, slug: venue.slug, timezone: 'Europe/London' }] },
    });
  });

  it("a chain key's account is its chain: venue null, the chain's venues, in the locale of its first venue", async () => {
    const first = await createVenue(t, { currency: 'GBP', locale: 'en-GB', timezone: 'Europe/London', country: 'GB' });
    const second = await createVenue(t, { chainId: first.chainId, timezone: 'Europe/Dublin' });
    const { secret } = await createChainKey(t, first.chainId, { name: 'Head office' });
    const { body } = await client(t, secret).get('/api/v1/account');
    expect(body).toMatchObject({ id: first.chainId, slug: first.slug, currency: 'GBP', locale: 'en-GB', timezone: 'Europe/London', venue: null });
    expect(body.chain.venues.map((v: { id: string }) => v.id)).toEqual([first.id, second.id]);
    expect(second.currency).toBe('GBP');
  });

  it('a venue joining a chain of another currency is refused with the reason', async () => {
    const first = await createVenue(t, { currency: 'GBP' });
    await expect(createVenue(t, { chainId: first.chainId, currency: 'EUR' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'currency' });
  });

  it("settings are the venue's rules with the key's own values applied", async () => {
    const venue = await createVenue(t, { settings: { max_cashback_per_day: 5000, card_scan_required: true } });
    const { secret: plain } = await createKey(t, venue);
    const { secret: register } = await createKey(t, venue, { rules: { card_scan_required: false, hold_ttl_seconds: 300 } });
    expect((await client(t, plain).get('/api/v1/account')).body.settings).toMatchObject({
      max_cashback_per_day: 5000,
      card_scan_required: true,
      hold_ttl_seconds: 900,
    });
    expect((await client(t, register).get('/api/v1/account')).body.settings).toMatchObject({
      max_cashback_per_day: 5000,
      card_scan_required: false,
      hold_ttl_seconds: 300,
    });
  });

  it('a venue takes any IANA time zone, current names included; an unknown one is refused', async () => {
    for (const timezone of ['Asia/Kolkata', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires', 'Asia/Calcutta']) {
      expect((await createVenue(t, { timezone })).timezone).toBe(timezone);
    }
    await expect(createVenue(t, { timezone: 'Mars/Olympus_Mons' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'timezone' });
  });

  it('key rules with an unknown field are refused at creation', async () => {
    const venue = await createVenue(t);
    await expect(createKey(t, venue, { rules: { free_beer: true } })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'rules' });
  });
});
