import { getPairingStatus, storePairingStatus } from '../../lib/storage';

/** A pairing started in this browser and not reported paired yet (spec section 3: uid, name, attemptTimestamp). */
export interface PendingPairing {
  uid: string;
  name: string;
  /** Epoch ms of the attempt. */
  attemptTimestamp: number;
}

/** Spec section 9: pending entries are polled every 90 s and dropped after 30 minutes. */
export const PAIRING_POLL_MS = 90_000;
export const PAIRING_EXPIRY_MS = 30 * 60_000;

const isPending = (value: unknown): value is PendingPairing =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PendingPairing).uid === 'string' &&
  typeof (value as PendingPairing).name === 'string' &&
  typeof (value as PendingPairing).attemptTimestamp === 'number';

/** The stored entries; anything unreadable is ignored. */
export function readPendingPairings(): PendingPairing[] {
  const raw = getPairingStatus();
  return Array.isArray(raw) ? raw.filter(isPending) : [];
}

/** Starting a pairing: one entry per wearer, the newest attempt replacing an older one. */
export function addPendingPairing(entry: PendingPairing): void {
  storePairingStatus([...readPendingPairings().filter((e) => e.uid !== entry.uid), entry]);
}

/** Removes a wearer's entry (only that attempt, when given: a newer attempt meanwhile stays). */
export function removePendingPairing(uid: string, attemptTimestamp?: number): void {
  storePairingStatus(
    readPendingPairings().filter(
      (e) =>
        e.uid !== uid ||
        (attemptTimestamp !== undefined && e.attemptTimestamp !== attemptTimestamp),
    ),
  );
}

export const isExpired = (entry: PendingPairing, now: number): boolean =>
  now - entry.attemptTimestamp > PAIRING_EXPIRY_MS;

/** Whether one wearer's bracelet was reported paired (the isPaired endpoint); a refusal throws. */
export type PairedCheck = (uid: string) => Promise<{ isPaired: boolean }>;

/**
 * One round of the poll: entries older than 30 minutes are dropped first; every other entry is asked about;
 * a paired one is removed and returned. A failed call (a refusal or no answer: it throws) skips that entry for
 * this round: it is asked again in the next.
 */
export async function pollPendingPairings(
  check: PairedCheck,
  now: number,
): Promise<PendingPairing[]> {
  const all = readPendingPairings();
  const live = all.filter((e) => !isExpired(e, now));
  if (live.length !== all.length) storePairingStatus(live);
  const answers = await Promise.all(
    live.map(async (entry) => {
      try {
        const answer = await check(entry.uid);
        return answer.isPaired === true ? entry : null;
      } catch {
        return null;
      }
    }),
  );
  const paired = answers.filter((e): e is PendingPairing => e !== null);
  for (const entry of paired) removePendingPairing(entry.uid, entry.attemptTimestamp);
  return paired;
}

/**
 * Polls every PAIRING_POLL_MS until stopped; `onPaired` hears each wearer whose bracelet its gateway reported.
 * One round at a time: a slow round is never overlapped by the next.
 */
export function startPairingPoller(options: {
  check: PairedCheck;
  onPaired: (entry: PendingPairing) => void;
  now?: () => number;
}): () => void {
  const now = options.now ?? Date.now;
  let running = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void pollPendingPairings(options.check, now())
      .then((paired) => {
        if (!stopped) for (const entry of paired) options.onPaired(entry);
      })
      .finally(() => {
        running = false;
      });
  }, PAIRING_POLL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
