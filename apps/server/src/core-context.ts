import type { FastifyBaseLogger } from 'fastify';
import type { ClusterBus } from './cluster/cluster-bus.js';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Bus } from './bus/events.js';

/**
 * What the app context's own parts are built from: configuration, the database, the buses, the
 * clock and the logger. The parts `context.ts` creates (token service, snapshots, rollups...) take
 * this, not the whole `AppContext`, so no module and the context import each other.
 */
export interface CoreContext {
  config: Config;
  db: Db;
  /** In-process events (new alerts, summary changes) for live streams, typed by `BusEvents`. */
  bus: Bus;
  /**
   * The cross-server bus (PostgreSQL LISTEN/NOTIFY with DATABASE_URL, NATS with NATS_URL): carries
   * `bus` events to the other servers and tells whether this one runs the timer jobs.
   */
  cluster: ClusterBus;
  /** The clock; tests and scripted scenarios may replace it. */
  now: () => Date;
  /** A logger for what runs outside a request (background snapshot rebuilds). */
  log: FastifyBaseLogger;
}
