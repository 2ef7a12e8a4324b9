// Routes compile their schemas on first use (src/http/lazy-schemas.ts): this compiles every route's at once, so a
// schema that cannot compile fails here rather than in a till's first request.
import { describe, expect, it } from 'vitest';
import { compileWaiting, waitingCompiles } from '../../src/http/lazy-schemas.js';
import { useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();

describe('schemas compiled on first use', () => {
  it('a route answers, and refuses bad input in the envelope, with schemas compiled on its first request', async () => {
    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue, 'cashback');
    const api = client(t, secret);
    // Enrolment's body validator and its answers' serializers wait, once the app is ready, until its first request.
    await t.app.ready();
    const waiting = waitingCompiles();
    expect(waiting).toBeGreaterThan(0);
    const bad = await api.post('/api/v1/members', { card_number: 42, consent: true });
    expect(waitingCompiles()).toBeLessThan(waiting);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'card_number' });
    const made = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.object).toBe('member');
  });

  it('every route\'s validators and serializers compile', () => {
    // Every route has a response schema and most a request one: well over a hundred routes leave more than 200 waiting.
    expect(compileWaiting()).toBeGreaterThan(200);
    expect(compileWaiting()).toBe(0);
  });
});
