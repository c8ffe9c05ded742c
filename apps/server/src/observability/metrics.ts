import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What this server counts for Prometheus (issue 39 item 1; docs/operations.md, "Metrics"). One registry per app
 * (tests build many apps in one process). Off (METRICS_TOKEN unset), every method is a no-op: the ingestion path
 * pays one property read. Labels stay bounded: gateway types, refusal reasons (classified), alert levels,
 * channels; organisations only in `wearable_ingestion_stopped`, bounded by the organisations.
 */
export interface Metrics {
  readonly registry: Registry | null;
  /** One batch answered: what was stored, duplicated and refused, and how long it took. */
  batch(gatewayType: string, urgent: boolean, seconds: number, counts: BatchCounts): void;
  /** Items refused, by their classified reason (gateway-refusals/refusal-reasons.ts). */
  refused(reason: string, n: number): void;
  /** An opened alert's live frame written to this server's consoles, `seconds` after it was raised. */
  livePushed(level: string, seconds: number): void;
}

export interface BatchCounts {
  accepted: number;
  duplicates: number;
  rejected: number;
}

/** Gauges read from the database and the process at each scrape (metrics.routes.ts sets them). */
export interface ScrapeGauges {
  openAlerts: Gauge<'level'>;
  webhookOutboxDepth: Gauge;
  webhookOutboxOldestSeconds: Gauge;
  alertOutboxDepth: Gauge;
  alertOutboxOldestSeconds: Gauge;
  busConnected: Gauge;
  busResyncs: Gauge;
  ingestionBacklog: Gauge;
  ingestionStopped: Gauge<'organization'>;
  lastReadingAgeSeconds: Gauge;
  notificationsLastHour: Gauge<'channel' | 'status'>;
  databaseConnections: Gauge<'pool' | 'state'>;
  databaseWaiting: Gauge<'pool'>;
  summarySnapshotAgeSeconds: Gauge;
}

const NOOP: Metrics = { registry: null, batch() {}, refused() {}, livePushed() {} };

export function createMetrics(enabled: boolean): { metrics: Metrics; gauges: ScrapeGauges | null } {
  if (!enabled) return { metrics: NOOP, gauges: null };
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'wearable_' });
  const items = new Counter({
    name: 'wearable_ingested_items_total',
    help: 'Gateway items (readings, events, environment, pairings, acknowledgements) by outcome',
    labelNames: ['gateway_type', 'outcome'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'wearable_refused_items_total',
    help: 'Gateway items refused, by reason (the reasons of the gateway page)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const batches = new Histogram({
    name: 'wearable_batch_duration_seconds',
    help: 'From a batch reaching ingestion to its answer (after commit); urgent = carries an SOS or a fall',
    labelNames: ['gateway_type', 'urgent'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const livePush = new Histogram({
    name: 'wearable_alert_live_push_seconds',
    help: "From an alert's raise (its commit by the engine) to its live frame written to this server's consoles, by level",
    labelNames: ['level'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const gauge = <L extends string = never>(name: string, help: string, labelNames?: L[]) =>
    new Gauge<L>({ name, help, labelNames: labelNames ?? [], registers: [registry] });
  const gauges: ScrapeGauges = {
    openAlerts: gauge('wearable_open_alerts', 'Alerts open now, by level', ['level']),
    webhookOutboxDepth: gauge('wearable_webhook_outbox_depth', 'Webhook deliveries waiting'),
    webhookOutboxOldestSeconds: gauge(
      'wearable_webhook_outbox_oldest_seconds',
      'Age of the oldest webhook delivery waiting (0: none)',
    ),
    alertOutboxDepth: gauge(
      'wearable_alert_outbox_depth',
      'Alert outbox rows (live frames, notices) not delivered yet',
    ),
    alertOutboxOldestSeconds: gauge(
      'wearable_alert_outbox_oldest_seconds',
      'Age of the oldest alert outbox row (0: none)',
    ),
    busConnected: gauge('wearable_bus_connected', '1 if the cross-server bus is connected'),
    busResyncs: gauge('wearable_bus_resyncs', 'Times the bus resynchronised since start'),
    ingestionBacklog: gauge('wearable_ingestion_backlog', 'Batches queued or running now'),
    ingestionStopped: gauge(
      'wearable_ingestion_stopped',
      '1 for an organisation whose gateways sent readings in the last day but none for INGESTION_STOPPED_MINUTES',
      ['organization'],
    ),
    lastReadingAgeSeconds: gauge(
      'wearable_last_reading_age_seconds',
      'Seconds since the newest reading of any wearer (-1: none yet)',
    ),
    notificationsLastHour: gauge(
      'wearable_notifications_last_hour',
      'Notices (SMS, calls, mail) created in the last hour, by channel and status (queued, sent, delivered, failed, withheld = held by the notice policy)',
      ['channel', 'status'],
    ),
    databaseConnections: gauge(
      'wearable_database_connections',
      'Database connections of this server by pool (normal, urgent) and state (busy, idle)',
      ['pool', 'state'],
    ),
    databaseWaiting: gauge(
      'wearable_database_waiting',
      'Calls of this server waiting for a database connection, by pool',
      ['pool'],
    ),
    summarySnapshotAgeSeconds: gauge(
      'wearable_summary_snapshot_age_seconds',
      'Since the oldest wearer summary this server holds was read whole (events patch it between; SUMMARY_MAX_STALE_MS bounds it); 0: none held',
    ),
  };
  const metrics: Metrics = {
    registry,
    batch(gatewayType, urgent, seconds, counts) {
      batches.observe({ gateway_type: gatewayType, urgent: urgent ? 'true' : 'false' }, seconds);
      if (counts.accepted > 0)
        items.inc({ gateway_type: gatewayType, outcome: 'accepted' }, counts.accepted);
      if (counts.duplicates > 0)
        items.inc({ gateway_type: gatewayType, outcome: 'duplicate' }, counts.duplicates);
      if (counts.rejected > 0)
        items.inc({ gateway_type: gatewayType, outcome: 'rejected' }, counts.rejected);
    },
    refused(reason, n) {
      refusals.inc({ reason }, n);
    },
    livePushed(level, seconds) {
      livePush.observe({ level }, Math.max(0, seconds));
    },
  };
  return { metrics, gauges };
}
