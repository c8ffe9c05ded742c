import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPostgres } from './client.js';
import { withLaneHint } from './priority-lane.js';

// On PostgreSQL an urgent transaction (an SOS batch) must not wait for a client behind busy ones.
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL urgent pool', () => {
  it('runs urgent work while every normal client is busy; normal work waits its turn', async () => {
    const db = await openPostgres(inject('testDatabaseUrl'), 2, 1);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const busy = [0, 1].map(() =>
      db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await held;
      }),
    );
    await expect.poll(() => db.queueDepth).toBe(0);

    let normalDone = false;
    const normal = db
      .transaction(async (tx) => tx.query('SELECT 1'))
      .then(() => (normalDone = true));
    const urgent = await withLaneHint({ urgent: true }, () =>
      db.transaction(async (tx) => tx.query<{ n: number }>('SELECT 42 AS n')),
    );
    expect(urgent).toEqual([{ n: 42 }]);
    expect(normalDone).toBe(false);
    expect(db.queueDepth).toBe(1);

    release();
    await Promise.all([...busy, normal]);
    expect(normalDone).toBe(true);
    await db.close();
  });

  it("holds normal statements while urgent work runs, but not those on the urgent work's wearers", async () => {
    const db = await openPostgres(inject('testDatabaseUrl'), 2, 1);
    const log: string[] = [];
    let release!: () => void;
    const sosRunning = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const sosStarted = new Promise<void>((r) => (started = r));
    const sos = db.transaction(
      async (tx) => {
        await tx.query('SELECT 1');
        started();
        await sosRunning;
        log.push('sos');
      },
      { urgent: true, keys: ['w1'] },
    );
    await sosStarted;
    const other = db.query('SELECT 2').then(() => log.push('other wearer'));
    const same = db
      .transaction(async (tx) => tx.query('SELECT 3'), { urgent: false, keys: ['w1'] })
      .then(() => log.push('same wearer'));
    await same;
    // The same wearer's transaction started after the gate let it (it shares the SOS's key inside);
    // the other statement still waits for the urgent work.
    expect(log).toEqual(['same wearer']);
    release();
    await Promise.all([sos, other]);
    expect(log).toEqual(['same wearer', 'sos', 'other wearer']);
    await db.close();
  });
});
