// The audit log in words (D27): the dashboard's entries name who did it (a user by e-mail, a key by its name) and
// what it was about (a member by name, else card; a check by number; a key, a campaign by name) beside the ids, and
// never name another chain's.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, ok } from '../support/http.js';
import { signedUpOwner } from './support.js';

const t = useTestApp();

type Entry = { action: string; actor: { type: string; id: string | null }; actor_name: string | null; target: { type: string; id: string | null }; target_name: string | null };

describe('the audit log in words', () => {
  it('names the user, the key, the member, the card of a nameless one, the check and the campaign', async () => {
    const { c, email } = await signedUpOwner(t, 'Words Bistro');
    const key = ok(await c.post('/dashboard/api/api-keys', { name: 'Front till', livemode: true, scopes: [] }), 'key').body;
    const till = client(t, key.secret);
    const aoife = ok(await till.post('/api/v1/members', { consent: true, card_number: 'W-1', name: 'Aoife Byrne' }), 'aoife').body;
    const nameless = ok(await till.post('/api/v1/members', { consent: true, card_number: 'W-2' }), 'nameless').body;
    ok(await c.post(`/dashboard/api/members/${aoife.id}/adjustments`, { amount: 250, reason: 'goodwill' }), 'by the owner');
    ok(await c.post(`/dashboard/api/members/${nameless.id}/adjustments`, { amount: 100, reason: 'no name' }), 'nameless');
    ok(await till.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5 }), 'campaign').body;
    const check = ok(await till.post('/api/v1/checks', { external_id: 'W-100', member_id: aoife.id, line_items: [{ name: 'Tea', quantity: 1, unit_price: 1_000 }] }), 'check').body;
    ok(await c.post(`/dashboard/api/transactions/${check.id}/void`), 'void');

    const entries: Entry[] = ok(await c.get('/dashboard/api/audit-events?limit=100'), 'log').body.data;
    const one = (action: string) => entries.find((e) => e.action === action)!;
    const keyId = one('api_key.created').target.id;
    expect(one('api_key.created')).toMatchObject({ actor: { type: 'user' }, actor_name: email, target: { type: 'api_key' }, target_name: 'Front till' });
    const adjusted = entries.filter((e) => e.action === 'member.adjusted');
    expect(adjusted.find((e) => e.target.id === aoife.id)).toMatchObject({ actor_name: email, target_name: 'Aoife Byrne' });
    expect(adjusted.find((e) => e.target.id === nameless.id)).toMatchObject({ actor_name: email, target_name: 'W-2' });
    expect(one('campaign.created')).toMatchObject({ actor: { type: 'api_key', id: keyId }, actor_name: 'Front till', target_name: 'Happy hour' });
    expect(one('transaction.voided')).toMatchObject({ actor_name: email, target: { id: check.id }, target_name: 'check W-100' });

    // Another chain's owner, reading their own log, finds none of these names.
    const other = await signedUpOwner(t, 'Other Bistro');
    const theirs = JSON.stringify(ok(await other.c.get('/dashboard/api/audit-events?limit=100'), 'other log').body);
    for (const name of ['Front till', 'Aoife Byrne', 'Happy hour', 'W-100', email]) expect(theirs).not.toContain(name);
  });
});
