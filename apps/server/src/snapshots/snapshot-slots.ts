/**
 * What one kind of snapshot reads from the database: a key (an organisation, or every one) whole,
 * or a few named wearers into the snapshot it has.
 */
export interface SnapshotReads<S> {
  /** The key read whole. */
  whole(key: string): Promise<S>;
  /**
   * The snapshot with these wearers read again (changed, added or gone), built on `latest()`
   * (the newest snapshot once the rows are read: a whole read may have finished meanwhile); or
   * `READ_WHOLE` when the change needs the key read whole instead. `ids` may grow (with what
   * else this kind finds due).
   */
  patch(key: string, ids: Set<string>, latest: () => S): Promise<S | typeof READ_WHOLE>;
}

/** A patch's answer that the key must be read whole (a rename moves a wearer in the name order). */
export const READ_WHOLE = Symbol('read whole');

export interface Slot<S> {
  snap?: S;
  /** A whole read under way. */
  building?: Promise<S>;
  /** A patch under way. */
  patching?: Promise<S>;
  /** Changes no event named one by one (the cross-server bus missed some): read it all again. */
  dirty: boolean;
  /** Wearers an event named since the snapshot was read or patched. */
  changed: Set<string>;
  /** Wearers named while a whole read was under way (it may have read them before the change). */
  changedWhileBuilding?: Set<string>;
  /** Changes events announced for this key so far (counted). */
  marks: number;
  /** How many of `marks` the snapshot holds: every one announced before its read began. */
  covered: number;
  /** When the key was last read whole (performance.now()); patches keep it. */
  readAt: number;
  lastUsed: number;
}

export type Log = { error(obj: object, msg: string): void };

/** More changed wearers than this at once: the key is read whole instead of patched. */
const PATCH_MAX = 2000;
/** A key nobody asked for in this long is dropped (memory of organisations no one watches). */
const IDLE_DROP_MS = 5 * 60_000;

/**
 * The part the summary and map snapshots share (decision 0006): per key, a snapshot read whole
 * once, the wearers events name since then read again before an answer that must hold them, one
 * whole read and one patch at a time (requests join the one under way), a count of the changes
 * announced and of those the snapshot holds (so an answer can hold every change announced before
 * its request), the whole key read again after a missed cross-server message, and in the
 * background once the last whole read is `maxStaleMs()` old (changes no event announces).
 */
export class SnapshotSlots<S> {
  private readonly slots = new Map<string, Slot<S>>();
  /** Whole reads and patches since start (tests, metrics). */
  readonly counts = { wholeReads: 0, patches: 0 };

  constructor(
    private readonly reads: SnapshotReads<S>,
    private readonly maxStaleMs: () => number,
    private readonly log: Log,
    /** What the log says failed. */
    private readonly what: string,
  ) {}

  /** Age in ms of the oldest snapshot held (since its last whole read; 0 when none is held). */
  oldestReadAgeMs(): number {
    const now = performance.now();
    let oldest = 0;
    for (const s of this.slots.values())
      if (s.snap !== undefined) oldest = Math.max(oldest, now - s.readAt);
    return oldest;
  }

  /** The key's slot, made on first use; keys idle for IDLE_DROP_MS are dropped. */
  slot(key: string): Slot<S> {
    const now = performance.now();
    for (const [k, s] of this.slots) {
      if (now - s.lastUsed > IDLE_DROP_MS && !s.building) this.slots.delete(k);
    }
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { dirty: true, changed: new Set(), marks: 0, covered: 0, readAt: 0, lastUsed: now };
      this.slots.set(key, slot);
    }
    slot.lastUsed = now;
    return slot;
  }

  /** The key's snapshot as it is, if any (no read). */
  peek(key: string): S | undefined {
    return this.slots.get(key)?.snap;
  }

  /**
   * Puts `next` in place of `held`, unless the key's snapshot has changed meanwhile (a snapshot
   * derived from the held one without a read: the summary's at a later time).
   */
  replace(key: string, held: S, next: S): void {
    const slot = this.slots.get(key);
    if (slot?.snap === held) slot.snap = next;
  }

  /** An event named this wearer as changed in this key (nothing to do for a key nobody reads). */
  mark(key: string, wearerId: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    slot.changedWhileBuilding?.add(wearerId);
    slot.marks++;
    if (slot.changed.size < PATCH_MAX) slot.changed.add(wearerId);
    else slot.dirty = true;
  }

  /** Every key is read whole before its next answer (the cross-server bus missed events). */
  markAllDirty(): void {
    for (const slot of this.slots.values()) slot.dirty = true;
  }

  clear(): void {
    this.slots.clear();
  }

  /** The snapshot with every change announced before this call. */
  async settled(key: string): Promise<S> {
    const slot = this.slot(key);
    const want = slot.marks;
    // Each pass waits for a read under way (at most one whole read and one patch began before this
    // call) or makes one that begins after it; the bound only guards against a mistake here.
    for (let pass = 0; ; pass++) {
      const snap = slot.snap;
      if (snap && !slot.dirty && (slot.covered >= want || pass >= 4)) {
        this.refreshIfStale(key, slot);
        return snap;
      }
      if (slot.building) await slot.building;
      else if (slot.patching) await slot.patching;
      else if (!snap || slot.dirty) await this.rebuild(key, slot);
      else await this.patch(key, slot);
    }
  }

  /**
   * Reads the key whole in the background, after this turn, once the last whole read is
   * `maxStaleMs()` old (changes no event announces: an operator's SQL).
   */
  refreshIfStale(key: string, slot: Slot<S>): void {
    if (slot.building || performance.now() - slot.readAt < this.maxStaleMs()) return;
    setImmediate(() => {
      if (slot.building) return;
      this.rebuild(key, slot).catch((err: unknown) =>
        this.log.error({ err }, `${this.what} failed`),
      );
    });
  }

  /** Single flight: joins the whole read under way, if any. */
  rebuild(key: string, slot: Slot<S>): Promise<S> {
    if (slot.building) return slot.building;
    slot.dirty = false;
    // What events name from now on may have been read before it changed: patched afterwards.
    const during = new Set<string>();
    slot.changedWhileBuilding = during;
    slot.changed.clear();
    const covers = slot.marks;
    const started = performance.now();
    this.counts.wholeReads++;
    const building = this.reads
      .whole(key)
      .then((snap) => {
        slot.snap = snap;
        slot.readAt = started;
        slot.covered = Math.max(slot.covered, covers);
        return snap;
      })
      .catch((err: unknown) => {
        slot.dirty = true;
        throw err;
      })
      .finally(() => {
        slot.building = undefined;
        slot.changedWhileBuilding = undefined;
        for (const id of during) slot.changed.add(id);
      });
    slot.building = building;
    return building;
  }

  /** Single flight: the named wearers read again into the snapshot (which must exist). */
  patch(key: string, slot: Slot<S>): Promise<S> {
    slot.patching ??= this.patchNamed(key, slot).finally(() => {
      slot.patching = undefined;
    });
    return slot.patching;
  }

  private async patchNamed(key: string, slot: Slot<S>): Promise<S> {
    const ids = new Set(slot.changed);
    const covers = slot.marks;
    slot.changed.clear();
    this.counts.patches++;
    const first = slot.snap;
    if (first === undefined) throw new Error(`${this.what}: patch without a snapshot`);
    try {
      const next = await this.reads.patch(key, ids, () => slot.snap ?? first);
      if (next === READ_WHOLE) return await this.rebuild(key, slot);
      slot.snap = next;
      slot.covered = Math.max(slot.covered, covers);
      return next;
    } catch (err) {
      for (const id of ids) slot.changed.add(id);
      throw err;
    }
  }
}
