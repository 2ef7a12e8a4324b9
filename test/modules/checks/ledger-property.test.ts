// Property: any sequence of checks, voids, refunds and holds keeps the ledger invariants of D10/D11.
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client } from '../../support/http.js';

const t = useTestApp();

type Step =
  | { kind: 'check'; price: number; redeem: number }
  | { kind: 'void'; pick: number }
  | { kind: 'refund'; pick: number; amount: number }
  | { kind: 'hold'; amount: number }
  | { kind: 'capture'; pick: number; price: number }
  | { kind: 'release'; pick: number }
  | { kind: 'time'; seconds: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('check' as const), price: fc.integer({ min: 1, max: 5000 }), redeem: fc.integer({ min: 0, max: 800 }) }),
  fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 3000 }) }),
  fc.record({ kind: fc.constant('hold' as const), amount: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ kind: fc.constant('capture' as const), pick: fc.nat(), price: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('time' as const), seconds: fc.integer({ min: 1, max: 1200 }) }),
);

describe('ledger invariants under any sequence (property)', () => {
  it('available = balance − held, held ≥ 0, balance = Σ ledger, redemption never overdraws, spend = Σ paid − refunds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 15 }), async (steps) => {
        const venue = await createVenue(t);
        await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'A', min_spend: 0, percent: 5 }, { name: 'B', min_spend: 5000, percent: 10 }] } });
        const api = client(t, (await createKey(t, venue)).secret);
        const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
        await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 1000 });
        const checks: string[] = [];
        const holds: string[] = [];
        let n = 0;
        for (const s of steps) {
          const before = (await api.get(`/api/v1/members/${member.id}`)).body;
          let res;
          if (s.kind === 'check') {
            const id = `C${n++}`;
            res = await api.post('/api/v1/checks', { external_id: id, member_id: member.id, line_items: [{ name: 'x', quantity: 1, unit_price: s.price }], redeem_amount: Math.min(s.redeem, s.price) });
            if (res.status === 201) checks.push(id);
            else expect([402]).toContain(res.status);
            if (Math.min(s.redeem, s.price) > before.available) expect(res.status).toBe(402);
          } else if (s.kind === 'void' && checks.length) {
            res = await api.post(`/api/v1/transactions/${checks[s.pick % checks.length]}/void`);
            expect(res.status).toBe(200);
          } else if (s.kind === 'refund' && checks.length) {
            res = await api.post(`/api/v1/transactions/${checks[s.pick % checks.length]}/refunds`, { external_id: `R${n++}`, amount: s.amount });
            expect([201, 402]).toContain(res.status);
          } else if (s.kind === 'hold') {
            res = await api.post('/api/v1/holds', { member_id: member.id, amount: s.amount });
            if (res.status === 201) holds.push(res.body.id);
            else expect(res.status).toBe(402);
          } else if (s.kind === 'capture' && holds.length) {
            res = await api.post('/api/v1/checks', { external_id: `C${n++}`, hold_id: holds[s.pick % holds.length], line_items: [{ name: 'x', quantity: 1, unit_price: s.price }] });
            expect([201, 402, 409]).toContain(res.status);
          } else if (s.kind === 'release' && holds.length) {
            res = await api.post(`/api/v1/holds/${holds[s.pick % holds.length]}/release`);
            expect([200, 409]).toContain(res.status);
          } else if (s.kind === 'time') {
            t.clock.advance(s.seconds * 1000);
          }
          const m = (await api.get(`/api/v1/members/${member.id}`)).body;
          expect(m.available).toBe(m.balance - m.held);
          expect(m.held).toBeGreaterThanOrEqual(0);
          const { rows } = await sql<{ cashback: string | number; spend: string | number }>`
            select coalesce(sum(cashback), 0) as cashback, coalesce(sum(spend), 0) as spend from ledger_entries where member_id = ${member.id}`.execute(t.db);
          expect(Number(rows[0]!.cashback)).toBe(m.balance);
          const { rows: tx } = await sql<{ paid: string | number }>`
            select coalesce(sum(paid - refunded_amount), 0) as paid from transactions where member_id = ${member.id} and status = 'completed'`.execute(t.db);
          expect(m.total_spend).toBe(Number(tx[0]!.paid));
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
