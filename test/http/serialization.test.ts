// Routes compile their schemas on first use (src/http/serialization.ts): this compiles every route's at once, so a
// schema that cannot compile fails here rather than in a till's first request.
import { describe, expect, it } from 'vitest';
import { compileWaiting } from '../../src/http/serialization.js';
import { useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();

describe('schemas compiled on first use', () => {
  it('a route answers, and refuses bad input in the envelope, with schemas compiled on its first request', async () => {
    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue, 'cashback');
    const api = client(t, secret);
    const bad = await api.post('/api/v1/members', { card_number: 42, consent: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'card_number' });
    const made = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.object).toBe('member');
  });

  it('every route\'s validators and serializers compile', () => {
    // Each route has at least a response schema; the API has well over a hundred routes.
    expect(compileWaiting()).toBeGreaterThan(200);
    expect(compileWaiting()).toBe(0);
  });
});
