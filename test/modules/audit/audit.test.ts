// The audit log (D24): each change through the API, the dashboard and the owner's tools leaves exactly one entry in
// its own transaction (actor, target, [before, after], address), none when the change rolls back; the database
// refuses UPDATE and the DELETE of a young entry; GET /v1/audit_events paginates and filters, one chain's only.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SYSTEM } from '../../../src/modules/audit/service.js';
import * as audit from '../../../src/modules/audit/service.js';
import * as campaigns from '../../../src/modules/campaigns/service.js';
import { ownerCaller } from '../../../src/modules/accounts/service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';
import { PASSWORD, dashboardClient, signedUpOwner } from '../../dashboard/support.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000, webhookAllowPrivateUrls: true } });

/**
 * The chain's entries of `action` (all but the keys the test's factories made), oldest first, straight from the table.
 */
async function entries(chainId: string, action?: string) {
  const { rows } = await sql<{ actor_type: string; actor_id: string | null; action: string; target_type: string; target_id: string | null; changes: unknown; venue_id: string | null; address: string | null }>`
    select actor_type, actor_id, action, target_type, target_id, changes, venue_id, address from audit_events
    where chain_id = ${chainId} ${action ? sql`and action = ${action}` : sql`and actor_type <> 'system'`} order by id`.execute(t.db);
  return rows.map((r) => ({ ...r, changes: typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes }));
}

async function keyed(scopes?: string[]) {
  const venue = await createVenue(t, { settings: { manual_adjustments_allowed: true } });
  await createProgram(t, venue);
  const key = await createKey(t, venue, scopes ? { scopes } : {});
  return { venue, key: key.key, api: client(t, key.secret) };
}

describe('the audit log: one entry per change, through the API', () => {
  it('an adjustment: the key, the member, the balance before and after, the address', async () => {
    const { venue, key, api } = await keyed();
    const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
    ok(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: 500, reason: 'Birthday of a regular' }), 'adjust');
    expect(await entries(venue.chainId, 'member.adjusted')).toEqual([
      {
        actor_type: 'api_key',
        actor_id: key.id,
        action: 'member.adjusted',
        target_type: 'member',
        target_id: member.id,
        changes: { balance: [0, 500] },
        venue_id: venue.id,
        address: '127.0.0.1',
      },
    ]);
    // Refused (more than is available): nothing written, nothing recorded.
    expect((await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: -900, reason: 'too much' })).status).toBe(402);
    expect(await entries(venue.chainId, 'member.adjusted')).toHaveLength(1);
  });

  it('a campaign created and paused; a webhook endpoint created, changed and deleted (no secret, no query string)', async () => {
    const { venue, api } = await keyed();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5 }), 'campaign').body;
    ok(await api.patch(`/api/v1/campaigns/${campaign.id}`, { status: 'paused' }), 'pause');
    const [created, paused] = await entries(venue.chainId);
    expect(created).toMatchObject({ action: 'campaign.created', target_id: campaign.id, changes: { type: [null, 'bonus'], name: [null, 'Happy hour'], percent: [null, 5] } });
    expect(paused).toMatchObject({ action: 'campaign.updated', target_id: campaign.id, changes: { status: ['active', 'paused'] } });

    const hook = ok(await api.post('/api/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks/T0AAA/XoXs3cret?token=s3cret', description: 'Till sync' }), 'endpoint').body;
    ok(await api.patch(`/api/v1/webhook_endpoints/${hook.id}`, { enabled: false }), 'disable');
    ok(await api.delete(`/api/v1/webhook_endpoints/${hook.id}`), 'delete');
    const hooks = (await entries(venue.chainId)).filter((e) => e.target_type === 'webhook_endpoint');
    // The URL's origin, and a fingerprint of the rest, where receivers put their tokens.
    const url = expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/… \([0-9a-f]{8}\)$/);
    expect(hooks.map((e) => [e.action, e.changes])).toEqual([
      ['webhook_endpoint.created', { url: [null, url], events: [null, ['*']], description: [null, 'Till sync'], status: [null, 'enabled'] }],
      ['webhook_endpoint.updated', { status: ['enabled', 'disabled'] }],
      ['webhook_endpoint.deleted', { url: [url, null], events: [['*'], null], description: ['Till sync', null], status: ['disabled', null] }],
    ]);
    // Enabling it again and again: one change, then nothing more to record.
    const again = ok(await api.post('/api/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/other' }), 'endpoint').body;
    ok(await api.patch(`/api/v1/webhook_endpoints/${again.id}`, { enabled: true }), 'enable an enabled one');
    expect((await entries(venue.chainId, 'webhook_endpoint.updated')).map((e) => e.target_id)).toEqual([hook.id]);
    expect(JSON.stringify(await entries(venue.chainId))).not.toMatch(/s3cret|whsec_/);
  });

  it('an export and an erasure of a member', async () => {
    const { venue, api } = await keyed();
    const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Anna Kowalska' }), 'enrol').body;
    ok(await api.get(`/api/v1/members/${member.id}/export`), 'export');
    const erased = ok(await api.post(`/api/v1/members/${member.id}/erase`), 'erase').body;
    ok(await api.post(`/api/v1/members/${member.id}/erase`), 'erase again');
    expect((await entries(venue.chainId)).map((e) => [e.action, e.target_id, e.changes])).toEqual([
      ['member.exported', member.id, {}],
      ['member.erased', member.id, { erased_at: [null, erased.erased_at] }],
    ]);
    expect(JSON.stringify(await entries(venue.chainId))).not.toContain('Kowalska');
  });

  it('a change rolled back leaves no entry', async () => {
    const { venue } = await keyed();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await campaigns.createCampaign(trx, { ...ownerCaller(venue), keyVenueId: null }, { name: 'Gone', type: 'welcome', amount: 100 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await entries(venue.chainId, 'campaign.created')).toEqual([]);
  });
});

describe('the audit log: through the dashboard', () => {
  it('a key created and revoked, a program changed, a category rule changed: the owner as actor; a failed sign-in', async () => {
    const { c, email, venue } = await signedUpOwner(t, 'Audit Bistro');
    const session = ok(await c.get('/dashboard/api/session'), 'session').body;
    const chainId = session.chain.id;
    const ownerId = session.owner.id;
    const key = ok(await c.post('/dashboard/api/api-keys', { name: 'Till 2', livemode: false, scopes: ['members:read'] }), 'key').body.key;
    ok(await c.put(`/dashboard/api/api-keys/${key.id}/rules`, { rules: { manual_adjustments_allowed: true } }), 'rules');
    ok(await c.post(`/dashboard/api/api-keys/${key.id}/revoke`), 'revoke');
    const [program] = ok(await c.get('/dashboard/api/programs'), 'programs').body;
    const settings = { ...program.settings, level_period_days: 90 };
    ok(await c.patch(`/dashboard/api/programs/${program.id}`, { settings }), 'program');
    ok(await c.post('/dashboard/api/categories', { external_id: 'wine', name: 'Wine', cashback_percent: 10 }), 'category');
    ok(await c.patch('/dashboard/api/categories/wine', { earns_cashback: false }), 'rule');
    // Renamed only, and the program sent as it is: nothing of what the log records changed.
    ok(await c.patch('/dashboard/api/categories/wine', { name: 'Wines' }), 'rename');
    ok(await c.patch(`/dashboard/api/programs/${program.id}`, { settings }), 'program again');

    const mine = (await entries(chainId)).filter((e) => e.action !== 'sign_in.failed');
    expect(mine.every((e) => e.actor_type === 'user' && e.actor_id === ownerId && e.address === '127.0.0.1')).toBe(true);
    expect(mine.map((e) => [e.action, e.target_id, e.changes])).toEqual([
      ['api_key.created', key.id, { name: [null, 'Till 2'], livemode: [null, false], scopes: [null, ['members:read']], rules: [null, {}] }],
      ['api_key.updated', key.id, { rules: [{}, { manual_adjustments_allowed: true }] }],
      ['api_key.revoked', key.id, { revoked_at: [null, expect.any(String)] }],
      ['program.updated', program.id, { settings: [program.settings, settings] }],
      ['category_rule.updated', 'wine', { cashback_percent: [null, 10] }],
      ['category_rule.updated', 'wine', { earns_cashback: [true, false] }],
    ]);

    const stranger = dashboardClient(t);
    expect((await stranger.post('/dashboard/api/session', { email, password: `${PASSWORD}!` })).status).toBe(401);
    expect((await stranger.post('/dashboard/api/session', { email: 'nobody@example.com', password: PASSWORD })).status).toBe(401);
    expect((await entries(chainId, 'sign_in.failed')).map((e) => [e.actor_type, e.actor_id, e.target_id, e.address, e.venue_id])).toEqual([
      ['user', null, ownerId, '127.0.0.1', venue.id],
    ]);
  });
});

describe('the audit log: venues and members', () => {
  it("a venue's rules changed and a venue added (the dashboard); a member's birthday and VIP level (personal fields as set or not, never their value)", async () => {
    const { c, venue } = await signedUpOwner(t, 'Venue Audit Bistro');
    const session = ok(await c.get('/dashboard/api/session'), 'session').body;
    const chainId = session.chain.id;
    ok(await c.patch('/dashboard/api/venue', { name: 'Venue Audit Bar', settings: { hold_ttl_seconds: 600 } }), 'venue');
    ok(await c.patch('/dashboard/api/venue', { name: 'Venue Audit Bar' }), 'venue again');
    const added = ok(await c.post('/dashboard/api/venues', { name: 'Second Bar', slug: `second-${newCardNumber().toLowerCase()}` }), 'add venue').body.venue;

    const vipVenue = await createVenue(t, { chainId });
    await createProgram(t, vipVenue, 'vip', { isDefault: true });
    const api = client(t, (await createKey(t, vipVenue)).secret);
    const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Ola Nowak' }), 'enrol').body;
    ok(await api.patch(`/api/v1/members/${member.id}`, { vip_level: 'VIP', name: 'Ola N.', birthday: '05-01' }), 'member');

    const byAction = (action: string) => entries(chainId, action).then((rows) => rows.map((e) => [e.actor_type, e.target_id, e.venue_id, e.changes]));
    expect(await byAction('venue.updated')).toEqual([['user', venue.id, venue.id, { name: ['Venue Audit Bistro', 'Venue Audit Bar'], 'settings.hold_ttl_seconds': [900, 600] }]]);
    expect(await byAction('venue.created')).toEqual([['user', added.id, added.id, expect.objectContaining({ name: [null, 'Second Bar'], currency: [null, 'EUR'] })]]);
    expect(await byAction('member.updated')).toEqual([['api_key', member.id, vipVenue.id, { name: [true, true], birthday: [false, true], vip_level: [null, 'VIP'] }]]);
    const written = JSON.stringify(await entries(chainId));
    expect(written).not.toContain('Ola');
    expect(written).not.toContain('05-01');
  });
});

describe('the audit log in the dashboard', () => {
  it('lists the chain’s entries filtered, and exports them as CSV page after page (2,500 entries: none lost, none twice)', async () => {
    const { c } = await signedUpOwner(t, 'Audit CSV Bistro');
    const session = ok(await c.get('/dashboard/api/session'), 'session').body;
    const chainId = session.chain.id;
    ok(await c.post('/dashboard/api/api-keys', { name: 'Till 9', livemode: false, scopes: [] }), 'key');
    const listed = ok(await c.get('/dashboard/api/audit-events?action=api_key.created'), 'list').body;
    expect(listed.data.map((e: { actor: { type: string; id: string } }) => e.actor)).toEqual([{ type: 'user', id: session.owner.id }]);
    expect(ok(await c.get('/dashboard/api/meta'), 'meta').body.audit_actions).toContainEqual({ action: 'member.adjusted', label: 'Balance adjusted' });

    await sql`insert into audit_events (chain_id, id, actor_type, action, target_type, target_id)
      select ${chainId}::uuid, gen_random_uuid(), 'system', 'program.updated', 'program', 'p-' || n from generate_series(1, 2500) as n`.execute(t.db);
    const csv = ok(await c.get('/dashboard/api/audit-events/export.csv?action=program.updated'), 'csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = String(csv.body).trimEnd().split('\r\n');
    expect(lines[0]).toBe('time,action,actor_type,actor_id,target_type,target_id,venue_id,address,changes');
    const targets = lines.slice(1).map((l) => l.split(',')[5]);
    expect(targets).toHaveLength(2500);
    expect(new Set(targets).size).toBe(2500);
  });
});

describe('the audit log cannot be edited', () => {
  it('UPDATE is refused; DELETE of an entry younger than the retention is refused; the purge deletes only older ones', async () => {
    const { venue } = await keyed();
    const where = { chainId: venue.chainId, venueId: venue.id, ...SYSTEM };
    await audit.recordAudit(t.db, where, { action: 'program.updated', target: { type: 'program', id: 'p' } });
    await expect(sql`update audit_events set action = 'nothing' where chain_id = ${venue.chainId}`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_events where chain_id = ${venue.chainId}`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_events`.execute(t.db)).rejects.toThrow(/append-only/);
    // One from three years ago (written as a restore would): past the 730 days.
    await sql`insert into audit_events (chain_id, id, actor_type, action, target_type, created_at)
      values (${venue.chainId}, gen_random_uuid(), 'system', 'program.updated', 'program', now() - interval '1095 days')`.execute(t.db);
    expect(await audit.purgeAuditEvents(t.db, 730)).toBeGreaterThanOrEqual(1);
    expect((await entries(venue.chainId, 'program.updated')).map((e) => e.target_id)).toEqual(['p']);
    // Outside the purge's own transaction nothing younger than 100 years is deleted.
    await expect(sql`delete from audit_events where chain_id = ${venue.chainId}`.execute(t.db)).rejects.toThrow(/append-only/);
  });
});

describe('GET /v1/audit_events', () => {
  it('needs audit:read; pages newest first; filters by action, target and time; shows one chain only', async () => {
    const { venue, api } = await keyed();
    const reader = client(t, (await createKey(t, venue, { scopes: ['audit:read'] })).secret);
    const narrow = client(t, (await createKey(t, venue, { scopes: ['members:read'] })).secret);
    const other = await keyed();
    const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
    for (const amount of [100, 200, 300]) ok(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount, reason: 'r' }), 'adjust');
    const middle = t.clock.now().toISOString();
    t.clock.advance(60_000);
    ok(await api.post('/api/v1/campaigns', { name: 'Later', type: 'welcome', amount: 50 }), 'campaign');
    ok(await other.api.post('/api/v1/campaigns', { name: 'Theirs', type: 'welcome', amount: 50 }), 'other');

    expect((await narrow.get('/api/v1/audit_events')).status).toBe(403);
    const first = ok(await reader.get('/api/v1/audit_events?limit=2'), 'list').body;
    expect(first.has_more).toBe(true);
    expect(first.data.map((e: { action: string }) => e.action)).toEqual(['campaign.created', 'member.adjusted']);
    // The keys the test made were created by the service itself (its factories): after the adjustments, oldest last.
    const rest = ok(await reader.get(`/api/v1/audit_events?limit=10&starting_after=${first.data[1].id}`), 'next').body;
    expect(rest.data.map((e: { action: string; actor: { type: string } }) => `${e.action} by ${e.actor.type}`)).toEqual([
      'member.adjusted by api_key',
      'member.adjusted by api_key',
      'api_key.created by system',
      'api_key.created by system',
      'api_key.created by system',
    ]);
    expect(rest.data.slice(0, 2).map((e: { changes: { balance: number[] } }) => e.changes.balance)).toEqual([
      [100, 300],
      [0, 100],
    ]);
    const adjusted = ok(await reader.get(`/api/v1/audit_events?action=member.adjusted&target_id=${member.id}`), 'filter').body;
    expect(adjusted.data).toHaveLength(3);
    expect(adjusted.data[0]).toMatchObject({ object: 'audit_event', actor: { type: 'api_key' }, target: { type: 'member', id: member.id }, venue_id: venue.id });
    const cut = encodeURIComponent(new Date(Date.parse(middle) + 1).toISOString());
    const count = async (query: string) => ok(await reader.get(`/api/v1/audit_events?${query}`), query).body.data.length;
    expect([await count(`action=member.adjusted&to=${cut}`), await count(`action=member.adjusted&from=${cut}`)]).toEqual([3, 0]);
    expect([await count(`action=campaign.created&to=${cut}`), await count(`action=campaign.created&from=${cut}`)]).toEqual([0, 1]);
    expect((await count('action=nothing.happened'))).toBe(0);
  });
});
