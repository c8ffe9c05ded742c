import { describe, expect, it, vi } from 'vitest';
import { PriorityLane, UrgentGate, withLaneHint } from './priority-lane.js';

/** A job that records its start and finishes when released. */
function gated(
  lane: PriorityLane,
  log: string[],
  name: string,
  hint?: { urgent: boolean; keys?: string[] },
) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  const result = lane.run(async () => {
    log.push(name);
    await done;
    return name;
  }, hint);
  return { release, result };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('PriorityLane', () => {
  it('runs one job at a time, urgent ones before already queued normal ones', async () => {
    const lane = new PriorityLane();
    const log: string[] = [];
    const first = gated(lane, log, 'running');
    const n1 = gated(lane, log, 'normal-1', { urgent: false, keys: ['a'] });
    const n2 = gated(lane, log, 'normal-2');
    const u1 = gated(lane, log, 'urgent-1', { urgent: true, keys: ['b'] });
    const u2 = gated(lane, log, 'urgent-2', { urgent: true });
    await tick();
    expect(log).toEqual(['running']);
    expect(lane.depth).toBe(5);
    for (const job of [first, u1, u2, n1, n2]) {
      job.release();
      await job.result;
      await tick();
    }
    expect(log).toEqual(['running', 'urgent-1', 'urgent-2', 'normal-1', 'normal-2']);
    expect(lane.depth).toBe(0);
  });

  it('never lets urgent work overtake queued work on the same wearer (engine input order)', async () => {
    const lane = new PriorityLane();
    const log: string[] = [];
    const first = gated(lane, log, 'running');
    const other = gated(lane, log, 'readings-x', { urgent: false, keys: ['x'] });
    const same = gated(lane, log, 'readings-w', { urgent: false, keys: ['w', 'y'] });
    const later = gated(lane, log, 'readings-z', { urgent: false, keys: ['z'] });
    const sos = gated(lane, log, 'sos-w', { urgent: true, keys: ['w'] });
    for (const job of [first, other, same, sos, later]) {
      await tick();
      job.release();
      await job.result;
    }
    expect(log).toEqual(['running', 'readings-x', 'readings-w', 'sos-w', 'readings-z']);
  });

  it('takes the hint from withLaneHint, and a failing job does not block the lane', async () => {
    const lane = new PriorityLane();
    const log: string[] = [];
    const first = gated(lane, log, 'running');
    const normal = gated(lane, log, 'normal');
    const failing = lane.run(() => {
      throw new Error('boom');
    });
    let urgent: ReturnType<typeof gated> | undefined;
    await withLaneHint({ urgent: true }, async () => {
      urgent = gated(lane, log, 'urgent');
    });
    first.release();
    await tick();
    await tick();
    expect(log).toEqual(['running', 'urgent']);
    urgent?.release();
    normal.release();
    expect(await normal.result).toBe('normal');
    await expect(failing).rejects.toThrow('boom');
    expect(log).toEqual(['running', 'urgent', 'normal']);
  });

  it('lets the event loop turn between two jobs, so work that arrives meanwhile (an SOS request) goes first', async () => {
    // PGlite answers without I/O: without the turn, the next queued job started in the same microtask chain
    // and a request that had arrived could not be read until the whole queue was done.
    const lane = new PriorityLane();
    const log: string[] = [];
    const first = gated(lane, log, 'running');
    const queued = gated(lane, log, 'queued-normal');
    let sos: ReturnType<typeof gated> | undefined;
    first.release();
    // Stands for an I/O callback that is ready while the first job ends.
    setImmediate(() => (sos = gated(lane, log, 'sos', { urgent: true })));
    await tick();
    await tick();
    expect(log).toEqual(['running', 'sos']);
    sos?.release();
    queued.release();
    await queued.result;
    expect(log).toEqual(['running', 'sos', 'queued-normal']);
  });
});

describe('UrgentGate', () => {
  /** Urgent work that runs until released. */
  const held = (gate: UrgentGate, keys?: string[]) => {
    let release!: () => void;
    const done = gate.hold(() => new Promise<void>((r) => (release = r)), keys);
    return { release: () => release(), done };
  };

  it('lets normal work through at once when no urgent work runs', () => {
    expect(new UrgentGate(1_000).pass()).toBeUndefined();
  });

  it('holds normal work until every urgent job has ended', async () => {
    const gate = new UrgentGate(60_000);
    const [a, b] = [held(gate), held(gate)];
    let passed = false;
    void gate.pass()?.then(() => (passed = true));
    a.release();
    await a.done;
    await tick();
    expect(passed).toBe(false);
    b.release();
    await b.done;
    await tick();
    expect(passed).toBe(true);
    expect(gate.held).toBe(0);
  });

  it('never holds work on a wearer the urgent work applies inputs to (it may hold the lock the urgent work waits for)', () => {
    const gate = new UrgentGate(60_000);
    const sos = held(gate, ['w1']);
    expect(gate.pass(['w2', 'w1'])).toBeUndefined();
    expect(gate.pass(['w2'])).toBeInstanceOf(Promise);
    sos.release();
  });

  it('holds normal work at most maxWaitMs: a stream of urgent work delays it, never stops it', async () => {
    vi.useFakeTimers();
    try {
      const gate = new UrgentGate(200);
      const stuck = held(gate);
      let passed = false;
      void gate.pass()?.then(() => (passed = true));
      await vi.advanceTimersByTimeAsync(199);
      expect(passed).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(passed).toBe(true);
      stuck.release();
      await stuck.done;
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends its hold when the urgent work fails', async () => {
    const gate = new UrgentGate(60_000);
    await expect(gate.hold(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.held).toBe(0);
    expect(gate.pass()).toBeUndefined();
  });
});
