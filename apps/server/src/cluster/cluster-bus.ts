import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Db } from '../db/client.js';
import { storedAlertsService } from '../modules/alerts/stored-alerts.service.js';
import { type AlertRecord, BUS_EVENTS, type BusEventName, type BusEvents } from '../bus/events.js';
import { siteHeatRepository } from '../modules/site-heat/site-heat.repository.js';
import { openPgLink, type PgLink } from './pg-link.js';
import type { BusTransport } from './transport.js';

export { CLUSTER_CHANNEL, LEADER_LOCK_KEY } from './pg-link.js';

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; wearer batches stay below this. */
const MAX_PAYLOAD = 7_500;
/** wearer.updated events are gathered this long and sent a batch per message. */
const WEARER_FLUSH_MS = 50;
/** After a reconnection, alerts changed since this long before the loss are looked at again. */
const REPLAY_MARGIN_MS = 10_000;
/** At most this many alerts are replayed after one reconnection (a longer gap: the next page load). */
const REPLAY_MAX = 1_000;
/** A message's read that failed is tried again after this, doubling up to READ_RETRY_MAX_MS... */
const READ_RETRY_MS = 100;
const READ_RETRY_MAX_MS = 500;
/** ...for this long (then the next replay after a reconnection covers it). */
const READ_RETRY_FOR_MS = 5 * 60_000;
/** Alert events this process has seen (sent or received), for replays without doubles. */
const SEEN_MAX = 20_000;

/**
 * What goes on the wire: ids, never rows (a receiving server reads the alert itself). `o` is the
 * sending process, so a server ignores its own messages.
 */
export type ClusterMessage =
  | { o: string; e: 'alert.opened' | 'alert.closed' | 'alert.confirmed'; id: string }
  | { o: string; e: 'wearer.updated'; w: [string, string | null, string][] }
  | { o: string; e: 'gateway.credentialChanged'; g: string }
  | { o: string; e: 'bracelet.changed'; org: string; sn: string }
  | { o: string; e: 'sessions.revoked'; u: string; s: string[] }
  | { o: string; e: 'siteHeat.changed'; id: string };

export interface ClusterBus {
  /** 'none' (one process), 'postgres' (LISTEN/NOTIFY) or 'nats'. */
  readonly transport: 'none' | 'postgres' | 'nats';
  /** This process's application_name on its PostgreSQL bus/leader connection (pg_stat_activity). */
  readonly name: string;
  /** True when this server runs the timer jobs: always on one process, the lock holder otherwise. */
  leads(): boolean;
  /** Resolves once subscribed (and the leader connection is up); at once without a cluster. */
  listening(): Promise<void>;
  /** How many times this process resynchronised after losing the bus (tests, /readyz). */
  resyncs(): number;
  /** Whether the bus connection is up now (always on one process); /readyz reports it. */
  connected(): boolean;
  /** Whether this bus event came from another server: re-emitted locally, never sent out again or notified. */
  fromAnotherServer(event: object): boolean;
  close(): Promise<void>;
}

/** One process (PGlite, or no DATABASE_URL): the local bus is the whole bus. */
export const singleServer: ClusterBus = {
  transport: 'none',
  name: '',
  leads: () => true,
  listening: () => Promise.resolve(),
  resyncs: () => 0,
  connected: () => true,
  fromAnotherServer: () => false,
  close: () => Promise.resolve(),
};

type Log = {
  info?(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export interface ClusterOptions {
  databaseUrl: string;
  /** With it, the bus travels over NATS; PostgreSQL then only holds the leader's lock. */
  natsUrl?: string | undefined;
  leaderRetryMs?: number;
  /**
   * Called after the bus came back from a loss, before missed alerts are replayed: drop every
   * cache another server's events would have invalidated (credentials, bracelets, snapshots).
   */
  onResync?: () => void;
}

/**
 * The cross-server bus: local bus events other servers must see are sent on the transport
 * (PostgreSQL NOTIFY, or NATS), and other servers' messages are re-emitted on the local bus.
 * After a lost connection the process resynchronises: caches are dropped (onResync) and the
 * alerts opened, closed or confirmed since shortly before the loss are re-emitted unless this
 * process has already seen them, so a console misses no alert and sees none twice.
 */
export function createClusterBus(
  opts: ClusterOptions,
  db: Db,
  bus: EventEmitter,
  log: Log,
): ClusterBus {
  const origin = randomUUID();
  const applicationName = `wearable-cluster-${origin.slice(0, 8)}`;
  const link: PgLink = openPgLink(opts.databaseUrl, log, {
    listen: !opts.natsUrl,
    leaderRetryMs: opts.leaderRetryMs,
    applicationName,
  });
  const transport: BusTransport = opts.natsUrl ? lazyNats(opts.natsUrl, log) : link.transport;
  let closed = false;
  let resyncs = 0;
  let lostAt: number | null = null;
  let wearerBatch: [string, string | null, string][] = [];
  let wearerTimer: NodeJS.Timeout | null = null;

  // Alert events seen by this process, oldest first, so a replay sends only what was missed.
  const seen = new Set<string>();
  // Events that came from another server, re-emitted here: never sent out again or notified.
  const remote = new WeakSet<object>();
  const fromAnotherServer = (event: object): boolean => remote.has(event);
  const saw = (e: string, id: string) => {
    const key = `${e}:${id}`;
    seen.delete(key);
    seen.add(key);
    if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as string);
  };

  const send = (msg: ClusterMessage) => {
    // Lost while disconnected: the replay after reconnection covers alerts, snapshots expire.
    transport.send(JSON.stringify(msg));
  };
  const flushWearers = () => {
    wearerTimer = null;
    let batch: [string, string | null, string][] = [];
    let size = 0;
    for (const w of wearerBatch) {
      const bytes = JSON.stringify(w).length + 1;
      if (size + bytes > MAX_PAYLOAD - 100) {
        send({ o: origin, e: 'wearer.updated', w: batch });
        batch = [];
        size = 0;
      }
      batch.push(w);
      size += bytes;
    }
    if (batch.length) send({ o: origin, e: 'wearer.updated', w: batch });
    wearerBatch = [];
  };

  const alertOut = (e: 'alert.opened' | 'alert.closed' | 'alert.confirmed') => (a: AlertRecord) => {
    saw(e, a.id);
    send({ o: origin, e, id: a.id });
  };
  const outgoing: { [K in BusEventName]: (e: BusEvents[K]) => void } = {
    'alert.opened': alertOut('alert.opened'),
    'alert.closed': alertOut('alert.closed'),
    'alert.confirmed': alertOut('alert.confirmed'),
    'wearer.updated': (w) => {
      wearerBatch.push([w.organizationId, w.groupId, w.wearerId]);
      wearerTimer ??= setTimeout(flushWearers, WEARER_FLUSH_MS);
    },
    'gateway.credentialChanged': (g) =>
      send({ o: origin, e: 'gateway.credentialChanged', g: g.gatewayId }),
    'bracelet.changed': (b) =>
      send({ o: origin, e: 'bracelet.changed', org: b.organizationId, sn: b.serialNumber }),
    // Session ids are 36 characters: 200 of them stay well under NOTIFY's 8,000 bytes; more are left to the 5 s check.
    'sessions.revoked': (r) =>
      send({ o: origin, e: 'sessions.revoked', u: r.userId, s: r.sessionIds.slice(0, 200) }),
    'siteHeat.changed': (h) => send({ o: origin, e: 'siteHeat.changed', id: h.change.id }),
  };
  const listeners = Object.entries(outgoing).map(([name, fn0]) => {
    const fn = (event: object) => {
      if (!fromAnotherServer(event)) (fn0 as (e: object) => void)(event);
    };
    bus.on(name, fn);
    return [name, fn] as const;
  });

  const emit = <K extends BusEventName>(name: K, event: BusEvents[K]) => {
    remote.add(event);
    bus.emit(name, event);
  };
  const emitAlert = (
    e: 'alert.opened' | 'alert.closed' | 'alert.confirmed',
    alert: AlertRecord,
  ) => {
    saw(e, alert.id);
    emit(e, alert);
  };
  /**
   * Reads what a message names, again after each failure (READ_RETRY_MS, then every
   * READ_RETRY_MAX_MS) until it answers or READ_RETRY_FOR_MS passed; undefined if it never did.
   */
  async function readRetrying<T>(read: () => Promise<T>): Promise<T | undefined> {
    const until = Date.now() + READ_RETRY_FOR_MS;
    for (let wait = READ_RETRY_MS; ; wait = Math.min(READ_RETRY_MAX_MS, wait * 2)) {
      try {
        return await read();
      } catch (err) {
        if (closed || Date.now() + wait > until) {
          log.error({ err }, 'cluster event failed: its read kept failing');
          return undefined;
        }
        log.warn(
          { err: { message: (err as Error).message } },
          'cluster event read failed; retrying',
        );
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
  async function receive(msg: ClusterMessage) {
    if (msg.o === origin) return;
    switch (msg.e) {
      case 'alert.opened':
      case 'alert.closed':
      case 'alert.confirmed': {
        // Already carried here (a replay, or the alert outbox delivering an opened frame again
        // after its server died): a console sees each alert event once.
        if (seen.has(`${msg.e}:${msg.id}`)) return;
        saw(msg.e, msg.id); // before the read, so a replay running meanwhile does not send it too
        // A failed read (the database restarting, a cut) is tried again, never dropped: a console
        // must get the frame of every alert (issue 34: 6 SOS never came as a live frame).
        const alert = await readRetrying(() => storedAlertsService(db).find(msg.id));
        if (alert === undefined)
          seen.delete(`${msg.e}:${msg.id}`); // left to the next replay
        else if (alert) emit(msg.e, alert);
        return;
      }
      case 'wearer.updated':
        for (const [organizationId, groupId, wearerId] of msg.w)
          emit(BUS_EVENTS.wearerUpdated, { organizationId, groupId, wearerId });
        return;
      case 'gateway.credentialChanged':
        return emit(BUS_EVENTS.gatewayCredentialChanged, { gatewayId: msg.g });
      case 'bracelet.changed':
        return emit(BUS_EVENTS.braceletChanged, { organizationId: msg.org, serialNumber: msg.sn });
      case 'sessions.revoked':
        return emit(BUS_EVENTS.sessionsRevoked, { userId: msg.u, sessionIds: msg.s });
      case 'siteHeat.changed': {
        // Read back for the live streams here (notified by the server that stored it).
        const change = await readRetrying(() => siteHeatRepository(db).change(msg.id, new Date()));
        if (change) emit(BUS_EVENTS.siteHeatChanged, change);
        return;
      }
    }
  }
  transport.onMessage = (payload) => {
    let msg: ClusterMessage;
    try {
      msg = JSON.parse(payload) as ClusterMessage;
    } catch {
      return;
    }
    receive(msg).catch((err: unknown) => log.error({ err }, 'cluster event failed'));
  };

  /** Re-emits what other servers sent while this one was cut off (read back from the alerts table). */
  async function replay(since: Date) {
    const rows = await db.query<{ id: string }>(
      `SELECT id FROM alerts
        WHERE created_at >= $1 OR closed_at >= $1 OR confirmed_at >= $1
        ORDER BY created_at LIMIT ${REPLAY_MAX}`,
      [since],
    );
    let replayed = 0;
    for (const { id } of rows) {
      const alert = await storedAlertsService(db).find(id);
      if (!alert || closed) continue;
      const missed = (e: 'alert.opened' | 'alert.closed' | 'alert.confirmed') =>
        !seen.has(`${e}:${id}`);
      if (missed('alert.opened')) {
        emitAlert('alert.opened', alert);
        replayed++;
      }
      if (alert.status === 'CLOSED' && missed('alert.closed')) {
        emitAlert('alert.closed', alert);
        replayed++;
      }
      if (alert.confirmedAt && alert.closeReason !== 'confirmed' && missed('alert.confirmed')) {
        emitAlert('alert.confirmed', alert);
        replayed++;
      }
    }
    return replayed;
  }
  transport.onLost = () => {
    lostAt ??= Date.now();
    log.warn(
      { transport: opts.natsUrl ? 'nats' : 'postgres' },
      'cluster bus lost; events are replayed after reconnection',
    );
  };
  transport.onReconnect = () => {
    const since = new Date((lostAt ?? Date.now()) - REPLAY_MARGIN_MS);
    lostAt = null;
    resyncs++;
    try {
      opts.onResync?.();
    } catch (err) {
      log.error({ err }, 'cluster resync failed');
    }
    replay(since)
      .then((n) => log.info?.({ replayed: n }, 'cluster bus back; missed alerts replayed'))
      .catch((err: unknown) => log.error({ err }, 'cluster replay failed'));
  };

  return {
    transport: opts.natsUrl ? 'nats' : 'postgres',
    name: applicationName,
    leads: () => link.leads(),
    listening: () => Promise.all([transport.ready(), link.transport.ready()]).then(() => undefined),
    resyncs: () => resyncs,
    connected: () => transport.connected(),
    fromAnotherServer,
    async close() {
      closed = true;
      if (wearerTimer) clearTimeout(wearerTimer);
      for (const [name, fn] of listeners) bus.off(name, fn);
      if (transport !== link.transport) await transport.close();
      await link.close();
    },
  };
}

/**
 * The NATS transport, its client loaded only when NATS_URL is set (a server on PostgreSQL NOTIFY
 * never loads it). Until the module is loaded, sends are dropped (nothing is connected yet anyway).
 */
function lazyNats(url: string, log: Log): BusTransport {
  let inner: BusTransport | null = null;
  let closed = false;
  const outer: BusTransport = {
    onMessage: () => undefined,
    onLost: () => undefined,
    onReconnect: () => undefined,
    send: (payload) => inner?.send(payload) ?? false,
    connected: () => inner?.connected() ?? false,
    ready: () => loaded.then((t) => t.ready()),
    close: async () => {
      closed = true;
      await (await loaded).close();
    },
  };
  const loaded = import('./nats-transport.js').then(({ openNatsTransport }) => {
    const t = openNatsTransport(url, log);
    t.onMessage = (p) => outer.onMessage(p);
    t.onLost = () => outer.onLost();
    t.onReconnect = () => outer.onReconnect();
    inner = t;
    if (closed) void t.close();
    return t;
  });
  return outer;
}
