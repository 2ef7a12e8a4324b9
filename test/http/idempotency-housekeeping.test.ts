// Housekeeping of Idempotency-Key answers: those past 24 hours are deleted in bounded batches, the others kept.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { forgetExpiredAnswers } from '../../src/http/idempotency.js';
import { useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();
const HOUR = 3600_000;

describe('idempotency housekeeping', () => {
  it('deletes answers older than 24 hours, two at a time until none is left, and keeps the younger ones', async () => {
    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue);
    const api = client(t, secret);
    const cards = new Map<string, string>();
    const enrol = (key: string) => {
      if (!cards.has(key)) cards.set(key, newCardNumber());
      return api.post('/api/v1/members', { card_number: cards.get(key), consent: true }, { 'idempotency-key': key });
    };
    const count = async () =>
      Number((await sql<{ n: number }>`select count(*)::int as n from idempotency_keys where chain_id = ${venue.chainId}`.execute(t.db)).rows[0]!.n);
    for (const key of ['old-1', 'old-2', 'old-3', 'old-4', 'old-5']) expect((await enrol(key)).status).toBe(201);
    t.clock.advance(23 * HOUR);
    expect((await enrol('young-1')).status).toBe(201);
    t.clock.advance(2 * HOUR);
    expect(await count()).toBe(6);

    expect(await forgetExpiredAnswers(t.db, t.clock.now(), 2)).toBe(5);
    expect(await count()).toBe(1);
    // The young answer is still replayed.
    const replay = await enrol('young-1');
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(await forgetExpiredAnswers(t.db, t.clock.now(), 2)).toBe(0);
  });
});
