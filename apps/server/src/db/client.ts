import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { preparedRunner } from './pglite-prepared.js';
import { makeFolderPrivate } from './private-folder.js';
import { currentLaneHint, type LaneHint, PriorityLane, UrgentGate } from './priority-lane.js';

// int8 (counts, bigint ids) as a JS number on both drivers, as PGlite already does.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * A statement PostgreSQL parses and plans once per connection (a named prepared statement), for
 * the few run on every batch. Only for constant texts: each distinct text stays prepared on every
 * connection. PGlite names it too (pglite-prepared.ts).
 */
export interface PreparedSql {
  readonly text: string;
  readonly name: string;
}

// A memo of a pure function (text -> name), not app state; bounded below.
const preparedByText = new Map<string, PreparedSql>();
export const prepared = (text: string): PreparedSql => {
  // Built once per text: runCombined asks for its combination's statement on every batch.
  const known = preparedByText.get(text);
  if (known) return known;
  const statement = Object.freeze({
    text,
    name: `p_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`,
  });
  if (preparedByText.size < 1_000) preparedByText.set(text, statement);
  return statement;
};

const textOf = (sql: string | PreparedSql): string => (typeof sql === 'string' ? sql : sql.text);
const pgQuery = (sql: string | PreparedSql, values: unknown[] | undefined) =>
  typeof sql === 'string' ? { text: sql, values } : { name: sql.name, text: sql.text, values };

/** Anything that runs SQL: the database or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string | PreparedSql, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /**
   * Inside a transaction: runs `fn` once it has committed (never if it rolls back). Absent on the
   * database itself, where each statement has committed when it returns.
   */
  afterCommit?(fn: () => void): void;
  /**
   * Inside a transaction: runs the statement as the transaction's LAST and commits with it, COMMIT
   * sent without waiting for the statement's answer (PostgreSQL: one turn fewer). Nothing may run
   * after it, and the work must not fail after it: it has committed.
   */
  commitWith?<T = Record<string, unknown>>(
    text: string | PreparedSql,
    params?: unknown[],
  ): Promise<T[]>;
}

/** Runs `fn` once what `db` wrote is committed: at once outside a transaction. */
export function whenCommitted(db: Queryable, fn: () => void): void {
  if (db.afterCommit) db.afterCommit(fn);
  else fn();
}

/** Calls the callbacks a committed transaction collected; one that throws does not stop the others. */
function runCommitted(callbacks: (() => void)[]): void {
  for (const fn of callbacks) {
    try {
      fn();
    } catch {
      // A callback only nudges something in memory (wakes a worker); the commit stands.
    }
  }
}

/** The database, PGlite (embedded) or PostgreSQL, behind one small interface. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs fn in one transaction; rolls back if it throws. `hint` (PGlite): its priority and the
   * wearers it applies engine inputs to (default: the caller's withLaneHint, else normal).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, hint?: LaneHint): Promise<T>;
  close(): Promise<void>;
  /** PGlite: calls waiting for the connection plus the one running; pg: calls waiting for a client. */
  readonly queueDepth: number;
  /** Connections by pool (PostgreSQL: normal and urgent; PGlite: its one connection). */
  poolStats(): PoolStats[];
}

export interface PoolStats {
  pool: 'normal' | 'urgent';
  /** Connections open, of them idle, and callers waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir) makeFolderPrivate(dataDir);
  const pglite = await PGlite.create(dataDir);
  // The files PGlite has just created (all of them, on the first start) are 0666: made private.
  if (dataDir) makeFolderPrivate(dataDir);
  return wrapPglite(pglite);
}

/**
 * The Db interface over an open PGlite (also used by tests that load a template). Every call
 * goes through a two-priority lane in front of PGlite's FIFO (see priority-lane.ts); inside a
 * transaction the calls go straight to it, as PGlite's own lock is already held.
 */
export function wrapPglite(lite: PGlite): Db {
  let closed = false;
  const lane = new PriorityLane();
  const named = preparedRunner(lite);
  /** A `prepared(...)` statement runs as a named statement (pglite-prepared.ts), any other unnamed. */
  const run = async <T>(
    text: string | PreparedSql,
    params: unknown[] | undefined,
    inTransaction: boolean,
    unnamed: (sql: string | PreparedSql) => Promise<{ rows: T[] }>,
  ): Promise<T[]> =>
    typeof text !== 'string' && named.accepts(text)
      ? named.run<T>(text, params, inTransaction)
      : (await unnamed(text)).rows;
  return {
    kind: 'pglite',
    get queueDepth() {
      return lane.depth;
    },
    poolStats: () => [
      {
        pool: 'normal',
        total: 1,
        idle: lane.depth === 0 ? 1 : 0,
        waiting: Math.max(0, lane.depth - 1),
      },
    ],
    async query<T>(text: string | PreparedSql, params?: unknown[]) {
      return lane.run(() =>
        run<T>(text, params, false, (sql) => lite.query<T>(textOf(sql), params)),
      );
    },
    async exec(script: string) {
      await lane.run(() => lite.exec(script));
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, hint?: LaneHint) {
      const committed: (() => void)[] = [];
      const result = await lane.run(
        () =>
          lite.transaction((tx) =>
            fn({
              query: <R>(t: string | PreparedSql, p?: unknown[]) =>
                run<R>(t, p, true, (sql) => tx.query<R>(textOf(sql), p)),
              // PGlite commits when the work returns: the last statement is an ordinary one.
              commitWith: <R>(t: string | PreparedSql, p?: unknown[]) =>
                run<R>(t, p, true, (sql) => tx.query<R>(textOf(sql), p)),
              exec: async (script: string) => void (await tx.exec(script)),
              afterCommit: (cb) => void committed.push(cb),
            }),
          ),
        hint,
      );
      runCommitted(committed);
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      await lane.run(() => lite.close());
    },
  };
}

/**
 * PostgreSQL through node-postgres. Urgent work (an SOS or fall batch, a credential look-up;
 * see priority-lane.ts) has its own small pool, so it never waits for a client behind queued
 * reading batches. Per-wearer row locks still order work on one wearer across both pools. While
 * urgent work runs, normal work waits before each statement it sends (UrgentGate, at most
 * URGENT_GATE_MAX_WAIT_MS), so the urgent work has the database and the event loop first.
 */
/** pg's pipeline mode (pg >= 8.21): queries are written without waiting for the previous answer. */
const pipelined = (client: pg.PoolClient, on: boolean) =>
  void ((client as unknown as { pipeline: boolean }).pipeline = on);

/** How long a normal statement waits at most for urgent work to end (UrgentGate). */
const URGENT_GATE_MAX_WAIT_MS = 200;

export interface PostgresTimeouts {
  /** A statement's answer is waited for this long (client side; a cut network never answers). */
  queryTimeoutMs?: number;
  /** A connection (pool checkout of a new one) is waited for this long. */
  connectTimeoutMs?: number;
}

/** Migrations and scripts (exec) may run long: they wait this long instead. */
const EXEC_TIMEOUT_MS = 24 * 60 * 60_000;

/** A statement timed out on the client's side (pg's query_timeout): the connection is dropped. */
const isQueryTimeout = (err: unknown): boolean =>
  err instanceof Error && err.message.includes('Query read timeout');

export async function openPostgres(
  url: string,
  max = 10,
  urgentMax = 4,
  timeouts: PostgresTimeouts = {},
): Promise<Db> {
  // A server cut off from its database answers 503 within ~2 s (issue 34): a new connection is
  // waited for connectTimeoutMs, a statement's answer queryTimeoutMs (the client is then dropped),
  // and TCP keepalive finds an idle connection whose peer is gone. Recovery is at once: the next
  // checkout opens a new connection. (plugins/error-handler.ts answers 503 with Retry-After.)
  const options = {
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectTimeoutMs ?? 10_000,
    ...(timeouts.queryTimeoutMs ? { query_timeout: timeouts.queryTimeoutMs } : {}),
    keepAlive: true,
    keepAliveInitialDelayMillis: 5_000,
  };
  const pool = new pg.Pool({ ...options, max });
  const urgentPool = new pg.Pool({ ...options, max: urgentMax });
  // An idle client whose backend was terminated (restart, pg_terminate_backend) is an 'error' on
  // the pool; unhandled, it would end the process. The pool drops that client and opens a new one.
  pool.on('error', () => undefined);
  urgentPool.on('error', () => undefined);
  // Fail at start, with the driver's reason, if the server cannot be reached.
  const probe = await pool.connect();
  probe.release();
  const poolFor = (hint: LaneHint | undefined = currentLaneHint()) =>
    hint?.urgent ? urgentPool : pool;
  // Urgent work holds the gate; normal work passes it before a transaction or a statement.
  const gate = new UrgentGate(URGENT_GATE_MAX_WAIT_MS);
  const gated = async <R>(hint: LaneHint | undefined, work: () => Promise<R>): Promise<R> => {
    if (hint?.urgent) return gate.hold(work, hint.keys);
    await gate.pass(hint?.keys);
    return work();
  };
  let closed = false;
  return {
    kind: 'postgres',
    get queueDepth() {
      return pool.waitingCount;
    },
    poolStats: () =>
      (
        [
          ['normal', pool],
          ['urgent', urgentPool],
        ] as const
      ).map(([name, p]) => ({
        pool: name,
        total: p.totalCount,
        idle: p.idleCount,
        waiting: p.waitingCount,
      })),
    async query<T>(text: string | PreparedSql, params?: unknown[]) {
      const hint = currentLaneHint();
      return gated(
        hint,
        async () => (await poolFor(hint).query(pgQuery(text, params))).rows as T[],
      );
    },
    async exec(script: string) {
      await pool.query({ text: script, query_timeout: EXEC_TIMEOUT_MS } as pg.QueryConfig);
    },
    transaction<T>(
      fn: (tx: Queryable) => Promise<T>,
      hint: LaneHint | undefined = currentLaneHint(),
    ) {
      return gated(hint, () => runTransaction(fn, hint));
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([pool.end(), urgentPool.end()]);
    },
  };

  async function runTransaction<T>(fn: (tx: Queryable) => Promise<T>, hint: LaneHint | undefined) {
    const client = await poolFor(hint).connect();
    // A checked-out client has no listener of the pool's: its backend ending between two
    // statements (a restart, pg_terminate_backend) would be an unhandled 'error' ending the process.
    let broken: Error | undefined;
    const onError = (err: Error) => (broken = err);
    client.on('error', onError);
    const committed: (() => void)[] = [];
    // BEGIN goes out with the transaction's first statement, not a round trip of its own
    // (pg's pipeline mode, on this client while it is checked out): a batch's transaction is
    // a handful of statements, and each turn costs the server a write, a read and a wake-up.
    pipelined(client, true);
    let begun: Promise<unknown> | null = client.query('BEGIN');
    // Its failure surfaces with the first statement's (or ROLLBACK's) turn, never unhandled.
    begun.catch(() => undefined);
    const turn = async <R>(sent: Promise<R>): Promise<R> => {
      if (!begun) return sent;
      const [, result] = await Promise.all([begun, sent]);
      begun = null;
      return result;
    };
    let finished = false;
    const open = () => {
      if (finished) throw new Error('the transaction has committed: nothing may follow commitWith');
    };
    try {
      const result = await fn({
        query: async <R>(t: string | PreparedSql, p?: unknown[]) => {
          open();
          if (!hint?.urgent) await gate.pass(hint?.keys);
          return (await turn(client.query(pgQuery(t, p)))).rows as R[];
        },
        exec: async (script: string) => {
          open();
          await turn(client.query(script));
        },
        afterCommit: (cb) => void committed.push(cb),
        commitWith: async <R>(t: string | PreparedSql, p?: unknown[]) => {
          open();
          // Closed before the gate's wait: nothing may slip in between this and COMMIT.
          finished = true;
          if (!hint?.urgent) await gate.pass(hint?.keys);
          const [answer, commit] = await Promise.all([
            turn(client.query(pgQuery(t, p))),
            client.query('COMMIT'),
          ]);
          // An aborted transaction answers COMMIT with ROLLBACK (no error of its own).
          if (commit.command !== 'COMMIT') throw new Error('the transaction rolled back');
          return answer.rows as R[];
        },
      });
      if (!finished) await turn(client.query('COMMIT'));
      runCommitted(committed);
      return result;
    } catch (err) {
      // A statement that timed out (a cut network): the connection is dropped, not asked to roll
      // back (that would wait as long again); the database rolls back when the backend goes.
      if (!broken && isQueryTimeout(err)) broken = err as Error;
      if (!broken) await client.query('ROLLBACK').catch((e: unknown) => (broken = e as Error));
      throw err;
    } finally {
      pipelined(client, false);
      client.off('error', onError);
      // A broken client is destroyed, not given back to the pool.
      client.release(broken);
    }
  }
}

export function openDb(opts: {
  databaseUrl?: string;
  dataDir?: string;
  databasePoolSize?: number;
  databaseUrgentPoolSize?: number;
  databaseQueryTimeoutMs?: number;
  databaseConnectTimeoutMs?: number;
}): Promise<Db> {
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.databasePoolSize, opts.databaseUrgentPoolSize, {
        queryTimeoutMs: opts.databaseQueryTimeoutMs,
        connectTimeoutMs: opts.databaseConnectTimeoutMs,
      })
    : openPglite(opts.dataDir);
}
