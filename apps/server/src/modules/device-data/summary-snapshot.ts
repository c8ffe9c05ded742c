import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import { type Actor, SUMMARY_COLUMNS, type SummaryFormat, scopeOf } from '@wearable/domain';
import type { CoreContext } from '../../core-context.js';
import { BUS_EVENTS, type BusEvents } from '../../engine/events.js';
import { deviceDataRepository } from './device-data.repository.js';
import { type WearerScopeFilter, wearerScopeInMemory } from '../../access/scope-sql.js';

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
  /** Until when (epoch ms) `connection` says online; null when it says offline whatever the time. */
  onlineUntil: number | null;
}

/** One encoded answer of a snapshot: the bytes, their ETag and their gzip (made once, shared). */
interface Encoded {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  /** The gzip under way; null when it failed (the plain bytes are served). */
  gzipping?: Promise<Buffer | null>;
}

interface Snapshot {
  /** Distinguishes this snapshot's answers from every other's (the ETag). */
  version: number;
  /** When it was built or last patched (performance.now()). */
  builtAt: number;
  /** When the whole scope was last read (performance.now()); patches keep it. */
  readAt: number;
  /** The time its `connection` values hold for (epoch ms, as generatedAt). */
  at: number;
  /** The earliest `onlineUntil` at or after `at`: before it, no wearer went offline by the clock. */
  nextOffline: number;
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

/** How a caller asks for the summary. */
export interface AnswerOptions {
  /** The client accepts a gzip-encoded answer. */
  acceptsGzip?: boolean;
  format?: SummaryFormat;
  /** Every change announced before this call is in the answer, however recent the last read. */
  settled?: boolean;
}

const gzipAsync = promisify(gzip);
/** Smaller answers are sent as they are: compressing them costs more than it saves. */
const GZIP_MIN_BYTES = 64 * 1024;

interface Slot {
  snap?: Snapshot;
  /** A whole read of the scope under way. */
  building?: Promise<Snapshot>;
  /** A patch under way. */
  patching?: Promise<Snapshot>;
  /** Changes no event named one by one (the cross-server bus missed some): read it all again. */
  dirty: boolean;
  /** Wearers an event named since the snapshot was read or patched. */
  changed: Set<string>;
  /** Wearers named while a whole read was under way (it may have read them before the change). */
  changedWhileBuilding?: Set<string>;
  /** Changes events announced for this scope so far (counted). */
  marks: number;
  /** How many of `marks` the snapshot holds: every one announced before its read began. */
  covered: number;
  lastUsed: number;
}

/** More changed wearers than this at once: the scope is read whole instead of patched. */
const PATCH_MAX = 2000;

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
      onlineUntil = '',
    ] = line.split('\t', 8);
    return {
      uid,
      organizationId,
      groupId: groupId === '' ? null : groupId,
      name: JSON.parse(name) as string,
      groupName: JSON.parse(groupName) as string | null,
      json,
      row,
      onlineUntil: onlineUntil === '' ? null : Number(onlineUntil),
    };
  });
}

/**
 * GET /v3/device/summary from memory: per organisation (and one for platform staff asking for
 * all), every wearer's summary serialised once by the database. The bus events name the wearers
 * that changed (here, or on another server through the cross-server bus): a request after
 * `summarySnapshotMs` reads only those again, and the wearers the clock turned offline, and waits
 * for those few rows; a wearer added or renamed reads the scope whole (the name order). The whole
 * scope is read again in the background once the last whole read is `summaryMaxStaleMs` old, for
 * changes no event announces (decision 0006, amended for issue 20).
 */
export class SummarySnapshots {
  private readonly slots = new Map<string, Slot>();
  /** This process's mark in ETags (another server's snapshot number 7 is not ours). */
  private readonly instance = randomBytes(6).toString('base64url');
  private versions = 0;
  private readonly unsubscribe: () => void;
  /** Whole reads of a scope and patches of a few wearers, since start (tests, metrics). */
  readonly counts = { wholeReads: 0, patches: 0 };

  constructor(
    private readonly ctx: Pick<CoreContext, 'bus' | 'now' | 'config' | 'db'>,
    private readonly log: Log,
    /** Answers at least this long are gzipped for a client that accepts it. */
    private readonly gzipMinBytes = GZIP_MIN_BYTES,
  ) {
    const mark = (e: { organizationId: string; wearerId: string }) => {
      for (const key of [e.organizationId, ALL]) {
        const slot = this.slots.get(key);
        if (!slot) continue;
        slot.changedWhileBuilding?.add(e.wearerId);
        slot.marks++;
        if (slot.changed.size < PATCH_MAX) slot.changed.add(e.wearerId);
        else slot.dirty = true;
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
   * Encoded once per snapshot and kind of caller, and a large one gzipped once (off the event loop,
   * in zlib's thread pool; the callers asking meanwhile wait for the same gzip: 10,000 wearers are
   * 1.7 MB plain and about a tenth of it gzipped, so waiting some milliseconds beats sending it
   * plain); later requests get the same bytes. `etag` lets a client that has them get a 304.
   */
  async answer(
    actor: Actor,
    filter: WearerScopeFilter,
    { acceptsGzip = false, format = 'rows', settled = false }: AnswerOptions = {},
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
    const snap = await this.current(key, settled);
    const { test, signature } = wearerScopeInMemory(actor, filter);
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
    if (acceptsGzip && encoded.body.length >= this.gzipMinBytes) {
      const target = encoded;
      target.gzipping ??= gzipAsync(target.body, { level: constants.Z_BEST_SPEED }).then(
        (gz) => (target.gzip = gz),
        (err: unknown) => {
          this.log.error({ err }, 'summary gzip failed');
          return null;
        },
      );
      const gz = target.gzip ?? (await target.gzipping);
      if (gz) return { body: gz, gzip: true, etag: target.etag };
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

  private async current(key: string, settled = false): Promise<Snapshot> {
    const now = performance.now();
    this.dropIdle(now);
    let slot = this.slots.get(key);
    if (!slot)
      this.slots.set(
        key,
        (slot = { dirty: true, changed: new Set(), marks: 0, covered: 0, lastUsed: now }),
      );
    slot.lastUsed = now;
    if (settled) return this.settle(key, slot);
    const { summarySnapshotMs, summaryMaxStaleMs } = this.ctx.config;
    const snap = slot.snap;
    if (!snap) return this.rebuild(key, slot);
    const fresh = now - snap.builtAt < summarySnapshotMs;
    // Changes no event named (the cross-server bus missed some): the scope is read whole, at most
    // once per summarySnapshotMs, and the caller waits for it.
    if (slot.dirty) return fresh ? snap : this.rebuild(key, slot);
    // Changes no event announces (an operator's SQL; every server's changes are announced, through
    // the cross-server bus): the scope is read whole in the background once the last whole read is
    // summaryMaxStaleMs old, after this answer (on PGlite the read holds the thread in chunks).
    const readWhole = now - snap.readAt >= summaryMaxStaleMs && !slot.building;
    const background = () => {
      if (!readWhole || slot.building) return;
      this.rebuild(key, slot).catch((err: unknown) =>
        this.log.error({ err }, 'summary snapshot failed'),
      );
    };
    // The wearers events named, and those whose connection the clock turned offline, are read
    // again (at most once per summarySnapshotMs; the caller waits for those few rows).
    const due = slot.changed.size > 0 || this.ctx.now().getTime() > snap.nextOffline;
    if (!due || fresh) {
      setImmediate(background);
      return snap;
    }
    slot.patching ??= this.patch(key, slot, snap).finally(() => {
      slot.patching = undefined;
    });
    const patched = slot.patching;
    void patched.then(() => setImmediate(background), background);
    return patched;
  }

  /**
   * The snapshot with every change announced before this call, whatever `summarySnapshotMs` says:
   * the console asks so when its live stream opens, for what changed before the stream could carry
   * it (within the window a plain request is answered without the changes announced since the last
   * read, and nothing would bring them to that page until its next poll). A read already under way
   * may have begun before the call: it is waited for, then the changes it missed are patched in.
   */
  private async settle(key: string, slot: Slot): Promise<Snapshot> {
    const want = slot.marks;
    // Each pass waits for a read under way (at most one whole read and one patch began before this
    // call) or makes one that begins after it; the bound only guards against a mistake here.
    for (let pass = 0; ; pass++) {
      if (slot.building) await slot.building;
      else if (slot.patching) await slot.patching;
      else {
        const snap = slot.snap;
        const offline = snap !== undefined && this.ctx.now().getTime() > snap.nextOffline;
        if (snap && !slot.dirty && (slot.covered >= want || pass >= 4) && !offline) {
          // The safety net for changes no event announces, as for a plain request (current()).
          if (
            performance.now() - snap.readAt >= this.ctx.config.summaryMaxStaleMs &&
            !slot.building
          )
            setImmediate(() => {
              if (slot.building) return;
              this.rebuild(key, slot).catch((err: unknown) =>
                this.log.error({ err }, 'summary snapshot failed'),
              );
            });
          return snap;
        }
        if (!snap || slot.dirty) await this.rebuild(key, slot);
        else {
          slot.patching = this.patch(key, slot, snap).finally(() => {
            slot.patching = undefined;
          });
          await slot.patching;
        }
      }
    }
  }

  /**
   * The snapshot with the named wearers, and those the clock turned offline, read again. A wearer
   * added or renamed moves in the name order: then the scope is read whole instead.
   */
  private async patch(key: string, slot: Slot, snap: Snapshot): Promise<Snapshot> {
    const at = this.ctx.now();
    const ms = at.getTime();
    const ids = new Set(slot.changed);
    const covers = slot.marks;
    slot.changed.clear();
    if (ms > snap.nextOffline) {
      for (const e of snap.entries)
        if (e.onlineUntil !== null && e.onlineUntil >= snap.at && e.onlineUntil < ms)
          ids.add(e.uid);
    }
    const started = performance.now();
    this.counts.patches++;
    try {
      const read = new Map<string, SnapshotEntry>();
      const list = [...ids];
      for (let i = 0; i < list.length; i += REBUILD_CHUNK) {
        const text = await deviceDataRepository(this.ctx.db).summaryFragments(
          list.slice(i, i + REBUILD_CHUNK),
          at,
        );
        for (const e of parse(text)) read.set(e.uid, e);
      }
      for (const [uid, e] of read) {
        const was = snap.byId.get(uid);
        const inScope = key === ALL || e.organizationId === key;
        if ((inScope && (!was || was.name !== e.name)) || (!inScope && was)) {
          return await this.rebuild(key, slot);
        }
      }
      // A rebuild that finished meanwhile already holds newer rows than `snap`: patch that one.
      const base = slot.snap ?? snap;
      const entries = base.entries.flatMap((e) => (ids.has(e.uid) ? (read.get(e.uid) ?? []) : e));
      const next = this.snapshotOf(entries, at, started, base.readAt);
      slot.snap = next;
      slot.covered = Math.max(slot.covered, covers);
      return next;
    } catch (err) {
      for (const id of ids) slot.changed.add(id);
      throw err;
    }
  }

  private snapshotOf(
    entries: SnapshotEntry[],
    at: Date,
    builtAt: number,
    readAt: number,
  ): Snapshot {
    const ms = at.getTime();
    let nextOffline = Infinity;
    for (const e of entries)
      if (e.onlineUntil !== null && e.onlineUntil >= ms && e.onlineUntil < nextOffline)
        nextOffline = e.onlineUntil;
    return {
      version: ++this.versions,
      builtAt,
      readAt,
      at: ms,
      nextOffline,
      generatedAt: at.toISOString(),
      entries,
      byId: new Map(entries.map((e) => [e.uid, e])),
      answers: new Map(),
    };
  }

  /** Single flight: joins the whole read under way, if any. */
  private rebuild(key: string, slot: Slot): Promise<Snapshot> {
    if (slot.building) return slot.building;
    slot.dirty = false;
    // What events name from now on may have been read before it changed: patched afterwards.
    const during = new Set<string>();
    slot.changedWhileBuilding = during;
    slot.changed.clear();
    const covers = slot.marks;
    const at = this.ctx.now();
    const started = performance.now();
    this.counts.wholeReads++;
    const building = this.build(key, at)
      .then((entries) => {
        const snap = this.snapshotOf(entries, at, started, started);
        slot.snap = snap;
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

  /** The scope's wearers in answer order: the order first, then the fragments in chunks. */
  private async build(key: string, at: Date): Promise<SnapshotEntry[]> {
    const order = await deviceDataRepository(this.ctx.db).summaryOrder(
      key === ALL ? undefined : key,
    );
    const byId = new Map<string, SnapshotEntry>();
    for (let i = 0; i < order.length; i += REBUILD_CHUNK) {
      const text = await deviceDataRepository(this.ctx.db).summaryFragments(
        order.slice(i, i + REBUILD_CHUNK),
        at,
      );
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
