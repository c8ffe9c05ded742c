import type { CoreContext } from '../../core-context.js';
import { BUS_EVENTS, type BusEvents } from '../../bus/events.js';
import { SqlParams, SYSTEM_ACTOR, wearerScope } from '../../access/scope-sql.js';
import { type MapWearerRow, placesRepository } from './places.repository.js';
import { type Log, SnapshotSlots } from '../../snapshots/snapshot-slots.js';

/**
 * /map's rows from memory (issue 17: 10,000 wearers within 1.5 s; an open map refetches at most
 * once a second while readings arrive): per organisation, every wearer with their name, group and
 * stored place state, read whole once. `wearer.updated` names a changed wearer (a new reading or
 * place, which the ingestion announces after its commit; a rename, a move, a new or removed wearer;
 * another server's through the cross-server bus), and the next request reads only those rows again
 * (the open alerts, few, are read with each answer). Every answer holds every change announced
 * before it (the page refetches on those announcements). Changes no event announces (an operator's
 * SQL) show after the background whole read, once the last is `summaryMaxStaleMs` old. The slots,
 * marks and single-flight reads are the device summary's (`snapshots/snapshot-slots.ts`).
 */
export class PlaceSnapshots {
  private readonly slots: SnapshotSlots<Map<string, MapWearerRow>>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: Pick<CoreContext, 'bus' | 'config' | 'db'>,
    log: Log,
  ) {
    this.slots = new SnapshotSlots(
      {
        whole: async (organizationId) => {
          const p = new SqlParams();
          const scope = wearerScope(SYSTEM_ACTOR, p, { organizationId });
          const rows = await placesRepository(this.ctx.db).mapWearers(scope, p.values);
          return new Map(rows.map((r) => [r.wearerId, r]));
        },
        // The named wearers read again: changed, added, or gone (deleted, or moved out).
        patch: async (organizationId, ids, latest) => {
          const wearerIds = [...ids];
          const p = new SqlParams();
          const scope = wearerScope(SYSTEM_ACTOR, p, { organizationId, wearerIds });
          const read = await placesRepository(this.ctx.db).mapWearers(scope, p.values);
          const rows = latest();
          for (const id of wearerIds) rows.delete(id);
          for (const r of read) rows.set(r.wearerId, r);
          return rows;
        },
      },
      () => ctx.config.summaryMaxStaleMs,
      log,
      'place snapshot',
    );
    const onWearer = (w: BusEvents['wearer.updated']) =>
      this.slots.mark(w.organizationId, w.wearerId);
    ctx.bus.on(BUS_EVENTS.wearerUpdated, onWearer);
    this.unsubscribe = () => ctx.bus.off(BUS_EVENTS.wearerUpdated, onWearer);
  }

  /** Whole reads and patches since start (tests). */
  get counts(): { wholeReads: number; patches: number } {
    return this.slots.counts;
  }

  /**
   * Every wearer of the organisation with their stored place (the caller narrows them to its
   * scope), holding every change announced before this call. The array is the caller's.
   */
  async rowsOf(organizationId: string): Promise<MapWearerRow[]> {
    return [...(await this.slots.settled(organizationId)).values()];
  }

  /** These wearers' rows are read again before the next answer (a batch wrote their places). */
  changed(organizationId: string, wearerIds: readonly string[]): void {
    for (const wearerId of wearerIds) this.slots.mark(organizationId, wearerId);
  }

  /** Every organisation is read whole before its next answer (the cross-server bus missed events). */
  markAllDirty(): void {
    this.slots.markAllDirty();
  }

  close(): void {
    this.unsubscribe();
    this.slots.clear();
  }
}
