// inTransaction: serialization failures and deadlocks are retried, then answered 409 balance_conflict; nothing half-applied.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { TRANSACTION_ATTEMPTS, inTransaction } from '../../src/db/transaction.js';
import { useTestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { pgProxy } from '../support/pg-proxy.js';
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

// PostgreSQL only: the embedded database has no round trips (its statements are calls in this process).
describe.runIf(onPostgres())('BEGIN sent with the first statement (PostgreSQL)', () => {
  const tripsOf = async (work: () => Promise<unknown>) => {
    const from = t.testDatabase.roundTrips.length;
    await work();
    return t.testDatabase.roundTrips.slice(from);
  };
  const lockedElsewhere = async (venueId: string) => {
    try {
      await t.db.connection().execute((other) => sql`select 1 from venues where venue_id = ${venueId} for update nowait`.execute(other));
      return false;
    } catch (err) {
      if ((err as { code?: string }).code === '55P03') return true;
      throw err;
    }
  };

  it('goes out in one round trip with it, and the two are one transaction: the lock it took is held until COMMIT', async () => {
    const venue = await createVenue(t);
    let heldInside: boolean | undefined;
    const lockAndProbe = () =>
      inTransaction(t.db, async (trx) => {
        await sql`select 1 from venues where venue_id = ${venue.id} for update`.execute(trx);
        heldInside = await lockedElsewhere(venue.id);
      });
    // The first time, the statement is prepared on the connection, after a BEGIN of its own; the pool hands the
    // same connection back for the second.
    expect(await tripsOf(lockAndProbe)).toEqual(['begin', 'select 1 from venues where venue_id = $1 for update', 'select 1 from venues where venue_id = $1 for update nowait', 'commit']);
    const trips = await tripsOf(lockAndProbe);
    expect(heldInside).toBe(true);
    expect(await lockedElsewhere(venue.id)).toBe(false);
    // The second is the probe's, on its own connection.
    expect(trips).toEqual(['begin; select 1 from venues where venue_id = $1 for update', 'select 1 from venues where venue_id = $1 for update nowait', 'commit']);
  });

  it('a change made by the statement BEGIN went out with is rolled back with the rest', async () => {
    const venue = await createVenue(t);
    await expect(
      inTransaction(t.db, async (trx) => {
        await sql`update venues set name = 'changed' where venue_id = ${venue.id}`.execute(trx);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await venueNames(venue.slug)).toEqual([venue.name]);
  });

  it('a transaction that sends nothing sends no BEGIN and no COMMIT; one whose first statement has no values sends BEGIN first', async () => {
    expect(await tripsOf(() => inTransaction(t.db, async () => 'nothing'))).toEqual([]);
    expect(await tripsOf(() => inTransaction(t.db, async (trx) => sql`select 1`.execute(trx)))).toEqual(['begin', 'select 1', 'commit']);
  });
  it('a first statement made stale by a migration is run again, even when the server says late that the transaction is open, and the connection stays usable and reads the new columns', async () => {
    // A proxy that holds back whatever follows an error for 50 ms: pg reports the error before the ReadyForQuery that
    // says a transaction is open, as it does when the two come in separate reads.
    const proxy = await pgProxy(t.testDatabase.url!, async (type) => {
      if (type === 0x45) await new Promise((r) => setTimeout(r, 50));
    });
    await sql`create table stale_plan_probe (id int primary key, a int)`.execute(t.db);
    await sql`insert into stale_plan_probe values (1, 10)`.execute(t.db);
    const { db, close } = await openDatabase({ kind: 'postgres', url: proxy.url, poolSize: 1 });
    try {
      const read = (d: typeof db) => sql`select * from stale_plan_probe where id = ${1}`.execute(d).then((r) => r.rows);
      expect(await inTransaction(db, read)).toEqual([{ id: 1, a: 10 }]);
      expect(await inTransaction(db, read)).toEqual([{ id: 1, a: 10 }]);
      await sql`alter table stale_plan_probe add column b int`.execute(t.db);
      // Run again after the change, the statement is parsed and described anew: its rows carry the new column.
      expect(await inTransaction(db, read)).toEqual([{ id: 1, a: 10, b: null }]);
      expect(await read(db)).toEqual([{ id: 1, a: 10, b: null }]);
      expect(await inTransaction(db, read)).toEqual([{ id: 1, a: 10, b: null }]);
    } finally {
      await close();
      proxy.close();
      await sql`drop table stale_plan_probe`.execute(t.db);
    }
  });
});
