import type { SimEventKind } from './events.js';

/**
 * What the live demo keeps going at any hour (issue 36 item 7), so a newcomer opening it at 03:44 sees what the
 * product is for, not twenty calm rows:
 *
 * - an open EMERGENCY: when none is open (at the start, or some minutes after a visitor confirmed the last one), an
 *   SOS or a fall, in turn, for the next wearer;
 * - a bracelet taken off: one wearer at a time takes theirs off for most of each hour (NON_WEARING after 5 min);
 * - a gateway hearing a mistyped serial: every few minutes a reading for a bracelet nobody registered (one letter off
 *   a real serial), which the gateway's page lists as refused with the serial it was probably meant to be.
 *
 * Someone strained in heat comes from the shift plan during the working day (shift-plan.ts). The decisions are pure
 * (the clock and the open alerts are given); demo-simulator.ts runs them once a minute.
 */
export interface KeeperState {
  /** Since when no EMERGENCY has been open, or the last was started (ms); null while one is open. */
  calmSince: number | null;
  nextRemovedAt: number;
  nextTypoAt: number;
  /** Turns taken, so each action goes to the next wearer. */
  emergencies: number;
  removals: number;
}

export type KeeperAction =
  | {
      kind: Extract<SimEventKind, 'sos' | 'fall' | 'removed'>;
      serialNumber: string;
      durationMinutes?: number;
    }
  | { kind: 'typo'; serialNumber: string };

/** After a visitor confirms the last emergency, the next one waits this long: confirming visibly works. */
export const CALM_MINUTES = 10;
/** A bracelet is off this long in each REMOVAL_EVERY_MINUTES. */
export const REMOVED_MINUTES = 50;
export const REMOVAL_EVERY_MINUTES = 55;
export const TYPO_EVERY_MINUTES = 5;

export const initialKeeperState = (now: number): KeeperState => ({
  calmSince: null,
  nextRemovedAt: now,
  nextTypoAt: now,
  emergencies: 0,
  removals: 0,
});

/**
 * A serial one keystroke off a real one, as staff mistype it: the first digit 0 read as the letter O, else the last
 * character doubled. Never a registered serial (the caller checks against the list).
 */
export function mistyped(serialNumber: string): string {
  const zero = serialNumber.search(/0/);
  if (zero >= 0) return `${serialNumber.slice(0, zero)}O${serialNumber.slice(zero + 1)}`;
  return `${serialNumber}${serialNumber.at(-1) ?? 'X'}`;
}

export function keeperTurn(
  state: KeeperState,
  facts: { now: number; openEmergencies: number },
  serialNumbers: readonly string[],
): { state: KeeperState; actions: KeeperAction[] } {
  const n = serialNumbers.length;
  if (n === 0) return { state, actions: [] };
  const { now } = facts;
  const next = { ...state };
  const actions: KeeperAction[] = [];

  if (facts.openEmergencies > 0) {
    next.calmSince = null;
  } else {
    const first = state.emergencies === 0;
    const calmSince = state.calmSince ?? now;
    next.calmSince = calmSince;
    if (first || now - calmSince >= CALM_MINUTES * 60_000) {
      actions.push({
        kind: state.emergencies % 2 === 0 ? 'sos' : 'fall',
        // Wearers from the middle of the list: the first ones carry the shift plan's roles.
        serialNumber: serialNumbers[(Math.floor(n / 2) + state.emergencies) % n]!,
      });
      next.emergencies = state.emergencies + 1;
      // Counted as calm from here: one that never opens (its batch failed) is started again CALM_MINUTES on.
      next.calmSince = now;
    }
  }

  if (now >= state.nextRemovedAt) {
    actions.push({
      kind: 'removed',
      // From the end of the list, the other way round from the emergencies: rarely the same wearer at once.
      serialNumber: serialNumbers[(((n - 1 - state.removals) % n) + n) % n]!,
      durationMinutes: REMOVED_MINUTES,
    });
    next.removals = state.removals + 1;
    next.nextRemovedAt = now + REMOVAL_EVERY_MINUTES * 60_000;
  }

  if (now >= state.nextTypoAt) {
    const known = new Set(serialNumbers);
    const typo = mistyped(serialNumbers[0]!);
    if (!known.has(typo)) actions.push({ kind: 'typo', serialNumber: typo });
    next.nextTypoAt = now + TYPO_EVERY_MINUTES * 60_000;
  }
  return { state: next, actions };
}
