import { EventEmitter } from 'node:events';
import { createMetrics, type Metrics, type ScrapeGauges } from './observability/metrics.js';
import { createTracing, type Tracing } from './observability/tracing.js';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { createClusterBus, singleServer } from './cluster/cluster-bus.js';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { createEngineRuntime, type EngineRuntime } from './modules/alerts/engine-runtime.js';
import type { CoreContext } from './core-context.js';
import type { Bus } from './bus/events.js';
import { createWearerUpdates, type WearerUpdates } from './bus/wearer-updates.js';
import { IdentityCache } from './modules/auth/identity-cache.js';
import { createTokenService, type TokenService } from './modules/auth/token.service.js';
import { SummarySnapshots } from './modules/device-data/summary-snapshot.js';
import { PlaceSnapshots } from './modules/places/place-snapshot.js';
import { createIngestionState, type IngestionState } from './modules/ingestion/ingestion-caches.js';
import { mailService, type Mailer } from './modules/mail/mail.service.js';
import { GatewayRefusalsBuffer } from './modules/gateway-refusals/gateway-refusals.buffer.js';
import {
  createVendorGatewayState,
  type VendorGatewayState,
} from './modules/vendor-gateways/vendor-gateways.state.js';
import { forgetAllOwners } from './modules/vendor-gateways/registered-devices.js';
import { createRollupFolder, type RollupFolder } from './modules/readings/rollup-folder.js';
import {
  createSiteHeatRuntime,
  type SiteHeatRuntime,
} from './modules/site-heat/site-heat-cache.js';
import {
  embeddedOutboxProvider,
  type NotificationProvider,
} from './modules/notifications/notification-provider.js';
import { twilioProvider } from './modules/notifications/twilio.provider.js';
import { createWebhookRuntime, type WebhookRuntime } from './modules/webhooks/webhook-runtime.js';
import {
  type AlertOutboxRuntime,
  createAlertOutboxRuntime,
} from './modules/alert-outbox/alert-outbox-runtime.js';

/**
 * What every service is given: configuration, the database, the event bus, the clock, and the
 * things the app holds in memory or talks to, each a named field created here and released in
 * `closeContext()`.
 */
export interface AppContext extends CoreContext {
  /** Outgoing mail: SMTP_URL, else .eml files under DATA_DIR/mail; every mail in the notification log. */
  mail: Mailer;
  /** SMS and phone calls: Twilio when configured, else the embedded log (and DATA_DIR/sms files). */
  phone: NotificationProvider;
  /** Who a token belongs to, for a few seconds (emptied on every write through `db`). */
  identityCache: IdentityCache;
  /** Signs and verifies access tokens. */
  tokens: TokenService;
  /** GET /v3/device/summary from memory, per organisation. */
  summaries: SummarySnapshots;
  /** /map's wearers with their stored places from memory, per organisation. */
  placeSnapshots: PlaceSnapshots;
  /** Gateway credentials, bracelet look-ups, last-seen writes and the ingestion backlog. */
  ingestion: IngestionState;
  /**
   * Vendor gateways' kinds and secret paths, heard devices' organisations, the unknown devices
   * waiting to be written, LoRaWAN step totals (vendor-gateways.state.ts).
   */
  vendorGateways: VendorGatewayState;
  /** Prometheus counters (observability/metrics.ts): no-ops unless METRICS_TOKEN is set. */
  metrics: Metrics;
  /** Optional OpenTelemetry traces (observability/tracing.ts). */
  tracing: Tracing;
  /** The gauges /metrics sets at each scrape; null when metrics are off. */
  metricGauges: ScrapeGauges | null;
  /** What gateways sent that was refused, counted between writes (gateway-refusals.buffer.ts). */
  gatewayRefusals: GatewayRefusalsBuffer;
  /** The alert engine's per-wearer state hints. */
  engine: EngineRuntime;
  /** Trailing 'wearer.updated' events, at most one a second per wearer. */
  wearerUpdates: WearerUpdates;
  /** Rollups and latest values folded in memory, written every ROLLUP_FLUSH_MS. */
  rollups: RollupFolder;
  /** Each organisation's site heat policy and time zone, for a short while (site-heat-cache.ts). */
  siteHeat: SiteHeatRuntime;
  /** Wakes this server's webhook delivery worker after an outbox write commits. */
  webhooks: WebhookRuntime;
  /** Wakes this server's alert outbox deliverers after an alert commits (alert-outbox.worker.ts). */
  alertOutbox: AlertOutboxRuntime;
}

export function createContext(
  config: Config,
  db: Db,
  now: () => Date = () => new Date(),
  log: FastifyBaseLogger = pino({ level: config.logLevel }),
): AppContext {
  const bus: Bus = new EventEmitter();
  bus.setMaxListeners(0);
  // Through ctx.now, so a test that moves the clock moves it for mail and SMS too.
  const clock = () => ctx.now();
  // Built in dependency order: the token service and the snapshots read the fields above them.
  const ctx = { config, db, bus, now, log } as AppContext;
  ctx.mail = mailService(config, db, clock);
  ctx.phone = config.twilio
    ? twilioProvider(config.twilio)
    : embeddedOutboxProvider(join(config.dataDir, 'sms'), clock);
  ctx.identityCache = IdentityCache.watching(db);
  ctx.tokens = createTokenService(ctx);
  ctx.summaries = new SummarySnapshots(ctx, log);
  ctx.placeSnapshots = new PlaceSnapshots(ctx, log);
  ctx.ingestion = createIngestionState();
  ctx.vendorGateways = createVendorGatewayState(
    db,
    config.unknownDevicesPerGateway,
    config.vendorPresenceIntervalMs,
    () => ctx.now().getTime(),
  );
  const observed = createMetrics(config.metricsToken !== undefined);
  ctx.metrics = observed.metrics;
  ctx.metricGauges = observed.gauges;
  ctx.tracing = createTracing(config.otelEndpoint);
  ctx.gatewayRefusals = new GatewayRefusalsBuffer(db, log, clock, ctx.metrics);
  ctx.engine = createEngineRuntime();
  ctx.wearerUpdates = createWearerUpdates();
  ctx.rollups = createRollupFolder(ctx);
  ctx.siteHeat = createSiteHeatRuntime();
  ctx.webhooks = createWebhookRuntime();
  ctx.alertOutbox = createAlertOutboxRuntime();
  ctx.cluster =
    db.kind === 'postgres' && config.databaseUrl
      ? createClusterBus(
          {
            databaseUrl: config.databaseUrl,
            natsUrl: config.natsUrl,
            // Events missed while the bus was down: forget what they would have invalidated.
            onResync: () => {
              ctx.summaries.markAllDirty();
              ctx.placeSnapshots.markAllDirty();
              ctx.ingestion.gateways.clear();
              ctx.ingestion.bracelets.clear();
              ctx.ingestion.pendingConfig.clear();
              forgetAllOwners(ctx.vendorGateways.owners);
              ctx.identityCache.bump();
            },
          },
          db,
          bus,
          log,
        )
      : singleServer;
  return ctx;
}

/** Releases what the context holds (the app's onClose calls it once; the database is closed by its opener). */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.tracing
    .shutdown()
    .catch((err: unknown) => ctx.log.warn({ err }, 'the last traces could not be sent'));
  // Coalesced presence first: its batches fold rollups, written by the rollup flush below.
  await ctx.vendorGateways.presence
    .close()
    .catch((err: unknown) => ctx.log.error({ err }, 'last write of coalesced presence failed'));
  // What was folded since the last flush is written before the database closes.
  await ctx.rollups
    .close()
    .catch((err: unknown) => ctx.log.error({ err }, 'last rollup flush failed'));
  await ctx.vendorGateways.unknownDevices
    .close()
    .catch((err: unknown) => ctx.log.error({ err }, 'last write of unknown devices failed'));
  await ctx.gatewayRefusals
    .close()
    .catch((err: unknown) => ctx.log.error({ err }, 'last write of gateway refusals failed'));
  await ctx.cluster.close();
  ctx.summaries.close();
  ctx.placeSnapshots.close();
  ctx.wearerUpdates.close();
  ctx.identityCache.bump();
  await ctx.mail.close();
}
