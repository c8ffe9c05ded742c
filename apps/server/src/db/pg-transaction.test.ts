import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './client.js';

// On PostgreSQL a transaction's BEGIN is pipelined with its first statement (db/client.ts): what
// commits, what rolls back and the client given back to the pool must be as with a BEGIN of its own.
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL transactions, BEGIN pipelined', () => {
  const table = `tx_pipeline_${process.pid}`;

  it('commits together, rolls back together, and gives the one client back whatever happens', async () => {
    // One client in the pool: a client not given back would make the next transaction wait forever.
    const db = await openPostgres(inject('testDatabaseUrl'), 1, 1);
    try {
      await db.query(`CREATE TABLE ${table} (n int PRIMARY KEY)`);

      // Two statements, the second seeing the first, both committed.
      const seen = await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES (1)`);
        return tx.query<{ c: number }>(`SELECT count(*)::int AS c FROM ${table}`);
      });
      expect(seen).toEqual([{ c: 1 }]);

      // The first statement fails: nothing of the transaction stays.
      await expect(
        db.transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} VALUES (1)`);
        }),
      ).rejects.toThrow(/duplicate key/);
      // A later statement fails: the earlier one is rolled back with it.
      await expect(
        db.transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} VALUES (2)`);
          await tx.query(`INSERT INTO ${table} VALUES (1)`);
        }),
      ).rejects.toThrow(/duplicate key/);
      // The work throws before sending any statement.
      await expect(
        db.transaction(async () => {
          throw new Error('refused before any statement');
        }),
      ).rejects.toThrow('refused before any statement');
      // Statements sent together (not awaited one by one) are answered in order.
      const both = await db.transaction(async (tx) =>
        Promise.all([
          tx.query<{ n: number }>('SELECT 1 AS n'),
          tx.query<{ n: number }>('SELECT 2 AS n'),
        ]),
      );
      expect(both).toEqual([[{ n: 1 }], [{ n: 2 }]]);
      // An empty transaction commits.
      expect(await db.transaction(async () => 'done')).toBe('done');

      // The last statement with COMMIT sent beside it: committed, its rows answered.
      const last = await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES (3)`);
        return tx.commitWith!<{ n: number }>(`INSERT INTO ${table} VALUES (4) RETURNING n`);
      });
      expect(last).toEqual([{ n: 4 }]);
      // The last statement fails: the transaction rolls back whole (COMMIT answers ROLLBACK).
      await expect(
        db.transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} VALUES (5)`);
          return tx.commitWith!(`INSERT INTO ${table} VALUES (1)`);
        }),
      ).rejects.toThrow(/duplicate key/);
      // Nothing may follow it.
      await expect(
        db.transaction(async (tx) => {
          await tx.commitWith!(`INSERT INTO ${table} VALUES (6)`);
          await tx.query('SELECT 1');
        }),
      ).rejects.toThrow(/nothing may follow commitWith/);

      expect(await db.query(`SELECT n FROM ${table} ORDER BY n`)).toEqual([
        { n: 1 },
        { n: 3 },
        { n: 4 },
        { n: 6 },
      ]);
      // Outside a transaction the client answers one statement at a time as before.
      expect(await db.query<{ n: number }>('SELECT 3 AS n')).toEqual([{ n: 3 }]);
    } finally {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
      await db.close();
    }
  });
});
