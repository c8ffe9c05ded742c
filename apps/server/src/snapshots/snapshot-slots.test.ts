import { describe, expect, it } from 'vitest';
import { READ_WHOLE, type SnapshotReads, SnapshotSlots } from './snapshot-slots.js';

/** A store of wearer -> value, read whole or by id, whose reads wait until released. */
function world() {
  const store = new Map<string, string>([
    ['w1', 'a'],
    ['w2', 'b'],
  ]);
  const log: string[] = [];
  const gates: Array<() => void> = [];
  let hold = false;
  const wait = () =>
    hold ? new Promise<void>((resolve) => gates.push(resolve)) : Promise.resolve();
  let failNext = false;
  let wholeNext = false;
  const reads: SnapshotReads<Map<string, string>> = {
    async whole(key) {
      log.push(`whole ${key}`);
      const copy = new Map(store);
      await wait();
      return copy;
    },
    async patch(key, ids, latest) {
      log.push(`patch ${key} ${[...ids].sort().join(',')}`);
      const read = [...ids].map((id) => [id, store.get(id)] as const);
      await wait();
      if (failNext) {
        failNext = false;
        throw new Error('read failed');
      }
      if (wholeNext) {
        wholeNext = false;
        return READ_WHOLE;
      }
      const next = new Map(latest());
      for (const [id, v] of read) {
        if (v === undefined) next.delete(id);
        else next.set(id, v);
      }
      return next;
    },
  };
  const errors: unknown[] = [];
  const slots = new SnapshotSlots(reads, () => 60_000, { error: (e) => errors.push(e) }, 'test');
  return {
    store,
    log,
    slots,
    errors,
    hold(on: boolean) {
      hold = on;
    },
    release() {
      for (const g of gates.splice(0)) g();
    },
    failNext() {
      failNext = true;
    },
    wholeNext() {
      wholeNext = true;
    },
  };
}

describe('SnapshotSlots (the summary and map snapshots)', () => {
  it('reads a key whole once, then only the wearers events name', async () => {
    const w = world();
    expect([...(await w.slots.settled('org')).entries()]).toEqual([
      ['w1', 'a'],
      ['w2', 'b'],
    ]);
    w.store.set('w2', 'B');
    w.slots.mark('org', 'w2');
    w.slots.mark('other', 'w1'); // a key nobody reads: nothing to do
    expect((await w.slots.settled('org')).get('w2')).toBe('B');
    expect(await w.slots.settled('org')).toBe(await w.slots.settled('org'));
    expect(w.log).toEqual(['whole org', 'patch org w2']);
    expect(w.slots.counts).toEqual({ wholeReads: 1, patches: 1 });
  });

  it('joins the read under way, and a change announced during it is read after it', async () => {
    const w = world();
    await w.slots.settled('org');
    w.hold(true);
    w.store.set('w1', 'A');
    w.slots.mark('org', 'w1');
    const first = w.slots.settled('org');
    const second = w.slots.settled('org');
    await Promise.resolve();
    // Announced after the patch read w1 (it may hold the old value): the answer after waits for it.
    w.store.set('w1', 'AA');
    w.slots.mark('org', 'w1');
    const third = w.slots.settled('org');
    w.release();
    expect((await first).get('w1')).toBe('A');
    expect((await second).get('w1')).toBe('A');
    await new Promise((r) => setImmediate(r));
    w.release();
    expect((await third).get('w1')).toBe('AA');
    expect(w.log).toEqual(['whole org', 'patch org w1', 'patch org w1']);
  });

  it('reads the key whole when marked dirty, when a patch asks, and when too many are named', async () => {
    const w = world();
    await w.slots.settled('org');
    w.slots.markAllDirty();
    await w.slots.settled('org');
    w.slots.mark('org', 'w3');
    w.store.set('w3', 'c');
    w.wholeNext();
    expect((await w.slots.settled('org')).get('w3')).toBe('c');
    for (let i = 0; i < 2001; i++) w.slots.mark('org', `x${i}`);
    await w.slots.settled('org');
    expect(w.log).toEqual(['whole org', 'whole org', 'patch org w3', 'whole org', 'whole org']);
  });

  it('keeps what a failed read was to read for the next one', async () => {
    const w = world();
    await w.slots.settled('org');
    w.store.delete('w1');
    w.slots.mark('org', 'w1');
    w.failNext();
    await expect(w.slots.settled('org')).rejects.toThrow('read failed');
    expect((await w.slots.settled('org')).has('w1')).toBe(false);
    expect(w.log).toEqual(['whole org', 'patch org w1', 'patch org w1']);
  });
  it('replaces a snapshot with one derived from it, unless a read replaced it meanwhile', async () => {
    const w = world();
    const held = await w.slots.settled('org');
    const derived = new Map(held);
    w.slots.replace('org', held, derived);
    expect(await w.slots.settled('org')).toBe(derived);
    w.slots.replace('org', held, new Map()); // `held` is no longer the snapshot: nothing changes
    expect(await w.slots.settled('org')).toBe(derived);
    expect(w.log).toEqual(['whole org']);
  });
});
