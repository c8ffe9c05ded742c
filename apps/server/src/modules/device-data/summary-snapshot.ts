import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import { type Actor, SUMMARY_COLUMNS, type SummaryFormat, scopeOf } from '@wearable/domain';
import type { CoreContext } from '../../core-context.js';
import { BUS_EVENTS, type BusEvents } from '../../engine/events.js';
import { summaryFragments, summaryOrder } from './device-data.repository.js';
import type { WearerScopeFilter } from '../../access/scope-sql.js';

/** One wearer of a snapshot: the scoping fields and the summary as ready JSON text, in both forms. */
export interface SnapshotEntry {
  uid: string;
  organizationId: string;
  groupId: string | null;
  name: string;
  groupName: string | null;
  /** The wearer's summary object (format=rows). */
  json: string;
  /** The same as an array in SUMMARY_COLUMNS order (format=columns). */
  row: string;
}

/** One encoded answer of a snapshot: the bytes, their ETag and, once ready, their gzip. */
interface Encoded {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  gzipping?: boolean;
}

interface Snapshot {
  /** Distinguishes this snapshot's answers from every other's (the ETag). */
  version: number;
  builtAt: number;
  generatedAt: string;
  entries: SnapshotEntry[];
  byId: Map<string, SnapshotEntry>;
  /**
   * Answers already encoded, by form and by who may see what: a request joins nothing and
   * serialises nothing once its kind of caller has asked (organisation staff all share one).
   */
  answers: Map<string, Encoded>;
}

/** The answer's bytes; `gzip` when they are gzip-encoded; `etag` names the bytes before encoding. */
export interface SnapshotAnswer {
  body: string | Buffer;
  gzip: boolean;
  etag?: string;
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
/**
 * Wearers per rebuild query. On PGlite a query holds the server's thread: a 10,000-wearer scope
 * rebuilt in 40 short queries lets the requests arriving meanwhile be answered between them
 * (1,000 per query held each for long enough to be most of the summary's p95).
 */
const REBUILD_CHUNK = 250;
/** A scope nobody asked for in this long is dropped (memory of organisations no one watches). */
const IDLE_DROP_MS = 5 * 60_000;
/** Encoded answers kept per snapshot (kinds of caller: the organisation, each group manager...). */
const ANSWERS_PER_SNAPSHOT = 64;
const COLUMNS_HEAD = JSON.stringify(SUMMARY_COLUMNS);

export type Log = { error(obj: object, msg: string): void };

function parse(text: string): SnapshotEntry[] {
  if (!text) return [];
  return text.split('\n').map((line) => {
    // JSON text holds no raw tab: every field is one column.
    const [
      uid = '',
      organizationId = '',
      groupId = '',
      name = '""',
      groupName = 'null',
      json = '',
      row = '',
    ] = line.split('\t', 7);
    return {
      uid,
      organizationId,
      groupId: groupId === '' ? null : groupId,
      name: JSON.parse(name) as string,
      groupName: JSON.parse(groupName) as string | null,
      json,
      row,
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
  /** This process's mark in ETags (another server's snapshot number 7 is not ours). */
  private readonly instance = randomBytes(6).toString('base64url');
  private versions = 0;
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
   * The answer for this caller: the snapshot's wearers the caller may see, in the asked form.
   * Encoded once per snapshot and kind of caller (and gzipped in the background, served so once
   * ready); later requests get the same bytes. `etag` lets a client that has them get a 304.
   */
  async answer(
    actor: Actor,
    filter: WearerScopeFilter,
    acceptsGzip = false,
    format: SummaryFormat = 'rows',
  ): Promise<SnapshotAnswer> {
    const key = this.keyOf(actor, filter);
    if (key === null) {
      const at = this.ctx.now().toISOString();
      const body =
        format === 'columns'
          ? `{"generatedAt":"${at}","columns":${COLUMNS_HEAD},"rows":[]}`
          : `{"generatedAt":"${at}","wearers":[]}`;
      return { body, gzip: false };
    }
    const snap = await this.current(key);
    const { test, signature } = this.visibility(actor, filter);
    const answerKey = `${format}|${signature}`;
    let encoded = snap.answers.get(answerKey);
    if (!encoded) {
      const head =
        format === 'columns'
          ? `{"generatedAt":"${snap.generatedAt}","columns":${COLUMNS_HEAD},"rows":[`
          : `{"generatedAt":"${snap.generatedAt}","wearers":[`;
      const parts: string[] = [];
      for (const e of snap.entries)
        if (!test || test(e)) parts.push(format === 'columns' ? e.row : e.json);
      const tag = createHash('sha1').update(`${key}|${answerKey}`).digest('base64url').slice(0, 12);
      encoded = {
        body: Buffer.from(`${head}${parts.join(',')}]}`),
        etag: `W/"${this.instance}.${snap.version}.${tag}"`,
      };
      if (snap.answers.size >= ANSWERS_PER_SNAPSHOT) snap.answers.clear();
      snap.answers.set(answerKey, encoded);
    }
    if (acceptsGzip && encoded.gzip) return { body: encoded.gzip, gzip: true, etag: encoded.etag };
    if (acceptsGzip && encoded.body.length >= GZIP_MIN_BYTES && !encoded.gzipping) {
      const target = encoded;
      target.gzipping = true;
      gzipAsync(target.body, { level: constants.Z_BEST_SPEED })
        .then((gz) => (target.gzip = gz))
        .catch((err: unknown) => this.log.error({ err }, 'summary gzip failed'));
    }
    return { body: encoded.body, gzip: false, etag: encoded.etag };
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

  /**
   * wearerScope() in JS over a snapshot already narrowed to keyOf(): the test (undefined =
   * everything) and a signature naming it, the same for every caller who sees the same wearers.
   */
  private visibility(
    actor: Actor,
    filter: WearerScopeFilter,
  ): { test?: (e: SnapshotEntry) => boolean; signature: string } {
    const tests: ((e: SnapshotEntry) => boolean)[] = [];
    const names: string[] = [];
    const scope = scopeOf(actor);
    if (scope.kind === 'wearers') {
      const linked = new Set(scope.wearerIds);
      tests.push((e) => linked.has(e.uid));
      names.push(`w:${[...linked].sort().join(',')}`);
    } else if (scope.kind === 'groups') {
      const managed = new Set(scope.groupIds);
      tests.push((e) => e.groupId !== null && managed.has(e.groupId));
      names.push(`g:${[...managed].sort().join(',')}`);
    }
    const { groupId } = filter;
    if (groupId !== undefined) {
      tests.push((e) => e.groupId === groupId);
      names.push(`f:${groupId}`);
    }
    if (!tests.length) return { signature: '*' };
    return { test: (e) => tests.every((t) => t(e)), signature: names.join('|') };
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
          version: ++this.versions,
          builtAt: started,
          generatedAt: at.toISOString(),
          entries,
          byId: new Map(entries.map((e) => [e.uid, e])),
          answers: new Map(),
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
