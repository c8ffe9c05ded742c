import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { accessLogService } from '../access-log/access-log.service.js';
import { dropExpiredPartitions } from './partitions.js';
import { MINUTE_ROLLUP_RETENTION_DAYS } from './rollup-retention.js';

const DAY = 86_400_000;
/** Rows per DELETE: short transactions that never hold up ingestion for long. */
const DELETE_BATCH = 5000;

const TARGETS = [
  { table: 'readings', column: 'at', days: (ctx: AppContext) => ctx.config.readingsRetentionDays },
  {
    table: 'environment_readings',
    column: 'at',
    days: (ctx: AppContext) => ctx.config.readingsRetentionDays,
  },
  {
    table: 'wearer_positions',
    column: 'at',
    days: (ctx: AppContext) => ctx.config.readingsRetentionDays,
  },
  { table: 'reading_minutes', column: 'bucket', days: () => MINUTE_ROLLUP_RETENTION_DAYS },
] as const;

async function deleteBefore(
  db: Queryable,
  table: string,
  column: string,
  before: Date,
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query(
      // The outer condition repeats the inner one: on a partitioned table (readings) a ctid is
      // unique only within one partition.
      `DELETE FROM ${table} WHERE ${column} < $1 AND ctid IN
         (SELECT ctid FROM ${table} WHERE ${column} < $1 LIMIT ${DELETE_BATCH}) RETURNING 1`,
      [before.toISOString()],
    );
    total += rows.length;
    if (rows.length < DELETE_BATCH) return total;
  }
}

/**
 * Deletes expired telemetry: full resolution after READINGS_RETENTION_DAYS (whole partitions
 * dropped, then the rows left in the default partition), minute rollups after 400 days; hourly
 * rollups, events and alerts are kept; access-log entries after ACCESS_LOG_RETENTION_DAYS (a
 * prefix of each chain). Returns rows deleted per table, and the partitions dropped as
 * `readingsPartitions`.
 */
export async function deleteExpiredTelemetry(
  ctx: AppContext,
  now: Date = ctx.now(),
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  const readingsBefore = new Date(now.getTime() - ctx.config.readingsRetentionDays * DAY);
  deleted.readingsPartitions = (await dropExpiredPartitions(ctx.db, readingsBefore)).length;
  for (const t of TARGETS) {
    deleted[t.table] = await deleteBefore(
      ctx.db,
      t.table,
      t.column,
      new Date(now.getTime() - t.days(ctx) * DAY),
    );
  }
  deleted.accessLog = await accessLogService(ctx).purgeExpired(ctx.config.accessLogRetentionDays);
  return deleted;
}

/** Runs the retention job every hour (first run a minute after start) until stopped. */
export function startRetentionJob(
  ctx: AppContext,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const run = () => {
    if (running || !ctx.cluster.leads()) return; // with several servers, one deletes
    running = deleteExpiredTelemetry(ctx)
      .catch(onError)
      .finally(() => (running = null));
  };
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, 3_600_000);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
