// A prepared statement's columns are described once per connection (src/db/prepared-query.ts): later runs read
// every type right, inside and outside a transaction, without the server describing them again.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import { useTestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { pgProxy } from '../support/pg-proxy.js';

const t = useTestApp();

describe.runIf(onPostgres())('statements prepared by name (PostgreSQL)', () => {
  it('are described once per connection; their rows read every type right after, in a transaction (sent with BEGIN) or not', async () => {
    await sql`create table prepared_probe (id int primary key, at timestamptz, day date, doc jsonb, note text, n int8)`.execute(t.db);
    await sql`insert into prepared_probe values (1, '2026-03-04T05:06:07.089Z', '2026-03-04', '{"a": [1, "b"]}', 'one', 9007199254740991), (2, null, null, null, null, null)`.execute(t.db);
    const counts = { rowDescriptions: 0 };
    const proxy = await pgProxy(t.testDatabase.url!, (type) => {
      if (type === 0x54) counts.rowDescriptions++;
    });
    const { db, close } = await openDatabase({ kind: 'postgres', url: proxy.url, poolSize: 1 });
    try {
      const read = (d: Db, id: number) => sql`select p.*, (select count(*) from prepared_probe) as total from prepared_probe p where id = ${id}`.execute(d).then((r) => r.rows);
      const one = [{ id: 1, at: new Date('2026-03-04T05:06:07.089Z'), day: '2026-03-04', doc: { a: [1, 'b'] }, note: 'one', n: 9007199254740991, total: 2 }];
      const two = [{ id: 2, at: null, day: null, doc: null, note: null, n: null, total: 2 }];
      const before = counts.rowDescriptions;
      const runs = [
        await read(db, 1),
        await inTransaction(db, (trx) => read(trx, 2)),
        await inTransaction(db, (trx) => read(trx, 1)),
        await read(db, 2),
        await read(db, 3),
        await inTransaction(db, (trx) => read(trx, 3)),
      ];
      expect(runs).toEqual([one, two, one, two, [], []]);
      expect(counts.rowDescriptions - before).toBe(1);

      // Another statement's columns are its own; one that changes rows reports them and how many, sent with BEGIN or alone.
      const touch = (d: Db, id: number) =>
        sql<{ id: number; note: string }>`update prepared_probe set note = coalesce(note, '') || '+' where id = ${id} returning id, note`.execute(d).then((r) => [r.numAffectedRows, r.rows]);
      const touched = [await touch(db, 1), await inTransaction(db, (trx) => touch(trx, 1)), await read(db, 1), await inTransaction(db, (trx) => touch(trx, 5)), await touch(db, 2)];
      expect(touched).toEqual([[1n, [{ id: 1, note: 'one+' }]], [1n, [{ id: 1, note: 'one++' }]], [{ ...one[0], note: 'one++' }], [0n, []], [1n, [{ id: 2, note: '+' }]]]);
      expect(counts.rowDescriptions - before).toBe(2);
    } finally {
      await close();
      proxy.close();
      await sql`drop table prepared_probe`.execute(t.db);
    }
  });

  it('forget the columns they kept when a migration changes a table: a statement parsed again whose first run fails reads the new columns after', async () => {
    await sql`create table prepared_change (id int primary key, a int)`.execute(t.db);
    await sql`insert into prepared_change values (1, 10)`.execute(t.db);
    const { db, close } = await openDatabase({ kind: 'postgres', url: t.testDatabase.url!, poolSize: 1 });
    try {
      const first = (d: Db) => sql`select * from prepared_change where id = ${1}`.execute(d).then((r) => r.rows);
      const second = (d: Db, id: unknown) => sql`select *, 2 as two from prepared_change where id = ${id}`.execute(d).then((r) => r.rows);
      expect([await first(db), await second(db, 1)]).toEqual([[{ id: 1, a: 10 }], [{ id: 1, a: 10, two: 2 }]]);
      await sql`alter table prepared_change add column b int`.execute(t.db);
      // The first statement meets the change and the connection forgets its statements; the second is parsed again
      // by a run that fails at Bind (not an integer), so it is parsed but not described when it next runs.
      expect(await first(db)).toEqual([{ id: 1, a: 10, b: null }]);
      await expect(second(db, 'x')).rejects.toMatchObject({ code: '22P02' });
      expect(await second(db, 1)).toEqual([{ id: 1, a: 10, b: null, two: 2 }]);
      expect(await inTransaction(db, (trx) => second(trx, 1))).toEqual([{ id: 1, a: 10, b: null, two: 2 }]);
    } finally {
      await close();
      await sql`drop table prepared_change`.execute(t.db);
    }
  });
});
