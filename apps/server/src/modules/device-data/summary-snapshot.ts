import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import { type Actor, scopeOf } from '@wearable/domain';
import type { CoreContext } from '../../core-context.js';
import { BUS_EVENTS, type BusEvents } from '../../engine/events.js';
import { summaryFragments, summaryOrder } from './device-data.repository.js';
import type { WearerScopeFilter } from '../../access/scope-sql.js';

/** One wearer of a snapshot: the scoping fields and the summary object as ready JSON text. */
export interface SnapshotEntry {
  uid: string;
  organizationId: string;
  groupId: string | null;
  name: string;
  groupName: string | null;
  json: string;
}

interface Snapshot {
  builtAt: number;
  generatedAt: string;
  entries: SnapshotEntry[];
  byId: Map<string, SnapshotEntry>;
  /** The unfiltered answer, joined and encoded on first use (organisation staff all ask for it). */
  whole?: Buffer;
  /** The same gzipped, once per snapshot; undefined until ready (never waited for). */
  wholeGzip?: Buffer;
  gzipping?: boolean;
}

/** The answer's bytes; `gzip` when they are gzip-encoded. */
export interface SnapshotAnswer {
  body: string | Buffer;
  gzip: boolean;
}

const gzipAsync = promisify(gzip);
/** Smaller answers are sent as they are: compressing them costs more than it saves. */
const GZIP_MIN_BYTES = 64 * 1024;

interface Slot {
  snap?: Snapshot;
  building?: Promise<Snapshot>;
  dirty: boolean;
  lastUsed: number;
}

const ALL = '*';
/** Wearers per rebuild query (a 10,000-wearer scope is rebuilt in 10 short queries). */
const REBUILD_CHUNK = 1000;
/** A scope nobody asked for in this long is dropped (memory of organisations no one watches). */
const IDLE_DROP_MS = 5 * 60_000;

export type Log = { error(obj: object, msg: string): void };

function parse(text: string): SnapshotEntry[] {
  if (!text) return [];
  return text.split('\n').map((line) => {
    const [uid = '', organizationId = '', groupId = '', name = '""', groupName = 'null'] =
      line.split('\t', 5);
    // The fragment is everything after the fifth tab (it holds none itself).
    let cut = -1;
    for (let i = 0; i < 5; i++) cut = line.indexOf('\t', cut + 1);
    return {
      uid,
      organizationId,
      groupId: groupId === '' ? null : groupId,
      name: JSON.parse(name) as string,
      groupName: JSON.parse(groupName) as string | null,
      json: line.slice(cut + 1),
    };
  });
}

/**
 * GET /v3/device/summary from memory: per organisation (and one for platform staff asking for
 * all), every wearer's summary serialised once by the database. A snapshot is rebuilt at most
 * every `summarySnapshotMs`, in the background while the current one is served (one rebuild at a
 * time), once a bus event marked it dirty; one older than `summaryMaxStaleMs` is never served.
 * Changes made by another server sharing the database are seen within that hard limit.
 */
export class SummarySnapshots {
  private readonly slots = new Map<string, Slot>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: Pick<CoreContext, 'bus' | 'now' | 'config' | 'db'>,
    private readonly log: Log,
  ) {
    const mark = (e: { organizationId: string }) => {
      for (const key of [e.organizationId, ALL]) {
        const slot = this.slots.get(key);
        if (slot) slot.dirty = true;
      }
    };
    const onAlert = (a: BusEvents['alert.opened']) => mark(a);
    const onWearer = (w: BusEvents['wearer.updated']) => mark(w);
    ctx.bus.on(BUS_EVENTS.alertOpened, onAlert);
    ctx.bus.on(BUS_EVENTS.alertClosed, onAlert);
    ctx.bus.on(BUS_EVENTS.wearerUpdated, onWearer);
    this.unsubscribe = () => {
      ctx.bus.off(BUS_EVENTS.alertOpened, onAlert);
      ctx.bus.off(BUS_EVENTS.alertClosed, onAlert);
      ctx.bus.off(BUS_EVENTS.wearerUpdated, onWearer);
    };
  }

  /**
   * The answer for this caller: the snapshot's fragments the caller may see, joined. The whole
   * scope's answer is kept encoded (and gzipped in the background, served so once ready).
   */
  async answer(
    actor: Actor,
    filter: WearerScopeFilter,
    acceptsGzip = false,
  ): Promise<SnapshotAnswer> {
    const key = this.keyOf(actor, filter);
    if (key === null)
      return {
        body: `{"generatedAt":"${this.ctx.now().toISOString()}","wearers":[]}`,
        gzip: false,
      };
    const snap = await this.current(key);
    const head = `{"generatedAt":"${snap.generatedAt}","wearers":[`;
    const visible = this.visibility(actor, filter);
    if (visible) {
      const parts: string[] = [];
      for (const e of snap.entries) if (visible(e)) parts.push(e.json);
      return { body: `${head}${parts.join(',')}]}`, gzip: false };
    }
    const whole = (snap.whole ??= Buffer.from(
      `${head}${snap.entries.map((e) => e.json).join(',')}]}`,
    ));
    if (acceptsGzip && snap.wholeGzip) return { body: snap.wholeGzip, gzip: true };
    if (acceptsGzip && whole.length >= GZIP_MIN_BYTES && !snap.gzipping) {
      snap.gzipping = true;
      gzipAsync(whole, { level: constants.Z_BEST_SPEED })
        .then((gz) => (snap.wholeGzip = gz))
        .catch((err: unknown) => this.log.error({ err }, 'summary gzip failed'));
    }
    return { body: whole, gzip: false };
  }

  /**
   * A wearer's name and group from the snapshots in memory (the live stream's alert frames).
   * Not limited by age: a rename reaches a live popup with the next rebuild of that scope.
   */
  namesOf(
    wearerId: string,
    organizationId: string,
  ): { name: string; groupId: string | null; groupName: string | null } | undefined {
    for (const key of [organizationId, ALL]) {
      const e = this.slots.get(key)?.snap?.byId.get(wearerId);
      if (e) return { name: e.name, groupId: e.groupId, groupName: e.groupName };
    }
    return undefined;
  }

  /** Builds the caller's snapshot ahead of need (a live client connected). */
  warm(actor: Actor): void {
    const key = this.keyOf(actor, {});
    if (key !== null)
      this.current(key).catch((err: unknown) => this.log.error({ err }, 'summary snapshot failed'));
  }

  /** Every scope is rebuilt before its next answer (the cross-server bus missed events). */
  markAllDirty(): void {
    for (const slot of this.slots.values()) slot.dirty = true;
  }

  close(): void {
    this.unsubscribe();
    this.slots.clear();
  }

  /** Which snapshot serves the caller; null when nothing can be visible. */
  private keyOf(actor: Actor, filter: WearerScopeFilter): string | null {
    const scope = scopeOf(actor);
    switch (scope.kind) {
      case 'platform':
        return filter.organizationId ?? ALL;
      case 'none':
        return null;
      case 'wearers':
        // A linked wearer may belong to any organisation.
        return filter.organizationId ?? actor.organizationId ?? ALL;
      case 'organization':
      case 'groups':
        if (filter.organizationId !== undefined && filter.organizationId !== scope.organizationId)
          return null;
        return scope.organizationId;
    }
  }

  /** wearerScope() in JS over a snapshot already narrowed to keyOf(); undefined = everything. */
  private visibility(
    actor: Actor,
    filter: WearerScopeFilter,
  ): ((e: SnapshotEntry) => boolean) | undefined {
    const tests: ((e: SnapshotEntry) => boolean)[] = [];
    const scope = scopeOf(actor);
    if (scope.kind === 'wearers') {
      const linked = new Set(scope.wearerIds);
      tests.push((e) => linked.has(e.uid));
    } else if (scope.kind === 'groups') {
      const managed = new Set(scope.groupIds);
      tests.push((e) => e.groupId !== null && managed.has(e.groupId));
    }
    const { groupId } = filter;
    if (groupId !== undefined) tests.push((e) => e.groupId === groupId);
    if (!tests.length) return undefined;
    return (e) => tests.every((t) => t(e));
  }

  private async current(key: string): Promise<Snapshot> {
    const now = performance.now();
    this.dropIdle(now);
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { dirty: true, lastUsed: now }));
    slot.lastUsed = now;
    const { summarySnapshotMs, summaryMaxStaleMs } = this.ctx.config;
    const snap = slot.snap;
    const age = snap ? now - snap.builtAt : Infinity;
    if (!snap || age >= summaryMaxStaleMs) return this.rebuild(key, slot);
    // A changed scope is rebuilt at most once per summarySnapshotMs, and the caller waits for it:
    // serving the old copy would show a page data far older than that when requests are sparse.
    if (slot.dirty && age >= summarySnapshotMs) return this.rebuild(key, slot);
    // Half-way to the hard limit (changes the bus does not announce, e.g. a rename): rebuilt in
    // the background while this copy is served.
    if (age >= summaryMaxStaleMs / 2) {
      this.rebuild(key, slot).catch((err: unknown) =>
        this.log.error({ err }, 'summary snapshot failed'),
      );
    }
    return snap;
  }

  /** Single flight: joins the rebuild under way, if any. */
  private rebuild(key: string, slot: Slot): Promise<Snapshot> {
    if (slot.building) return slot.building;
    slot.dirty = false;
    const at = this.ctx.now();
    const started = performance.now();
    const building = this.build(key, at)
      .then((entries) => {
        const snap: Snapshot = {
          builtAt: started,
          generatedAt: at.toISOString(),
          entries,
          byId: new Map(entries.map((e) => [e.uid, e])),
        };
        slot.snap = snap;
        return snap;
      })
      .catch((err: unknown) => {
        slot.dirty = true;
        throw err;
      })
      .finally(() => {
        slot.building = undefined;
      });
    slot.building = building;
    return building;
  }

  /** The scope's wearers in answer order: the order first, then the fragments in chunks. */
  private async build(key: string, at: Date): Promise<SnapshotEntry[]> {
    const order = await summaryOrder(this.ctx.db, key === ALL ? undefined : key);
    const byId = new Map<string, SnapshotEntry>();
    for (let i = 0; i < order.length; i += REBUILD_CHUNK) {
      const text = await summaryFragments(this.ctx.db, order.slice(i, i + REBUILD_CHUNK), at);
      for (const e of parse(text)) byId.set(e.uid, e);
    }
    // A wearer removed between the two steps is left out; one added appears next time.
    return order.flatMap((id) => byId.get(id) ?? []);
  }

  private dropIdle(now: number): void {
    for (const [key, slot] of this.slots) {
      if (now - slot.lastUsed > IDLE_DROP_MS && !slot.building) this.slots.delete(key);
    }
  }
}
