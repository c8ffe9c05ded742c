import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the caller tells the database queue about the work it is about to do. `keys` are the
 * wearers whose engine inputs it applies: urgent work never overtakes queued work on the same
 * wearer, so each wearer's inputs still reach the engine in the order they arrived.
 */
export interface LaneHint {
  urgent: boolean;
  keys?: readonly string[];
}

// Not app state: the hint travels with each async call chain (withLaneHint) and goes with it.
const hints = new AsyncLocalStorage<LaneHint>();

/** Runs fn with the hint attached to every database call it makes (through async calls too). */
export function withLaneHint<T>(hint: LaneHint, fn: () => Promise<T>): Promise<T> {
  return hints.run(hint, fn);
}

export function currentLaneHint(): LaneHint | undefined {
  return hints.getStore();
}

interface Job {
  urgent: boolean;
  keys: ReadonlySet<string> | null;
  start: () => void;
}

const shares = (a: Job, b: Job) => {
  if (!a.keys || !b.keys) return false;
  for (const k of b.keys) if (a.keys.has(k)) return true;
  return false;
};

/**
 * One job at a time, two priorities. PGlite is one connection whose own mutex is FIFO: a
 * gateway's SOS batch would wait behind every reading batch already queued. Queued here
 * instead, an urgent job goes after the other urgent jobs and after the last queued job that
 * shares a key with it, i.e. in front of every unrelated normal job.
 */
export class PriorityLane {
  private readonly queue: Job[] = [];
  private running = false;
  /** Between two jobs: the next one starts after a turn of the event loop (see the job's finally). */
  private yielding = false;

  /** Jobs waiting plus the one running. */
  get depth(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  run<T>(fn: () => Promise<T>, hint: LaneHint | undefined = currentLaneHint()): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        urgent: hint?.urgent ?? false,
        keys: hint?.keys?.length ? new Set(hint.keys) : null,
        start: () => {
          // Never fn() directly: a synchronous throw would leave the lane marked running.
          Promise.resolve()
            .then(fn)
            .then(resolve, reject)
            .finally(() => {
              this.running = false;
              // The next job after a turn of the event loop, not in this microtask chain: PGlite answers
              // without I/O, so jobs queued (or queued at once by the one that ended, like the next chunk
              // of a flush) would run back to back in one macrotask, and a request that has just arrived
              // (an SOS) could not even be read, let alone queue in front, until they were all done.
              this.yielding = true;
              setImmediate(() => {
                this.yielding = false;
                this.next();
              });
            });
        },
      };
      this.enqueue(job);
      this.next();
    });
  }

  private enqueue(job: Job): void {
    if (!job.urgent) {
      this.queue.push(job);
      return;
    }
    let at = 0;
    this.queue.forEach((q, i) => {
      if (q.urgent || shares(q, job)) at = i + 1;
    });
    this.queue.splice(at, 0, job);
  }

  private next(): void {
    if (this.running || this.yielding) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = true;
    job.start();
  }
}

/**
 * PostgreSQL's counterpart of the lane's priority: the database has many connections, but the
 * server has one event loop and shares the machine's cores with the database. Near capacity,
 * every turn of an SOS batch (a statement's answer, the engine, the commit) waited behind the
 * turns of every reading batch in flight: p99 645 ms at 80 % of the machine (bench/alert-latency).
 * While urgent work is in flight, normal work waits before each statement it sends, so the
 * database and the event loop serve the urgent work first. The wait is bounded (`maxWaitMs`): a
 * stream of urgent work delays normal work, never stops it. Normal work on a wearer the urgent
 * work also applies inputs to (`keys`) never waits: it may hold that wearer's lock, which the
 * urgent work then waits for (the lane's rule: urgent work never overtakes work on its wearers).
 */
export class UrgentGate {
  private readonly inFlight = new Set<ReadonlySet<string> | null>();
  private waiters: (() => void)[] = [];

  constructor(private readonly maxWaitMs: number) {}

  /** Urgent work in flight now. */
  get held(): number {
    return this.inFlight.size;
  }

  async hold<T>(fn: () => Promise<T>, keys?: readonly string[]): Promise<T> {
    // One entry per call, even with no keys (a fresh set each time).
    const entry: ReadonlySet<string> = new Set(keys);
    this.inFlight.add(entry);
    try {
      return await fn();
    } finally {
      this.inFlight.delete(entry);
      if (this.inFlight.size === 0) this.release();
    }
  }

  /**
   * Undefined (go on at once) when no urgent work is in flight or some shares one of `keys`;
   * else a promise that resolves when it has all ended, or after maxWaitMs.
   */
  pass(keys?: readonly string[]): Promise<void> | undefined {
    if (this.inFlight.size === 0) return undefined;
    if (keys?.length)
      for (const held of this.inFlight) for (const k of keys) if (held?.has(k)) return undefined;
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== go);
        resolve();
      }, this.maxWaitMs);
      this.waiters.push(go);
    });
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const go of waiters) go();
  }
}
