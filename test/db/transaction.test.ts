// inTransaction: serialization failures and deadlocks are retried, then answered 409 balance_conflict; nothing half-applied.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TRANSACTION_ATTEMPTS, inTransaction } from '../../src/db/transaction.js';
import { useTestApp } from '../support/app.js';
import { createVenue } from '../support/factories.js';

const t = useTestApp();
const pgError = (code: string) => Object.assign(new Error(`postgres ${code}`), { code });

async function venueNames(slug: string): Promise<string[]> {
  return (await t.db.selectFrom('venues').select('name').where('slug', '=', slug).execute()).map((r) => r.name);
}

describe('inTransaction', () => {
  it('retries a deadlock or serialization failure, rolling back each failed attempt', async () => {
    const venue = await createVenue(t);
    let attempts = 0;
    const result = await inTransaction(t.db, async (trx) => {
      attempts++;
      await sql`update venues set name = name || '+' where venue_id = ${venue.id}`.execute(trx);
      if (attempts < TRANSACTION_ATTEMPTS) throw pgError(attempts === 1 ? '40P01' : '40001');
      return 'done';
    });
    expect([result, attempts]).toEqual(['done', TRANSACTION_ATTEMPTS]);
    expect(await venueNames(venue.slug)).toEqual([`${venue.name}+`]);
  });

  it('gives up with 409 balance_conflict after the last attempt, and leaves nothing applied', async () => {
    const venue = await createVenue(t);
    let attempts = 0;
    const failing = inTransaction(t.db, async (trx) => {
      attempts++;
      await sql`update venues set name = 'changed' where venue_id = ${venue.id}`.execute(trx);
      throw pgError('40P01');
    });
    await expect(failing).rejects.toMatchObject({ code: 'balance_conflict', status: 409 });
    expect(attempts).toBe(TRANSACTION_ATTEMPTS);
    expect(await venueNames(venue.slug)).toEqual([venue.name]);
  });

  it('does not retry other errors', async () => {
    let attempts = 0;
    await expect(
      inTransaction(t.db, async () => {
        attempts++;
        throw pgError('23505');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(attempts).toBe(1);
  });
});
