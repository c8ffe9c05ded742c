import { randomUUID } from 'node:crypto';
import type { CoreContext } from '../../core-context.js';
import { type Db, prepared, type Queryable } from '../../db/client.js';
import type { WearerUpdatedEvent } from '../../bus/events.js';
import { notifyWearerUpdated, type WearerUpdates } from '../../bus/wearer-updates.js';
import { foldLatest, type LatestInput } from './latest-fold.js';
import { MINUTE_ROLLUP_RETENTION_DAYS } from './rollup-retention.js';
import { recomputeHours } from './readings-store.repository.js';
import type { Statement } from '../../db/statement.js';
import {
  mergeLatest,
  type WearerLatestUpdate,
  wearerLatestRepository,
} from './wearer-latest.repository.js';

/**
 * Rollups (minute, hour) and latest values are folded in memory and written once per flush
 * interval for many wearers at once, instead of by every batch (decision record 0011).
 *
 * The readings are the truth: a batch stores them in its transaction (with the engine's state and
 * alerts) and, in the same transaction, records in `rollup_pending` the (wearer, hour) pairs it
 * leaves to a later flush, under the current generation's id. A flush RECOMPUTES the touched
 * minutes from the stored readings (never adds deltas), then the touched hours from the minutes,
 * merges the folded latest values (newer wins, so a replay changes nothing) and recomputes
 * today's steps from the minutes; then it deletes its generation's `rollup_pending` rows, all in
 * one transaction under an advisory lock (flushes of every server take turns, so a later flush
 * always sees what an earlier one saw). Whatever was committed is therefore rolled up by the
 * flush of its generation, or, if the process died first, by the recovery: generations whose
 * rows are older than ROLLUP_RECOVERY_SECONDS belong to no living process, and their hours
 * are recomputed from readings (and device events, for the worn state) — at start on PGlite
 * (one process), by the timer-job leader on PostgreSQL.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
/**
 * Wearers per flush transaction. PGlite runs in the server's thread and holds it for the whole
 * transaction: 500 wearers took ~110 ms there, so an SOS arriving meanwhile waited that long; 100
 * take ~25 ms. PostgreSQL's transactions block nobody, so fewer, larger ones cost less.
 */
const FLUSH_CHUNK = { pglite: 100, postgres: 500 } as const;
/** Flushes of all servers take turns on this advisory lock. */
const FLUSH_LOCK = 7261010;

interface Generation {
  id: string;
  /** Minutes to recompute: `wearer|minuteMs`. */
  minutes: Map<string, { wearerId: string; at: Date }>;
  /** (wearer, hour) pairs whose rollup_pending row is committed: `wearer|hourMs`. */
  marked: Set<string>;
  latest: Map<string, WearerLatestUpdate & { organizationId: string }>;
  /** Wearers to announce (wearer.updated) once their latest values are written. */
  wearers: Map<string, WearerUpdatedEvent>;
  /** Batches of this generation still running; the flush waits for them. */
  inflight: number;
  idle: (() => void) | null;
}

const newGeneration = (): Generation => ({
  id: randomUUID(),
  minutes: new Map(),
  marked: new Set(),
  latest: new Map(),
  wearers: new Map(),
  inflight: 0,
  idle: null,
});

/** What one batch leaves to the flush; its transaction writes `marks` (see markStatement). */
export interface BatchFold {
  /** Call inside the batch's transaction, with its new readings and events. */
  prepare(items: LatestInput[], organizationId: string): Statement | null;
  /** After commit. */
  committed(wearers: WearerUpdatedEvent[]): void;
  /** Always (finally): the batch is over. */
  done(): void;
}

export class RollupFolder {
  private current = newGeneration();
  /** Generations whose flush failed, retried by the next flush. */
  private failed: Generation[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: Pick<CoreContext, 'db' | 'now' | 'log'> & {
      config: { rollupFlushMs: number };
    },
    private readonly announce: (e: WearerUpdatedEvent) => void,
  ) {}

  /** 0: every batch flushes its own fold right after its commit (tests, small installations). */
  get immediate(): boolean {
    return this.ctx.config.rollupFlushMs === 0;
  }

  /** Begins one batch: it folds into the current generation (or its own, when immediate). */
  begin(): BatchFold & { flushNow(): Promise<void> } {
    const gen = this.immediate ? newGeneration() : this.current;
    gen.inflight++;
    let pendingMarks: string[] = [];
    let latest: (WearerLatestUpdate & { organizationId: string })[] = [];
    let minutes: { wearerId: string; at: Date }[] = [];
    let finished = false;
    return {
      prepare: (items, organizationId) => {
        const oldest = this.ctx.now().getTime() - (MINUTE_ROLLUP_RETENTION_DAYS - 1) * DAY;
        const hours = new Map<string, { wearerId: string; hour: Date }>();
        minutes = [];
        for (const it of items) {
          const hour = Math.floor(it.at.getTime() / HOUR) * HOUR;
          const k = `${it.wearerId}|${hour}`;
          if (!gen.marked.has(k) && hour >= oldest)
            hours.set(k, { wearerId: it.wearerId, hour: new Date(hour) });
          // Readings (not events) change minute rollups.
          if (it.kind !== 'event') minutes.push({ wearerId: it.wearerId, at: it.at });
        }
        pendingMarks = [...hours.keys()];
        latest = foldLatest(items).map((u) => ({ ...u, organizationId }));
        return markStatement(gen.id, [...hours.values()]);
      },
      committed: (wearers) => {
        for (const k of pendingMarks) gen.marked.add(k);
        const oldest = this.ctx.now().getTime() - (MINUTE_ROLLUP_RETENTION_DAYS - 1) * DAY;
        for (const m of minutes) {
          const minute = Math.floor(m.at.getTime() / MINUTE) * MINUTE;
          if (minute < oldest) continue;
          gen.minutes.set(`${m.wearerId}|${minute}`, {
            wearerId: m.wearerId,
            at: new Date(minute),
          });
        }
        for (const u of latest) {
          const before = gen.latest.get(u.wearerId);
          gen.latest.set(
            u.wearerId,
            before ? { ...mergeLatest(before, u), organizationId: u.organizationId } : u,
          );
        }
        for (const w of wearers) gen.wearers.set(w.wearerId, w);
      },
      done: () => {
        if (finished) return;
        finished = true;
        gen.inflight--;
        if (gen.inflight === 0) gen.idle?.();
      },
      flushNow: async () => {
        const retry = this.failed;
        this.failed = [];
        for (const g of [...retry, gen]) {
          try {
            await this.flushGeneration(g);
          } catch (err) {
            this.failed.push(g);
            this.ctx.log.error({ err }, 'rollup flush failed; retried with the next batch');
          }
        }
      },
    };
  }

  /** Writes what the current generation folded (waiting for its batches); retries failed ones. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    const run = async () => {
      const gen = this.current;
      this.current = newGeneration();
      const retry = this.failed;
      this.failed = [];
      for (const g of [...retry, gen]) {
        try {
          await this.flushGeneration(g);
        } catch (err) {
          this.failed.push(g);
          throw err;
        }
      }
    };
    this.flushing = run().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async flushGeneration(gen: Generation): Promise<void> {
    if (gen.inflight > 0) await new Promise<void>((resolve) => (gen.idle = resolve));
    if (gen.minutes.size === 0 && gen.latest.size === 0 && gen.marked.size === 0) return;
    // Per wearer, everything of the generation: its minutes, latest values and markers.
    const byWearer = new Map<string, { wearerId: string; from: Date; to: Date }[]>();
    for (const m of gen.minutes.values()) {
      const list = byWearer.get(m.wearerId) ?? [];
      list.push({ wearerId: m.wearerId, from: m.at, to: new Date(m.at.getTime() + MINUTE) });
      byWearer.set(m.wearerId, list);
    }
    for (const w of gen.latest.keys()) if (!byWearer.has(w)) byWearer.set(w, []);
    const wearers = [...byWearer.keys()];
    // In chunks: each a short transaction, so an SOS batch (PGlite: one connection) slips in between.
    const size = FLUSH_CHUNK[this.ctx.db.kind];
    for (let i = 0; i < wearers.length; i += size) {
      const chunk = wearers.slice(i, i + size);
      await this.ctx.db.transaction(
        async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock($1)', [FLUSH_LOCK]);
          await writeFold(
            tx,
            chunk.flatMap((w) => byWearer.get(w) ?? []),
            chunk.flatMap((w) => gen.latest.get(w) ?? []),
            this.ctx.now(),
          );
          await tx.query(
            'DELETE FROM rollup_pending WHERE gen = $1 AND wearer_id = ANY($2::text[])',
            [gen.id, chunk],
          );
        },
        { urgent: false, keys: [] },
      );
      for (const w of chunk) {
        for (const m of byWearer.get(w) ?? []) gen.minutes.delete(`${w}|${m.from.getTime()}`);
        gen.latest.delete(w);
        const e = gen.wearers.get(w);
        if (e) this.announce(e);
        gen.wearers.delete(w);
      }
    }
    // Markers of wearers with nothing left to write (e.g. only old-hour items) go too.
    await this.ctx.db.query('DELETE FROM rollup_pending WHERE gen = $1', [gen.id]);
    for (const e of gen.wearers.values()) this.announce(e);
    gen.minutes.clear();
    gen.latest.clear();
    gen.marked.clear();
    gen.wearers.clear();
  }

  /** Flushes every intervalMs (not overlapping) until stop(), which flushes once more. */
  start(onError: (err: unknown) => void): void {
    if (this.immediate || this.timer) return;
    this.timer = setInterval(() => {
      if (!this.flushing) this.flush().catch(onError);
    }, this.ctx.config.rollupFlushMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flushing?.catch(() => undefined);
    await this.flush();
  }

  /** Generations this process may still flush (never recovered by it). */
  ownGenerations(): string[] {
    return [this.current.id, ...this.failed.map((g) => g.id)];
  }
}

export function createRollupFolder(
  ctx: CoreContext & { wearerUpdates: WearerUpdates },
): RollupFolder {
  return new RollupFolder(ctx, (e) => notifyWearerUpdated(ctx, e));
}

function markStatement(gen: string, hours: { wearerId: string; hour: Date }[]): Statement | null {
  if (hours.length === 0) return null;
  return {
    text: `INSERT INTO rollup_pending (gen, wearer_id, hour)
      SELECT $1, w, h FROM unnest($2::text[], $3::timestamptz[]) AS x(w, h)
      ON CONFLICT DO NOTHING`,
    params: [gen, hours.map((h) => h.wearerId), hours.map((h) => h.hour.toISOString())],
  };
}

/**
 * Recomputes the minute rollups of these (wearer, [from, to)) ranges from the stored readings,
 * the hours containing them from the minutes, merges the latest values and recomputes today's
 * steps. Ranges must not overlap. Idempotent: running it twice gives the same rows.
 */
async function writeFold(
  tx: Queryable,
  ranges: { wearerId: string; from: Date; to: Date }[],
  latest: (WearerLatestUpdate & { organizationId: string })[],
  now: Date,
): Promise<void> {
  if (ranges.length > 0) {
    await tx.query(prepared(RECOMPUTE_MINUTES), [
      ranges.map((r) => r.wearerId),
      ranges.map((r) => r.from.toISOString()),
      ranges.map((r) => r.to.toISOString()),
    ]);
    const oldest = now.getTime() - (MINUTE_ROLLUP_RETENTION_DAYS - 1) * DAY;
    const hours = new Map<string, { wearerId: string; hour: Date }>();
    for (const r of ranges) {
      for (let h = Math.floor(r.from.getTime() / HOUR) * HOUR; h < r.to.getTime(); h += HOUR) {
        if (h >= oldest)
          hours.set(`${r.wearerId}|${h}`, { wearerId: r.wearerId, hour: new Date(h) });
      }
    }
    const statement = recomputeHours([...hours.values()]);
    if (statement) await tx.query(prepared(statement.text), statement.params);
  }
  if (latest.length > 0) await wearerLatestRepository(tx).writeLatest(latest);
}

const RECOMPUTE_MINUTES = `
  INSERT INTO reading_minutes AS m (wearer_id, bucket, organization_id, reading_count,
    hr_count, hr_sum, hr_min, hr_max, temp_count, temp_sum, temp_max, steps, worn_count,
    not_worn_count, wbgt_max, latest_at, sleep_stage, stress_level, battery)
  SELECT r.wearer_id, date_bin('1 minute', r.at, timestamptz '2000-01-01 00:00:00+00'),
         min(r.organization_id), count(*), count(r.heart_rate),
         coalesce(sum(r.heart_rate::float8), 0), min(r.heart_rate), max(r.heart_rate),
         count(r.skin_temperature), coalesce(sum(r.skin_temperature::float8), 0),
         max(r.skin_temperature), coalesce(sum(r.steps), 0), count(*) FILTER (WHERE r.worn),
         count(*) FILTER (WHERE NOT r.worn), max(r.wbgt), max(r.at),
         (array_agg(r.sleep_stage ORDER BY r.at DESC) FILTER (WHERE r.sleep_stage IS NOT NULL))[1],
         (array_agg(r.stress_level ORDER BY r.at DESC) FILTER (WHERE r.stress_level IS NOT NULL))[1],
         (array_agg(r.battery ORDER BY r.at DESC) FILTER (WHERE r.battery IS NOT NULL))[1]
    FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS k(wearer_id, from_at, to_at)
    JOIN readings r ON r.wearer_id = k.wearer_id AND r.at >= k.from_at AND r.at < k.to_at
   GROUP BY 1, 2
  ON CONFLICT (wearer_id, bucket) DO UPDATE SET
    organization_id = excluded.organization_id, reading_count = excluded.reading_count,
    hr_count = excluded.hr_count, hr_sum = excluded.hr_sum, hr_min = excluded.hr_min,
    hr_max = excluded.hr_max, temp_count = excluded.temp_count, temp_sum = excluded.temp_sum,
    temp_max = excluded.temp_max, steps = excluded.steps, worn_count = excluded.worn_count,
    not_worn_count = excluded.not_worn_count, wbgt_max = excluded.wbgt_max,
    latest_at = excluded.latest_at, sleep_stage = excluded.sleep_stage,
    stress_level = excluded.stress_level, battery = excluded.battery`;

/**
 * Recomputes what generations left behind by a process that died before flushing: every
 * (wearer, hour) they recorded, from readings and worn/removed events. Generations of this
 * process and those younger than `olderThanMs` (a living server's, flushed within seconds) are
 * left alone. Returns the number of (wearer, hour) pairs recomputed.
 */
export async function recoverRollups(
  db: Db,
  opts: { olderThanMs: number; exceptGenerations: string[]; now: Date },
): Promise<number> {
  const gens = await db.query<{ gen: string }>(
    `SELECT gen FROM rollup_pending GROUP BY gen
      HAVING max(marked_at) < $1::timestamptz AND NOT (gen = ANY($2::text[]))`,
    [new Date(opts.now.getTime() - opts.olderThanMs).toISOString(), opts.exceptGenerations],
  );
  let recovered = 0;
  for (const { gen } of gens) {
    recovered += await db.transaction(
      async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [FLUSH_LOCK]);
        const pairs = await tx.query<{ wearerId: string; hour: Date }>(
          `SELECT DISTINCT wearer_id AS "wearerId", hour FROM rollup_pending WHERE gen = $1`,
          [gen],
        );
        const items = await tx.query<LatestInput & { organizationId: string; kind?: 'event' }>(
          `SELECT r.wearer_id AS "wearerId", r.bracelet_id AS "braceletId", r.organization_id AS "organizationId",
                  o.time_zone AS "timeZone", r.at, r.heart_rate AS "heartRate",
                  r.skin_temperature AS "skinTemperature", r.worn, r.battery,
                  r.sleep_stage AS "sleepStage", r.stress_level AS "stressLevel", r.steps, r.wbgt
             FROM unnest($1::text[], $2::timestamptz[]) AS k(wearer_id, hour)
             JOIN readings r ON r.wearer_id = k.wearer_id AND r.at >= k.hour AND r.at < k.hour + interval '1 hour'
             JOIN organizations o ON o.id = r.organization_id
           UNION ALL
           SELECT e.wearer_id, e.bracelet_id, e.organization_id, o.time_zone, e.at, NULL, NULL,
                  e.type = 'WORN', NULL, NULL, NULL, NULL, NULL
             FROM unnest($1::text[], $2::timestamptz[]) AS k(wearer_id, hour)
             JOIN device_events e ON e.wearer_id = k.wearer_id AND e.at >= k.hour AND e.at < k.hour + interval '1 hour'
              AND e.type IN ('WORN', 'REMOVED')
             JOIN organizations o ON o.id = e.organization_id`,
          [pairs.map((p) => p.wearerId), pairs.map((p) => new Date(p.hour).toISOString())],
        );
        const org = new Map(items.map((i) => [i.wearerId, i.organizationId]));
        const latest = foldLatest(items.map((i) => ({ ...i, at: new Date(i.at) }))).map((u) => ({
          ...u,
          organizationId: org.get(u.wearerId) ?? '',
        }));
        await writeFold(
          tx,
          pairs.map((p) => ({
            wearerId: p.wearerId,
            from: new Date(p.hour),
            to: new Date(new Date(p.hour).getTime() + HOUR),
          })),
          latest,
          opts.now,
        );
        await tx.query('DELETE FROM rollup_pending WHERE gen = $1', [gen]);
        return pairs.length;
      },
      { urgent: false, keys: [] },
    );
  }
  return recovered;
}

/**
 * Runs the recovery at start and every 10 s (on PostgreSQL only the timer-job leader; PGlite is
 * one process, so everything left at start is a dead process's and is recovered at once).
 */
export function startRollupRecovery(
  ctx: CoreContext & { rollups: RollupFolder },
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const olderThanMs = ctx.config.rollupRecoverySeconds * 1000;
  const run = (atStart: boolean) => {
    if (running || !ctx.cluster.leads()) return;
    running = recoverRollups(ctx.db, {
      olderThanMs: atStart && ctx.db.kind === 'pglite' ? 0 : olderThanMs,
      exceptGenerations: ctx.rollups.ownGenerations(),
      now: ctx.now(),
    })
      .then((n) => {
        if (n > 0)
          ctx.log.warn(
            { hours: n },
            'rollups recomputed from readings after a process stopped before its flush',
          );
      })
      .catch(onError)
      .finally(() => (running = null));
  };
  run(true);
  const timer = setInterval(() => run(false), 10_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
