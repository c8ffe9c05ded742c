import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { STORAGE_KEYS } from '../../lib/storage';
import {
  addPendingPairing,
  PAIRING_EXPIRY_MS,
  PAIRING_POLL_MS,
  pollPendingPairings,
  readPendingPairings,
  removePendingPairing,
  startPairingPoller,
  type PairedCheck,
} from './pending-pairings';

const T0 = Date.parse('2026-11-23T00:00:00Z');
const ok = (isPaired: boolean) => ({ isPaired });
/** A refused call (or 600, no answer), as `call` throws it. */
const refused = (status: number) => new ApiError(status, null);
const stored = () =>
  JSON.parse(localStorage.getItem(STORAGE_KEYS.pairingStatus) ?? '[]') as unknown[];

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('pending pairings in local storage', () => {
  it('stores {uid, name, attemptTimestamp} under pairingStatus; a new attempt replaces the old one', () => {
    addPendingPairing({ uid: 'w1', name: '佐藤', attemptTimestamp: T0 });
    addPendingPairing({ uid: 'w2', name: '田中', attemptTimestamp: T0 + 1 });
    addPendingPairing({ uid: 'w1', name: '佐藤', attemptTimestamp: T0 + 2 });
    expect(stored()).toEqual([
      { uid: 'w2', name: '田中', attemptTimestamp: T0 + 1 },
      { uid: 'w1', name: '佐藤', attemptTimestamp: T0 + 2 },
    ]);
    removePendingPairing('w2');
    removePendingPairing('w1', T0); // an older attempt's removal leaves the newer one
    expect(readPendingPairings()).toEqual([{ uid: 'w1', name: '佐藤', attemptTimestamp: T0 + 2 }]);
    removePendingPairing('w1');
    expect(localStorage.getItem(STORAGE_KEYS.pairingStatus)).toBeNull();
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem(STORAGE_KEYS.pairingStatus, '{not json');
    expect(readPendingPairings()).toEqual([]);
    localStorage.setItem(
      STORAGE_KEYS.pairingStatus,
      JSON.stringify([{ uid: 'w1' }, { uid: 'w2', name: 'x', attemptTimestamp: T0 }]),
    );
    expect(readPendingPairings()).toEqual([{ uid: 'w2', name: 'x', attemptTimestamp: T0 }]);
  });
});

describe('one poll round', () => {
  it('removes and returns the paired entries, keeps the others', async () => {
    addPendingPairing({ uid: 'w1', name: 'A', attemptTimestamp: T0 });
    addPendingPairing({ uid: 'w2', name: 'B', attemptTimestamp: T0 });
    const check = vi.fn<PairedCheck>(async (uid) => ok(uid === 'w1'));
    expect(await pollPendingPairings(check, T0 + PAIRING_POLL_MS)).toEqual([
      { uid: 'w1', name: 'A', attemptTimestamp: T0 },
    ]);
    expect(check.mock.calls.map((c) => c[0])).toEqual(['w1', 'w2']);
    expect(readPendingPairings().map((e) => e.uid)).toEqual(['w2']);
  });

  it('drops entries older than 30 minutes without asking about them', async () => {
    addPendingPairing({ uid: 'old', name: 'A', attemptTimestamp: T0 });
    addPendingPairing({ uid: 'new', name: 'B', attemptTimestamp: T0 + 60_000 });
    const check = vi.fn<PairedCheck>(async () => ok(false));
    await pollPendingPairings(check, T0 + PAIRING_EXPIRY_MS); // exactly 30 minutes: still kept
    expect(readPendingPairings().map((e) => e.uid)).toEqual(['old', 'new']);
    await pollPendingPairings(check, T0 + PAIRING_EXPIRY_MS + 1);
    expect(readPendingPairings().map((e) => e.uid)).toEqual(['new']);
    expect(check.mock.calls.at(-1)).toEqual(['new']);
  });

  it('a status >= 400, no answer (600) or a thrown call skips that entry for the round only', async () => {
    for (const uid of ['w400', 'w500', 'w600', 'wthrow', 'wok'])
      addPendingPairing({ uid, name: uid, attemptTimestamp: T0 });
    const check: PairedCheck = async (uid) => {
      if (uid === 'w400') throw refused(404);
      if (uid === 'w500') throw refused(500);
      if (uid === 'w600') throw refused(600);
      if (uid === 'wthrow') throw new Error('offline');
      return ok(true);
    };
    expect((await pollPendingPairings(check, T0 + 1)).map((e) => e.uid)).toEqual(['wok']);
    expect(readPendingPairings().map((e) => e.uid)).toEqual(['w400', 'w500', 'w600', 'wthrow']);
    // Next round the same entries are asked again and may pair.
    expect((await pollPendingPairings(async () => ok(true), T0 + 2)).map((e) => e.uid)).toEqual([
      'w400',
      'w500',
      'w600',
      'wthrow',
    ]);
    expect(readPendingPairings()).toEqual([]);
  });

  it('an entry added while a round waits for answers is kept', async () => {
    addPendingPairing({ uid: 'w1', name: 'A', attemptTimestamp: T0 });
    let release: (v: { isPaired: boolean }) => void = () => {};
    const round = pollPendingPairings(() => new Promise((resolve) => (release = resolve)), T0 + 1);
    addPendingPairing({ uid: 'w2', name: 'B', attemptTimestamp: T0 + 1 });
    release(ok(true));
    await round;
    expect(readPendingPairings().map((e) => e.uid)).toEqual(['w2']);
  });
});

describe('the poller', () => {
  it('asks every 90 s, not before, and reports each paired wearer once', async () => {
    addPendingPairing({ uid: 'w1', name: 'A', attemptTimestamp: T0 });
    let paired = false;
    const check = vi.fn<PairedCheck>(async () => ok(paired));
    const onPaired = vi.fn();
    const stop = startPairingPoller({ check, onPaired });
    await vi.advanceTimersByTimeAsync(PAIRING_POLL_MS - 1);
    expect(check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);
    expect(onPaired).not.toHaveBeenCalled();
    paired = true;
    await vi.advanceTimersByTimeAsync(PAIRING_POLL_MS);
    expect(check).toHaveBeenCalledTimes(2);
    expect(onPaired).toHaveBeenCalledExactlyOnceWith({
      uid: 'w1',
      name: 'A',
      attemptTimestamp: T0,
    });
    await vi.advanceTimersByTimeAsync(PAIRING_POLL_MS * 3);
    expect(check).toHaveBeenCalledTimes(2); // nothing pending: nothing asked
    stop();
  });

  it('after 30 minutes without pairing the entry is gone and nothing is asked any more', async () => {
    addPendingPairing({ uid: 'w1', name: 'A', attemptTimestamp: T0 });
    const check = vi.fn<PairedCheck>(async () => ok(false));
    const stop = startPairingPoller({ check, onPaired: vi.fn() });
    await vi.advanceTimersByTimeAsync(PAIRING_EXPIRY_MS);
    expect(check).toHaveBeenCalledTimes(PAIRING_EXPIRY_MS / PAIRING_POLL_MS); // 20 rounds
    await vi.advanceTimersByTimeAsync(PAIRING_POLL_MS);
    expect(readPendingPairings()).toEqual([]);
    expect(check).toHaveBeenCalledTimes(PAIRING_EXPIRY_MS / PAIRING_POLL_MS);
    stop();
  });

  it('stopping ends the polling', async () => {
    addPendingPairing({ uid: 'w1', name: 'A', attemptTimestamp: T0 });
    const check = vi.fn<PairedCheck>(async () => ok(false));
    startPairingPoller({ check, onPaired: vi.fn() })();
    await vi.advanceTimersByTimeAsync(PAIRING_POLL_MS * 2);
    expect(check).not.toHaveBeenCalled();
  });
});
