import type { CoreContext } from '../../core-context.js';
import { BUS_EVENTS, type BusEvents } from '../../engine/events.js';
import { SqlParams, SYSTEM_ACTOR, wearerScope } from '../../access/scope-sql.js';
import { type MapWearerRow, placesRepository } from './places.repository.js';

interface Slot {
  /** Every wearer of the organisation with their stored place, by id. */
  rows?: Map<string, MapWearerRow>;
  /** A whole read under way. */
  building?: Promise<void>;
  /** A patch under way. */
  patching?: Promise<void>;
  /** Changes no event named one by one (the cross-server bus missed some): read it all again. */
  dirty: boolean;
  /** Wearers an event named since their rows were read. */
  changed: Set<string>;
  /** Changes events announced to this organisation so far (counted). */
  marks: number;
  /** How many of `marks` the rows hold: every one announced before their read began. */
  covered: number;
  /** When the whole organisation was last read (performance.now()). */
  readAt: number;
  lastUsed: number;
}

/** More changed wearers than this at once: the organisation is read whole instead of patched. */
const PATCH_MAX = 2000;
/** An organisation nobody asked for in this long is dropped (memory of maps no one watches). */
const IDLE_DROP_MS = 5 * 60_000;

export type Log = { error(obj: object, msg: string): void };

/**
 * /map's rows from memory (issue 17: 10,000 wearers within 1.5 s; an open map refetches at most
 * once a second while readings arrive): per organisation, every wearer with their name, group and
 * stored place state, read whole once. `wearer.updated` names a changed wearer (a new reading or
 * place, which the ingestion announces after its commit; a rename, a move, a new or removed wearer;
 * another server's through the cross-server bus), and the next request reads only those rows again
 * (the open alerts, few, are read with each answer). Every answer holds every change announced before it (the page refetches on those
 * announcements). Changes no event announces (an operator's SQL) show after the background whole
 * read, once the last is `summaryMaxStaleMs` old, as the device summary's (decision 0006).
 */
export class PlaceSnapshots {
  private readonly slots = new Map<string, Slot>();
  private readonly unsubscribe: () => void;
  /** Whole reads and patches since start (tests). */
  readonly counts = { wholeReads: 0, patches: 0 };

  constructor(
    private readonly ctx: Pick<CoreContext, 'bus' | 'config' | 'db'>,
    private readonly log: Log,
  ) {
    const onWearer = (w: BusEvents['wearer.updated']) => this.mark(w);
    ctx.bus.on(BUS_EVENTS.wearerUpdated, onWearer);
    this.unsubscribe = () => ctx.bus.off(BUS_EVENTS.wearerUpdated, onWearer);
  }

  /**
   * Every wearer of the organisation with their stored place (the caller narrows them to its
   * scope), holding every change announced before this call. The array is the caller's.
   */
  async rowsOf(organizationId: string): Promise<MapWearerRow[]> {
    const now = performance.now();
    this.dropIdle(now);
    let slot = this.slots.get(organizationId);
    if (!slot) {
      slot = { dirty: true, changed: new Set(), marks: 0, covered: 0, readAt: 0, lastUsed: now };
      this.slots.set(organizationId, slot);
    }
    slot.lastUsed = now;
    const want = slot.marks;
    // Until the rows hold every change announced before this call: each pass waits for a read under
    // way (at most one whole read and one patch began before this call) or makes one that begins
    // after it. The bound only guards against a mistake here.
    for (let pass = 0; ; pass++) {
      const rows = slot.rows;
      if (rows && !slot.dirty && (slot.covered >= want || pass >= 4)) {
        if (
          now - slot.readAt >= this.ctx.config.summaryMaxStaleMs &&
          !slot.building &&
          !slot.patching
        )
          this.rebuild(organizationId, slot).catch((err: unknown) =>
            this.log.error({ err }, 'place snapshot failed'),
          );
        return [...rows.values()];
      }
      if (slot.building) await slot.building;
      else if (slot.patching) await slot.patching;
      else if (!rows || slot.dirty) await this.rebuild(organizationId, slot);
      else {
        slot.patching = this.patch(organizationId, slot).finally(() => {
          slot.patching = undefined;
        });
        await slot.patching;
      }
    }
  }

  /** These wearers' rows are read again before the next answer (a batch wrote their places). */
  changed(organizationId: string, wearerIds: readonly string[]): void {
    for (const wearerId of wearerIds) this.mark({ organizationId, wearerId });
  }

  /** Every organisation is read whole before its next answer (the cross-server bus missed events). */
  markAllDirty(): void {
    for (const slot of this.slots.values()) slot.dirty = true;
  }

  close(): void {
    this.unsubscribe();
    this.slots.clear();
  }

  /** Single flight: joins the whole read under way, if any. */
  private rebuild(organizationId: string, slot: Slot): Promise<void> {
    if (slot.building) return slot.building;
    slot.dirty = false;
    // What events name from now on may have been read before it changed: patched afterwards.
    slot.changed.clear();
    const covers = slot.marks;
    const started = performance.now();
    this.counts.wholeReads++;
    const p = new SqlParams();
    const scope = wearerScope(SYSTEM_ACTOR, p, { organizationId });
    slot.building = placesRepository(this.ctx.db)
      .mapWearers(scope, p.values)
      .then((rows) => {
        slot.rows = new Map(rows.map((r) => [r.wearerId, r]));
        slot.readAt = started;
        slot.covered = Math.max(slot.covered, covers);
      })
      .catch((err: unknown) => {
        slot.dirty = true;
        throw err;
      })
      .finally(() => {
        slot.building = undefined;
      });
    return slot.building;
  }

  /** The named wearers read again: changed, added, or gone (deleted, or moved out). */
  private async patch(organizationId: string, slot: Slot): Promise<void> {
    const ids = [...slot.changed];
    const covers = slot.marks;
    slot.changed.clear();
    this.counts.patches++;
    try {
      const p = new SqlParams();
      const scope = wearerScope(SYSTEM_ACTOR, p, { organizationId, wearerIds: ids });
      const read = await placesRepository(this.ctx.db).mapWearers(scope, p.values);
      const rows = slot.rows;
      if (!rows) return;
      for (const id of ids) rows.delete(id);
      for (const r of read) rows.set(r.wearerId, r);
      slot.covered = Math.max(slot.covered, covers);
    } catch (err) {
      for (const id of ids) slot.changed.add(id);
      throw err;
    }
  }

  private mark(e: { organizationId: string; wearerId: string }): void {
    const slot = this.slots.get(e.organizationId);
    if (!slot) return;
    slot.marks++;
    if (slot.changed.size < PATCH_MAX) slot.changed.add(e.wearerId);
    else slot.dirty = true;
  }

  private dropIdle(now: number): void {
    for (const [key, slot] of this.slots) {
      if (now - slot.lastUsed > IDLE_DROP_MS && !slot.building) this.slots.delete(key);
    }
  }
}
