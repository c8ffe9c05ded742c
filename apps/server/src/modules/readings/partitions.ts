import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';

/**
 * `readings` is partitioned by range of `at` (migration 017, decision record 0011). Partitions
 * are `readings_pYYYYMMDD_dN`: N days from that UTC date, aligned on multiples of N days since
 * 1970-01-01. The leader creates them ahead (the last 8 days, readings up to 7 days old being
 * accepted, and the next 2) and retention drops those wholly past READINGS_RETENTION_DAYS.
 * A range is skipped when it would overlap an existing partition (READINGS_PARTITION_DAYS
 * changed). Rows the default partition holds in a new range (from before the migration, or
 * stored before the job prepared the range) move into the new partition, unless there are more
 * than 100,000 of them: then the range stays in the default partition, whose expired rows
 * retention deletes one by one.
 */

const DAY = 86_400_000;
const NAME = /^readings_p(\d{4})(\d{2})(\d{2})_d(\d+)$/;
/** Partition jobs (several servers, or a test's own call) take turns on this advisory lock. */
const PARTITION_LOCK = 7261011;
/** Rows of the default partition moved into a new partition in one go, at most. */
const MAX_MOVE = 100_000;

export interface ReadingsPartition {
  name: string;
  from: Date;
  to: Date;
}

const nameOf = (from: Date, days: number) =>
  `readings_p${from.toISOString().slice(0, 10).replaceAll('-', '')}_d${days}`;

/** The partitions of `readings` this module created (not the default one). */
export async function listPartitions(db: Pick<Db, 'query'>): Promise<ReadingsPartition[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'readings'::regclass`,
  );
  const out: ReadingsPartition[] = [];
  for (const { name } of rows) {
    const m = NAME.exec(name);
    if (!m) continue;
    const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    out.push({ name, from, to: new Date(from.getTime() + Number(m[4]) * DAY) });
  }
  return out.sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Creates the partitions covering [now - 8 days, now + 2 days) that are missing. Returns the
 * names created. Each is one short DDL statement (it locks `readings` briefly).
 */
export async function ensurePartitions(db: Db, now: Date, days: number): Promise<string[]> {
  const size = days * DAY;
  const existing = await listPartitions(db);
  const created: string[] = [];
  const first = Math.floor((now.getTime() - 8 * DAY) / size) * size;
  for (let from = first; from < now.getTime() + 2 * DAY; from += size) {
    const to = from + size;
    if (existing.some((p) => p.from.getTime() < to && p.to.getTime() > from)) continue;
    const lo = new Date(from).toISOString();
    const hi = new Date(to).toISOString();
    // Rows already in the default partition for this range move into the new partition with
    // it (one transaction); too many to move while batches wait, and the range stays default.
    const inDefault = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM readings_default WHERE at >= $1 AND at < $2 LIMIT ${MAX_MOVE + 1}) x`,
      [lo, hi],
    );
    if ((inDefault[0]?.n ?? 0) > MAX_MOVE) continue;
    const name = nameOf(new Date(from), days);
    await ddl(db, [
      `CREATE TEMP TABLE moving ON COMMIT DROP AS
         WITH d AS (DELETE FROM readings_default WHERE at >= '${lo}' AND at < '${hi}' RETURNING *) SELECT * FROM d`,
      `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF readings FOR VALUES FROM ('${lo}') TO ('${hi}')`,
      'INSERT INTO readings SELECT * FROM moving',
    ]);
    created.push(name);
  }
  return created;
}

/**
 * DDL on a partition locks `readings`. One job at a time (advisory lock), and `readings` itself
 * is locked first, before any partition: batches lock the table before its partitions too, so
 * the two can never wait for each other in a circle. It gives up after 2 s rather than hold
 * batches waiting behind it (the job tries again later).
 */
async function ddl(db: Db, statements: string[]): Promise<void> {
  await db.transaction(
    async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      await tx.query("SET LOCAL lock_timeout = '2s'");
      await tx.query('LOCK TABLE readings IN ACCESS EXCLUSIVE MODE');
      for (const sql of statements) await tx.query(sql);
    },
    { urgent: false, keys: [] },
  );
}

/** Drops the partitions whose every reading is older than `before`. Returns the names dropped. */
export async function dropExpiredPartitions(db: Db, before: Date): Promise<string[]> {
  const dropped: string[] = [];
  for (const p of await listPartitions(db)) {
    if (p.to.getTime() > before.getTime()) continue;
    await ddl(db, [`DROP TABLE IF EXISTS ${p.name}`]);
    dropped.push(p.name);
  }
  return dropped;
}

/** The leader prepares partitions at start and every 10 minutes (cheap when nothing is missing). */
export function startPartitionJob(
  ctx: AppContext,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const run = () => {
    if (running || !ctx.cluster.leads()) return;
    running = ensurePartitions(ctx.db, ctx.now(), ctx.config.readingsPartitionDays)
      .catch(onError)
      .finally(() => (running = null));
  };
  run();
  const first = setTimeout(run, 10_000);
  const timer = setInterval(run, 600_000);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
