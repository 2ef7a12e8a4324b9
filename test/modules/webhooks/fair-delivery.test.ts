// One endpoint's backlog cannot delay another's deliveries (issue 25): the worker claims a few of each endpoint's in
// turn and keeps deliveries under way on their own, so a slow receiver holds only its own slots.
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { venueWithKey } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { startReceiver } from '../../support/receiver.js';
import { fastDelivery, raiseEvent, startWorker } from '../../support/webhooks.js';

// The real poll interval (1 s) and a timeout longer than the slow receiver takes.
const t = useTestApp({ config: { webhookAllowPrivateUrls: true, webhooks: fastDelivery({ pollIntervalMs: 1000, timeoutMs: 10_000 }) } });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('fair delivery', () => {
  it("5,000 pending deliveries to a slow receiver: another chain's new event is delivered within 5 s", async () => {
    const slow = await startReceiver();
    cleanups.push(() => slow.close());
    const stuck: (() => void)[] = [];
    // Each request answered after 3 s (or when the test ends).
    slow.respond((_req, res) => {
      const answer = () => res.headersSent || res.writeHead(200).end('ok');
      stuck.push(answer);
      setTimeout(answer, 3000);
    });
    const fast = await startReceiver();
    cleanups.push(() => fast.close());

    const a = await venueWithKey(t);
    const backlogged = (await client(t, a.secret).post('/api/v1/webhook_endpoints', { url: slow.url })).body;
    const { rows } = await sql<{ n: string }>`with e as (
        insert into events (chain_id, venue_id, id, type, livemode, data, created_at)
        select ${a.venue.chainId}, ${a.venue.id}, gen_random_uuid(), 'member.created', false, '{"object": {"object": "test"}}'::jsonb, now() - interval '1 hour'
        from generate_series(1, 5000) returning chain_id, venue_id, id)
      insert into webhook_deliveries (chain_id, venue_id, id, endpoint_id, event_id, status, next_attempt_at, created_at)
      select chain_id, venue_id, gen_random_uuid(), ${backlogged.id}, id, 'pending', now() - interval '1 hour', now() - interval '1 hour' from e
      returning 1 as n`.execute(t.db);
    expect(rows).toHaveLength(5000);

    const b = await venueWithKey(t);
    expect(b.venue.chainId).not.toBe(a.venue.chainId);
    await client(t, b.secret).post('/api/v1/webhook_endpoints', { url: fast.url });

    const worker = startWorker(t);
    cleanups.push(async () => {
      stuck.forEach((answer) => answer());
      await worker.close();
    });
    // The backlog is being worked on: the slow receiver holds the first of it.
    await vi.waitFor(() => expect(slow.requests.length).toBeGreaterThan(0), { timeout: 5000 });
    const raisedAt = Date.now();
    const event = await raiseEvent(t, b.venue, 'balance.adjusted', { object: 'member', id: 'm1', balance: 120 });
    await vi.waitFor(() => expect(fast.requests.map((r) => JSON.parse(r.body).id)).toContain(event.id), { timeout: 5000, interval: 50 });
    const waited = Date.now() - raisedAt;
    console.log(`another chain's event delivered ${waited} ms after it was raised, behind 5,000 pending to a slow receiver`);
    expect(waited).toBeLessThan(5000);
    // The slow endpoint never has more than its share under way at once.
    expect(slow.requests.length).toBeLessThanOrEqual(5);
  }, 30_000);
});
