import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, prepared, wrapPglite } from './client.js';

// `prepared(...)` statements run as named statements on PGlite (pglite-prepared.ts): the same rows, types and
// errors as PGlite's own query, inside and outside transactions, and a failure leaves nothing half-prepared.
let db: Db;
beforeAll(async () => {
  db = wrapPglite(await PGlite.create());
  await db.exec(
    `CREATE TABLE t (id text PRIMARY KEY, at timestamptz NOT NULL, n int, tags text[])`,
  );
});
afterAll(() => db?.close());

const INSERT = prepared(
  `INSERT INTO t (id, at, n, tags)
   SELECT x.id, x.at, x.n, ARRAY[x.tag] FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::text[])
     AS x(id, at, n, tag)
   RETURNING id, at, n, tags`,
);
const SELECT = prepared(`SELECT id, at, n, tags FROM t WHERE id = ANY($1::text[]) ORDER BY id`);

describe('named statements on PGlite', () => {
  it('answer what the unnamed query answers, parameters and results typed alike, run after run', async () => {
    const at = new Date('2026-11-26T10:00:00.000Z');
    const inserted = await db.query(INSERT, [
      ['a', 'b'],
      [at, at],
      [1, null],
      ['x', 'y'],
    ]);
    expect(inserted).toEqual([
      { id: 'a', at, n: 1, tags: ['x'] },
      { id: 'b', at, n: null, tags: ['y'] },
    ]);
    for (let i = 0; i < 8; i++) {
      // Past PostgreSQL's five custom plans: its plan cache may switch to the generic plan.
      expect(await db.query(SELECT, [['b', 'a']])).toEqual(
        await db.query(SELECT.text, [['b', 'a']]),
      );
    }
    expect(await db.transaction((tx) => tx.query(SELECT, [['a']]))).toEqual([inserted[0]]);
  });

  it('a failed statement rolls its transaction back; the statement and the database work on', async () => {
    const at = new Date();
    await expect(
      db.transaction(async (tx) => {
        await tx.query(INSERT, [['c'], [at], [3], ['z']]);
        await tx.query(INSERT, [['a'], [at], [4], ['z']]); // a's key is taken
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query(SELECT, [['c']])).toEqual([]);
    await db.query(INSERT, [['c'], [at], [3], ['z']]);
    expect(await db.query(SELECT, [['c']])).toHaveLength(1);
  });

  it('a statement that does not parse throws each time and leaves the others working', async () => {
    const broken = prepared('SELECT nope FROM t WHERE id = $1');
    await expect(db.query(broken, ['a'])).rejects.toMatchObject({ code: '42703' });
    await expect(db.query(broken, ['a'])).rejects.toMatchObject({ code: '42703' });
    await expect(db.transaction((tx) => tx.query(broken, ['a']))).rejects.toMatchObject({
      code: '42703',
    });
    expect(await db.query(SELECT, [['a']])).toHaveLength(1);
  });
});
