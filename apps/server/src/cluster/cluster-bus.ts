import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Db } from '../db/client.js';
import { findAlert } from '../engine/alert-writes.repository.js';
import { BUS_EVENTS, type BusEventName, type BusEvents } from '../engine/events.js';

/** The PostgreSQL channel every server LISTENs on. */
export const CLUSTER_CHANNEL = 'wearable_bus';
/** Held by the one server that runs the timer jobs (escalation sweep, engine tick, retention). */
export const LEADER_LOCK_KEY = 0x5745_4152; // 'WEAR'
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; wearer batches stay below this. */
const MAX_PAYLOAD = 7_500;
/** wearer.updated events are gathered this long and sent a batch per NOTIFY. */
const WEARER_FLUSH_MS = 50;

/**
 * What goes on the wire: ids, never rows (a receiving server reads the alert itself). `o` is the
 * sending process, so a server ignores its own notifications.
 */
export type ClusterMessage =
  | { o: string; e: 'alert.opened' | 'alert.closed' | 'alert.confirmed'; id: string }
  | { o: string; e: 'wearer.updated'; w: [string, string | null, string][] }
  | { o: string; e: 'gateway.credentialChanged'; g: string }
  | { o: string; e: 'bracelet.changed'; org: string; sn: string };

export interface ClusterBus {
  /** True when this server runs the timer jobs: always on one process, the lock holder otherwise. */
  leads(): boolean;
  /** Resolves once LISTEN is in place (at once without a cluster); tests wait for it. */
  listening(): Promise<void>;
  close(): Promise<void>;
}

/** Events that came from another server: re-emitted locally, never sent out again or notified. */
const remote = new WeakSet<object>();
export const fromAnotherServer = (event: object): boolean => remote.has(event);

/** One process (PGlite, or no DATABASE_URL): the local bus is the whole bus. */
export const singleServer: ClusterBus = {
  leads: () => true,
  listening: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * The cross-server bus on PostgreSQL LISTEN/NOTIFY: local bus events other servers must see are
 * NOTIFYed, and notifications of other servers are re-emitted on the local bus. One dedicated
 * connection (outside the pool) listens, notifies (so one server's events keep their order) and
 * holds the leader's advisory lock; it reconnects with backoff when PostgreSQL restarts.
 */
export function createClusterBus(
  url: string,
  db: Db,
  bus: EventEmitter,
  log: Log,
  opts: { leaderRetryMs?: number } = {},
): ClusterBus {
  const origin = randomUUID();
  let client: pg.Client | null = null;
  let closed = false;
  let leader = false;
  let backoff = 250;
  let markListening!: () => void;
  const ready = new Promise<void>((resolve) => (markListening = resolve));
  let wearerBatch: [string, string | null, string][] = [];
  let wearerTimer: NodeJS.Timeout | null = null;

  // One statement at a time on the dedicated client (node-postgres deprecates overlapping calls).
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(c: pg.Client, text: string, params: unknown[] = []) => {
    const run = queue.then(() => c.query<T & pg.QueryResultRow>(text, params));
    queue = run.catch(() => undefined);
    return run;
  };
  const notify = (msg: ClusterMessage) => {
    // Lost while disconnected: the snapshots' 10 s hard limit and the credential TTL cover it.
    if (!client) return;
    serially(client, 'SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, JSON.stringify(msg)]).catch((err: unknown) =>
      log.warn({ err }, 'cluster notify failed'),
    );
  };
  const flushWearers = () => {
    wearerTimer = null;
    let batch: [string, string | null, string][] = [];
    let size = 0;
    for (const w of wearerBatch) {
      const bytes = JSON.stringify(w).length + 1;
      if (size + bytes > MAX_PAYLOAD - 100) {
        notify({ o: origin, e: 'wearer.updated', w: batch });
        batch = [];
        size = 0;
      }
      batch.push(w);
      size += bytes;
    }
    if (batch.length) notify({ o: origin, e: 'wearer.updated', w: batch });
    wearerBatch = [];
  };

  const outgoing: { [K in BusEventName]: (e: BusEvents[K]) => void } = {
    'alert.opened': (a) => notify({ o: origin, e: 'alert.opened', id: a.id }),
    'alert.closed': (a) => notify({ o: origin, e: 'alert.closed', id: a.id }),
    'alert.confirmed': (a) => notify({ o: origin, e: 'alert.confirmed', id: a.id }),
    'wearer.updated': (w) => {
      wearerBatch.push([w.organizationId, w.groupId, w.wearerId]);
      wearerTimer ??= setTimeout(flushWearers, WEARER_FLUSH_MS);
    },
    'gateway.credentialChanged': (g) => notify({ o: origin, e: 'gateway.credentialChanged', g: g.gatewayId }),
    'bracelet.changed': (b) => notify({ o: origin, e: 'bracelet.changed', org: b.organizationId, sn: b.serialNumber }),
  };
  const listeners = Object.entries(outgoing).map(([name, send]) => {
    const fn = (event: object) => {
      if (!fromAnotherServer(event)) (send as (e: object) => void)(event);
    };
    bus.on(name, fn);
    return [name, fn] as const;
  });

  const emit = <K extends BusEventName>(name: K, event: BusEvents[K]) => {
    remote.add(event);
    bus.emit(name, event);
  };
  async function receive(msg: ClusterMessage) {
    if (msg.o === origin) return;
    switch (msg.e) {
      case 'alert.opened':
      case 'alert.closed':
      case 'alert.confirmed': {
        const alert = await findAlert(db, msg.id);
        if (alert) emit(msg.e, alert);
        return;
      }
      case 'wearer.updated':
        for (const [organizationId, groupId, wearerId] of msg.w) emit(BUS_EVENTS.wearerUpdated, { organizationId, groupId, wearerId });
        return;
      case 'gateway.credentialChanged':
        return emit(BUS_EVENTS.gatewayCredentialChanged, { gatewayId: msg.g });
      case 'bracelet.changed':
        return emit(BUS_EVENTS.braceletChanged, { organizationId: msg.org, serialNumber: msg.sn });
    }
  }

  async function tryLead(c: pg.Client) {
    if (leader || closed || client !== c) return;
    const rows = await serially<{ got: boolean }>(c, 'SELECT pg_try_advisory_lock($1) AS got', [LEADER_LOCK_KEY]);
    leader = rows.rows[0]?.got === true;
  }
  const leaderTimer = setInterval(() => {
    if (client) tryLead(client).catch(() => undefined);
  }, opts.leaderRetryMs ?? 5_000);
  leaderTimer.unref();

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    const lost = (err?: unknown) => {
      if (client !== c) return;
      // The session's advisory lock went with the connection: another server may take over.
      client = null;
      leader = false;
      if (err) log.warn({ err }, 'cluster bus connection lost; reconnecting');
      c.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connect(), backoff).unref();
      backoff = Math.min(backoff * 2, 10_000);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (n) => {
      if (n.channel !== CLUSTER_CHANNEL || !n.payload) return;
      receive(JSON.parse(n.payload) as ClusterMessage).catch((err: unknown) => log.error({ err }, 'cluster event failed'));
    });
    try {
      client = c;
      await c.connect();
      await serially(c, `LISTEN ${CLUSTER_CHANNEL}`);
      backoff = 250;
      await tryLead(c);
      markListening();
    } catch (err) {
      lost(err);
    }
  }
  void connect();

  return {
    leads: () => leader,
    listening: () => ready,
    async close() {
      closed = true;
      clearInterval(leaderTimer);
      if (wearerTimer) clearTimeout(wearerTimer);
      for (const [name, fn] of listeners) bus.off(name, fn);
      const c = client;
      client = null;
      leader = false;
      await c?.end().catch(() => undefined);
    },
  };
}
