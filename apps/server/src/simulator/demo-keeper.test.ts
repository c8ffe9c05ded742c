import { describe, expect, it } from 'vitest';
import {
  CALM_MINUTES,
  initialKeeperState,
  keeperTurn,
  mistyped,
  REMOVAL_EVERY_MINUTES,
  type KeeperAction,
  type KeeperState,
} from './demo-keeper.js';

const SERIALS = [
  'DEMO-BR-001',
  'DEMO-BR-002',
  'DEMO-BR-003',
  'DEMO-BR-004',
  'DEMO-BR-005',
  'DEMO-BR-006',
];
const MINUTE = 60_000;
const T0 = Date.parse('2026-12-02T03:44:00+09:00');

/** Runs the keeper once a minute from T0 for `minutes`, with `open(at, actionsSoFar)` emergencies open. */
function run(
  minutes: number,
  open: (at: number, done: { at: number; action: KeeperAction }[]) => number,
): { at: number; action: KeeperAction }[] {
  let state: KeeperState = initialKeeperState(T0);
  const done: { at: number; action: KeeperAction }[] = [];
  for (let m = 0; m <= minutes; m++) {
    const now = T0 + m * MINUTE;
    const turn = keeperTurn(state, { now, openEmergencies: open(now, done) }, SERIALS);
    state = turn.state;
    done.push(...turn.actions.map((action) => ({ at: now, action })));
  }
  return done;
}

describe('the demo keeper', () => {
  it('at 03:44 with nothing open, starts an SOS, a bracelet off and a mistyped serial at once', () => {
    const first = run(0, () => 0).map((d) => d.action.kind);
    expect(first.sort()).toEqual(['removed', 'sos', 'typo']);
  });

  it('while an emergency is open starts no other; once confirmed, the next one waits', () => {
    // The SOS opens a minute after it is started and is confirmed 20 minutes later.
    const done = run(60, (at, so) => {
      const started = so.filter((d) => d.action.kind === 'sos' || d.action.kind === 'fall');
      const last = started.at(-1);
      if (!last) return 0;
      return at >= last.at + MINUTE && at < last.at + 21 * MINUTE ? 1 : 0;
    });
    const emergencies = done.filter((d) => d.action.kind === 'sos' || d.action.kind === 'fall');
    expect(emergencies.map((d) => d.action.kind)).toEqual(['sos', 'fall']);
    // Confirmed at +21 min; calm from the next check; the fall CALM_MINUTES later.
    expect((emergencies[1]!.at - emergencies[0]!.at) / MINUTE).toBe(21 + CALM_MINUTES);
    // Each goes to another wearer.
    expect(new Set(emergencies.map((d) => d.action.serialNumber)).size).toBe(2);
  });

  it('starts again an emergency that never opened, after a grace of a few minutes, not every minute', () => {
    const emergencies = run(30, () => 0).filter(
      (d) => d.action.kind === 'sos' || d.action.kind === 'fall',
    );
    expect(emergencies.length).toBeGreaterThan(1);
    expect(emergencies.length).toBeLessThanOrEqual(4);
  });

  it('keeps one bracelet off most of each hour, a different wearer each time', () => {
    const removed = run(3 * 60, () => 1).filter((d) => d.action.kind === 'removed');
    expect(removed.map((d) => (d.at - T0) / MINUTE)).toEqual(
      [0, 1, 2, 3].map((i) => i * REMOVAL_EVERY_MINUTES),
    );
    expect(new Set(removed.map((d) => d.action.serialNumber)).size).toBe(4);
    for (const d of removed) expect(d.action).toMatchObject({ durationMinutes: 50 });
  });

  it('mistypes a serial as staff do, never into a registered one', () => {
    expect(mistyped('DEMO-BR-001')).toBe('DEMO-BR-O01');
    expect(mistyped('SAKURA-BR-123')).toBe('SAKURA-BR-1233');
    const typos = run(20, () => 1).filter((d) => d.action.kind === 'typo');
    expect(typos).toHaveLength(5);
    for (const d of typos) expect(SERIALS).not.toContain(d.action.serialNumber);
  });

  it('does nothing for an organisation without bracelets', () => {
    expect(keeperTurn(initialKeeperState(T0), { now: T0, openEmergencies: 0 }, []).actions).toEqual(
      [],
    );
  });
});
