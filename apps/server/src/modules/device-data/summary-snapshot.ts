import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import { type Actor, SUMMARY_COLUMNS, type SummaryFormat, scopeOf } from '@wearable/domain';
import type { CoreContext } from '../../core-context.js';
import { BUS_EVENTS, type BusEvents } from '../../bus/events.js';
import { deviceDataRepository } from './device-data.repository.js';
import { type WearerScopeFilter, wearerScopeInMemory } from '../../access/scope-sql.js';
import { type Log, READ_WHOLE, SnapshotSlots } from '../../snapshots/snapshot-slots.js';

/** One wearer of a snapshot: the scoping fields and the summary as ready JSON text, in both forms. */
export interface SnapshotEntry {
  uid: string;
  organizationId: string;
  groupId: string | null;
  name: string;
  groupName: string | null;
  /**
   * The wearer's summary object (format=rows) before its `connection` (without the closing brace)
   * and after it (without the opening one): `connection` depends on the answer's time only.
   */
  jsonHead: string;
  jsonTail: string;
  /** The same as an array in SUMMARY_COLUMNS order (format=columns), split as the object. */
  rowHead: string;
  rowTail: string;
  /** Until when (epoch ms) `connection` says online; null when it says offline whatever the time. */
  onlineUntil: number | null;
}

/** `connection` between an entry's head and tail, in PostgreSQL's JSON text layout. */
const JSON_CONNECTION = {
  online: ', "connection" : "online", ',
  offline: ', "connection" : "offline", ',
};
const ROW_CONNECTION = { online: ', "online", ', offline: ', "offline", ' };

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
  /** The time its `connection` values hold for (epoch ms, as generatedAt). */
  at: number;
  /**
   * The earliest `onlineUntil` at or after `at`: before it, no wearer went offline by the clock;
   * after it the same entries are served as a new snapshot of a later time (no read).
   */
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

const ALL = '*';
/**
 * Wearers per rebuild query. On PGlite a query holds the server's thread: a 10,000-wearer scope
 * rebuilt in 40 short queries lets the requests arriving meanwhile be answered between them
 * (1,000 per query held each for long enough to be most of the summary's p95).
 */
const REBUILD_CHUNK = 250;
/** Encoded answers kept per snapshot (kinds of caller: the organisation, each group manager...). */
const ANSWERS_PER_SNAPSHOT = 64;
const COLUMNS_HEAD = JSON.stringify(SUMMARY_COLUMNS);

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
      jsonHead = '{',
      jsonTail = '}',
      rowHead = '[',
      rowTail = ']',
      onlineUntil = '',
    ] = line.split('\t', 10);
    return {
      uid,
      organizationId,
      groupId: groupId === '' ? null : groupId,
      name: JSON.parse(name) as string,
      groupName: JSON.parse(groupName) as string | null,
      jsonHead: jsonHead.slice(0, -1),
      jsonTail: jsonTail.slice(1),
      rowHead: rowHead.slice(0, -1),
      rowTail: rowTail.slice(1),
      onlineUntil: onlineUntil === '' ? null : Number(onlineUntil),
    };
  });
}

/** Two reads gave the same wearers, in the same order, with the same values. */
function sameEntries(a: readonly SnapshotEntry[], b: readonly SnapshotEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (
      x.uid !== y.uid ||
      x.jsonHead !== y.jsonHead ||
      x.jsonTail !== y.jsonTail ||
      x.rowHead !== y.rowHead ||
      x.rowTail !== y.rowTail ||
      x.onlineUntil !== y.onlineUntil
    )
      return false;
  }
  return true;
}

/**
 * GET /v3/device/summary from memory: per organisation (and one for platform staff asking for
 * all), every wearer's summary serialised once by the database. The bus events name the wearers
 * that changed (here, or on another server through the cross-server bus): a request after
 * `summarySnapshotMs` reads only those again, and waits for those few rows; a wearer added or
 * renamed reads the scope whole (the name order). A wearer the clock turns offline costs no read
 * (`connection` is put in when an answer is encoded). The whole scope is read again in the
 * background once the last whole read is `summaryMaxStaleMs` old, for changes no event announces
 * (decision 0006, amended for issue 20). The slots and reads are `snapshots/snapshot-slots.ts`.
 */
export class SummarySnapshots {
  private readonly slots: SnapshotSlots<Snapshot>;
  /** This process's mark in ETags (another server's snapshot number 7 is not ours). */
  private readonly instance = randomBytes(6).toString('base64url');
  private versions = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: Pick<CoreContext, 'bus' | 'now' | 'config' | 'db'>,
    private readonly log: Log,
    /** Answers at least this long are gzipped for a client that accepts it. */
    private readonly gzipMinBytes = GZIP_MIN_BYTES,
  ) {
    this.slots = new SnapshotSlots(
      {
        whole: (key) => this.readWhole(key),
        patch: (key, ids, latest) => this.readNamed(key, ids, latest),
      },
      () => ctx.config.summaryMaxStaleMs,
      log,
      'summary snapshot',
    );
    const mark = (e: { organizationId: string; wearerId: string }) => {
      this.slots.mark(e.organizationId, e.wearerId);
      this.slots.mark(ALL, e.wearerId);
    };
    const onAlert = (a: BusEvents['alert.opened']) => {
      if (a.wearerId !== null) mark({ organizationId: a.organizationId, wearerId: a.wearerId });
    };
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

  /** Seconds since the oldest summary this server holds was read whole (metrics; 0: none). */
  oldestAgeSeconds(): number {
    return this.slots.oldestReadAgeMs() / 1000;
  }

  /** Whole reads of a scope and patches of a few wearers, since start (tests, metrics). */
  get counts(): { wholeReads: number; patches: number } {
    return this.slots.counts;
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
    const snap = this.asOfNow(key, await this.current(key, settled));
    const { test, signature } = wearerScopeInMemory(actor, filter);
    const answerKey = `${format}|${signature}`;
    let encoded = snap.answers.get(answerKey);
    if (!encoded) {
      const head =
        format === 'columns'
          ? `{"generatedAt":"${snap.generatedAt}","columns":${COLUMNS_HEAD},"rows":[`
          : `{"generatedAt":"${snap.generatedAt}","wearers":[`;
      const parts: string[] = [];
      const at = snap.at;
      for (const e of snap.entries) {
        if (test && !test(e)) continue;
        const state = e.onlineUntil !== null && e.onlineUntil >= at ? 'online' : 'offline';
        parts.push(
          format === 'columns'
            ? e.rowHead + ROW_CONNECTION[state] + e.rowTail
            : e.jsonHead + JSON_CONNECTION[state] + e.jsonTail,
        );
      }
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
      const e = this.slots.peek(key)?.byId.get(wearerId);
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
    this.slots.markAllDirty();
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
    // Every change announced before this call, whatever summarySnapshotMs says: the console asks so
    // (within the window a plain request is answered without the changes announced since the last
    // read, and nothing would bring them to a page that opened its live stream meanwhile until its
    // next poll).
    if (settled) return this.slots.settled(key);
    const slot = this.slots.slot(key);
    const snap = slot.snap;
    if (!snap) return this.slots.rebuild(key, slot);
    const fresh = performance.now() - snap.builtAt < this.ctx.config.summarySnapshotMs;
    // Changes no event named (the cross-server bus missed some): the scope is read whole, at most
    // once per summarySnapshotMs, and the caller waits for it.
    if (slot.dirty) return fresh ? snap : this.slots.rebuild(key, slot);
    // The wearers events named are read again (at most once per summarySnapshotMs; the caller
    // waits for those few rows). Changes no event announces (an operator's SQL; every server's
    // changes are announced, through the cross-server bus) are read in the background, after this
    // answer (on PGlite the whole read holds the thread in chunks).
    const due = slot.changed.size > 0;
    if (!due || fresh) {
      this.slots.refreshIfStale(key, slot);
      return snap;
    }
    const patched = this.slots.patch(key, slot);
    const background = () => this.slots.refreshIfStale(key, slot);
    void patched.then(background, background);
    return patched;
  }

  /**
   * The snapshot as of now: when the clock has turned a wearer offline since its time, the same
   * entries as a new snapshot of this moment (their `connection` is put in when encoded), kept
   * for the next callers. A site's gateway going quiet turns all its wearers offline at once:
   * that costs no read.
   */
  private asOfNow(key: string, snap: Snapshot): Snapshot {
    const now = this.ctx.now();
    if (now.getTime() <= snap.nextOffline) return snap;
    const next = this.snapshotOf(snap.entries, now, snap.builtAt, snap.byId);
    this.slots.replace(key, snap, next);
    return next;
  }

  /**
   * The snapshot with the named wearers read again; or READ_WHOLE when a wearer was added, renamed
   * (the name order) or moved out of the scope.
   */
  private async readNamed(
    key: string,
    ids: Set<string>,
    latest: () => Snapshot,
  ): Promise<Snapshot | typeof READ_WHOLE> {
    const at = this.ctx.now();
    const snap = latest();
    const started = performance.now();
    const read = new Map<string, SnapshotEntry>();
    const list = [...ids];
    for (let i = 0; i < list.length; i += REBUILD_CHUNK) {
      const text = await deviceDataRepository(this.ctx.db).summaryFragments(
        list.slice(i, i + REBUILD_CHUNK),
      );
      for (const e of parse(text)) read.set(e.uid, e);
    }
    for (const [uid, e] of read) {
      const was = snap.byId.get(uid);
      const inScope = key === ALL || e.organizationId === key;
      if ((inScope && (!was || was.name !== e.name)) || (!inScope && was)) return READ_WHOLE;
    }
    // A whole read that finished meanwhile already holds newer rows than `snap`: patch that one.
    const base = latest();
    const entries = base.entries.flatMap((e) => (ids.has(e.uid) ? (read.get(e.uid) ?? []) : e));
    return this.snapshotOf(entries, at, started);
  }

  private snapshotOf(
    entries: SnapshotEntry[],
    at: Date,
    builtAt: number,
    byId = new Map(entries.map((e) => [e.uid, e])),
  ): Snapshot {
    const ms = at.getTime();
    let nextOffline = Infinity;
    for (const e of entries)
      if (e.onlineUntil !== null && e.onlineUntil >= ms && e.onlineUntil < nextOffline)
        nextOffline = e.onlineUntil;
    return {
      version: ++this.versions,
      builtAt,
      at: ms,
      nextOffline,
      generatedAt: at.toISOString(),
      entries,
      byId,
      answers: new Map(),
    };
  }

  /**
   * The scope read whole, as of now. When it reads what the snapshot already holds (the background
   * read once a minute, for changes no event announces, mostly finds none), the snapshot stays:
   * its answers, their gzip and their ETags stay valid (a client holding the tag gets a 304).
   */
  private async readWhole(key: string): Promise<Snapshot> {
    const at = this.ctx.now();
    const started = performance.now();
    const entries = await this.build(key);
    const held = this.slots.peek(key);
    if (held && sameEntries(held.entries, entries)) return held;
    return this.snapshotOf(entries, at, started);
  }

  /** The scope's wearers in answer order: the order first, then the fragments in chunks. */
  private async build(key: string): Promise<SnapshotEntry[]> {
    const order = await deviceDataRepository(this.ctx.db).summaryOrder(
      key === ALL ? undefined : key,
    );
    const byId = new Map<string, SnapshotEntry>();
    for (let i = 0; i < order.length; i += REBUILD_CHUNK) {
      const text = await deviceDataRepository(this.ctx.db).summaryFragments(
        order.slice(i, i + REBUILD_CHUNK),
      );
      for (const e of parse(text)) byId.set(e.uid, e);
    }
    // A wearer removed between the two steps is left out; one added appears next time.
    return order.flatMap((id) => byId.get(id) ?? []);
  }
}
