import pg from 'pg';
import type { BusTransport } from './transport.js';

/** The PostgreSQL channel every server LISTENs on. */
export const CLUSTER_CHANNEL = 'wearable_bus';
/** Held by the one server that runs the timer jobs (escalation sweep, engine tick, retention). */
export const LEADER_LOCK_KEY = 0x5745_4152; // 'WEAR'

type Log = { warn(obj: object, msg: string): void };

export interface PgLink {
  /** True while this process holds the leader's advisory lock. */
  leads(): boolean;
  /** The LISTEN/NOTIFY transport on this connection (when opened with `listen`). */
  transport: BusTransport;
  close(): Promise<void>;
}

/**
 * One dedicated PostgreSQL connection (outside the pools): holds the leader's session advisory
 * lock and, with `listen`, carries the bus as LISTEN/NOTIFY (one connection, so one server's
 * events keep their order). Reconnects with backoff (250 ms doubling to 10 s) when its
 * connection drops; the lock goes with the connection, so another server may take over.
 */
export function openPgLink(
  url: string,
  log: Log,
  opts: { listen: boolean; leaderRetryMs?: number; applicationName: string },
): PgLink {
  let client: pg.Client | null = null;
  let closed = false;
  let leader = false;
  let backoff = 250;
  let everConnected = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const transport: BusTransport = {
    onMessage: () => undefined,
    onLost: () => undefined,
    onReconnect: () => undefined,
    ready: () => ready,
    connected: () => client !== null && everConnected,
    send(payload) {
      if (!client || !opts.listen) return false;
      serially(client, 'SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, payload]).catch(
        (err: unknown) => log.warn({ err }, 'cluster notify failed'),
      );
      return true;
    },
    close: () => close(),
  };

  // One statement at a time on the dedicated client (node-postgres deprecates overlapping calls).
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(c: pg.Client, text: string, params: unknown[] = []) => {
    const run = queue.then(() => c.query<T & pg.QueryResultRow>(text, params));
    queue = run.catch(() => undefined);
    return run;
  };

  async function tryLead(c: pg.Client) {
    if (leader || closed || client !== c) return;
    const rows = await serially<{ got: boolean }>(c, 'SELECT pg_try_advisory_lock($1) AS got', [
      LEADER_LOCK_KEY,
    ]);
    leader = rows.rows[0]?.got === true;
  }
  const leaderTimer = setInterval(() => {
    if (client) tryLead(client).catch(() => undefined);
  }, opts.leaderRetryMs ?? 5_000);
  leaderTimer.unref();

  let connectedOnce = false;
  async function connect(): Promise<void> {
    if (closed) return;
    // Named, so an operator (or a test) can find this process's bus connection in pg_stat_activity.
    const c = new pg.Client({ connectionString: url, application_name: opts.applicationName });
    let up = false;
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = null;
      leader = false;
      if (err) log.warn({ err }, 'cluster connection lost; reconnecting');
      c.end().catch(() => undefined);
      if (up) transport.onLost();
      if (!closed) setTimeout(() => void connect(), backoff).unref();
      backoff = Math.min(backoff * 2, 10_000);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (n) => {
      if (n.channel === CLUSTER_CHANNEL && n.payload) transport.onMessage(n.payload);
    });
    try {
      client = c;
      await c.connect();
      if (opts.listen) await serially(c, `LISTEN ${CLUSTER_CHANNEL}`);
      backoff = 250;
      up = true;
      everConnected = true;
      await tryLead(c);
      if (connectedOnce) transport.onReconnect();
      connectedOnce = true;
      markReady();
    } catch (err) {
      lost(err);
    }
  }
  void connect();

  async function close() {
    if (closed) return;
    closed = true;
    clearInterval(leaderTimer);
    const c = client;
    client = null;
    leader = false;
    await c?.end().catch(() => undefined);
  }

  return { leads: () => leader, transport, close };
}
