import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { SIGN_IN_METHODS, type SignInMethod } from '@wearable/domain';

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const seconds = z.coerce.number().int().positive();

/** Every environment variable the server reads, with its default. README's table mirrors this. */
const schema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SEED_DEMO: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  // OpenTelemetry traces to this OTLP/HTTP collector (docs/operations.md, Traces); off when unset.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url('must be an http(s) URL').optional(),
  INGESTION_STOPPED_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL: seconds.default(900),
  REFRESH_TOKEN_TTL: seconds.default(60 * 60 * 24 * 30),
  SIGN_IN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  SIGN_IN_WINDOW: seconds.default(900),
  SIGN_IN_ACCOUNT_MAX_FAILURES: z.coerce.number().int().positive().default(20),
  SIGN_IN_ACCOUNT_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(250),
  SIGN_IN_ADDRESS_MAX_FAILURES: z.coerce.number().int().positive().default(100),
  DEMO_PUBLIC: bool.default(false),
  MQTT_PORT: port.default(1883),
  // At least 8: readings up to 7 days old are accepted, and rollups are recomputed from them.
  READINGS_RETENTION_DAYS: z.coerce.number().int().min(8).default(30),
  // The access log (docs/access-log.md): 3 years at least, and never less than the readings.
  ACCESS_LOG_RETENTION_DAYS: z.coerce.number().int().min(1095).default(1095),
  READINGS_PARTITION_DAYS: z.coerce.number().int().min(1).max(31).default(1),
  ENGINE_TICK_SECONDS: z.coerce.number().int().min(0).default(60),
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?|tcp):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\/[^\s]+$/, 'must be a nats:// URL (nats://host:4222)')
    .optional(),
  WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).optional(),
  DATABASE_URGENT_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(1500),
  ALERT_OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  // Set by the primary process for each worker it forks (0 .. WORKERS-1); not for operators.
  WORKER_INDEX: z.coerce.number().int().min(0).max(255).default(0),
  SIMULATOR: bool.default(true),
  SIMULATOR_PAIRING_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
      'must be true, false, a hop count, or a comma-separated list of proxy addresses/CIDRs',
    )
    .default('false'),
  MONITORING_UPSTREAM: z
    .string()
    .regex(/^https?:\/\//, 'must be an http(s) URL template with {o} and {p}')
    .optional(),
  MONITORING_DSN: z
    .string()
    .regex(
      /^https:\/\/[^@/\s]+@o\d{1,20}\.[a-z0-9.-]+(:\d+)?\/\d{1,20}\/?$/i,
      'must be the monitoring DSN, https://<key>@o<organisation>.<host>/<project>',
    )
    .optional(),
  WEB_DIST: z.string().optional(),
  ESCALATION_AFTER_SECONDS: seconds.default(120),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z.string().min(1).optional(),
  TWILIO_API_BASE: z.url().default('https://api.twilio.com'),
  SUMMARY_SNAPSHOT_MS: z.coerce.number().int().min(0).default(1000),
  SUMMARY_MAX_STALE_MS: z.coerce.number().int().min(0).default(60_000),
  INGEST_MAX_PENDING: z.coerce.number().int().positive().default(200),
  // An AB BLE Gateway V4 reports up to 210 advertisements a second (over Ethernet).
  GATEWAY_ADVERTISEMENTS_PER_SECOND: z.coerce.number().positive().default(250),
  GATEWAY_ADVERTISEMENTS_BURST: z.coerce.number().int().min(1).default(5000),
  UNKNOWN_DEVICES_PER_GATEWAY: z.coerce.number().int().min(1).max(10_000).default(200),
  // A merely heard tag's presence is stored at most once per this window per gateway (0: every request).
  VENDOR_PRESENCE_INTERVAL_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  ROLLUP_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  ROLLUP_RECOVERY_SECONDS: z.coerce.number().int().min(1).default(30),
  // /map's outdoor map (docs/map.md): an https:// tile URL template, or `none` for the plain grid only.
  MAP_TILE_URL: z
    .string()
    .regex(
      /^(none|https:\/\/[a-z0-9.{}-]+(:\d+)?\/[^?#\s]*\{z\}[^?#\s]*\{x\}[^?#\s]*\{y\}[^#\s]*)$/i,
      'must be an https:// tile URL template with {z}, {x} and {y} (e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png), or none',
    )
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_TILE_ATTRIBUTION: z.string().min(1).max(200).default('© OpenStreetMap contributors'),
  PUBLIC_URL: z
    .url()
    .regex(/^https?:\/\/[^?#]+$/, 'must be an http(s) URL without query or fragment')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^/]+/,
      'must be an smtp:// or smtps:// URL (smtp://user:password@host:587)',
    )
    .optional(),
  MAIL_FROM: z.string().min(3).max(254).optional(),
  TOTP_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  // https only, except a loopback issuer (a provider on this machine, as in the tests).
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/ })
    .refine(
      (v) =>
        v.startsWith('https://') || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(v),
      'must be an https:// URL (http:// only for localhost)',
    )
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_DISPLAY_NAME: z.string().min(1).max(60).default('OpenID Connect'),
  SIGN_IN_METHODS: z
    .string()
    .regex(
      /^\s*(password|emailLink|phone)(\s*,\s*(password|emailLink|phone))*\s*$/,
      'must be a comma-separated list of password, emailLink, phone',
    )
    .default('password,emailLink,phone'),
  WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
  // Web Push (docs/push.md): the VAPID private key (P-256, 32 bytes base64url); without it one is kept in the db.
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key, 32 bytes base64url (43 characters)')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(https:\/\/|mailto:)\S+$/, 'must be an https: URL or a mailto: address')
    .optional(),
  PUSH_ALLOW_PRIVATE: bool.default(false),
  WEBHOOKS_WORKER: bool.default(true),
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOKS_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5000),
  WEBHOOKS_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  // Chat channels (docs/chat-channels.md): the vendors' API bases (a local fake in tests) and a request's deadline.
  CHAT_SLACK_API_URL: z.url().default('https://slack.com/api'),
  CHAT_LINE_WORKS_API_URL: z.url().default('https://www.worksapis.com/v1.0'),
  CHAT_LINE_WORKS_AUTH_URL: z.url().default('https://auth.worksmobile.com/oauth2/v2.0/token'),
  // LINE Messaging API (family members' LINE, decision 0024): its base (a local fake in tests).
  CHAT_LINE_API_URL: z.url().default('https://api.line.me'),
  CHAT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Fault tests only (crash/*.test.ts), honoured only with NODE_ENV=test: modules/ingestion/test-fault.ts.
  TEST_FAULT: z
    .string()
    .regex(
      /^(urgent-committed|batch-committed):(kill|throw|terminate)$/,
      'must be <urgent-committed|batch-committed>:<kill|throw|terminate>',
    )
    .optional(),
  NODE_ENV: z.string().optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Seed the demo dataset into an empty database. Default: yes on PGlite, no on PostgreSQL. */
  seedDemo: boolean;
  logLevel: string;
  /** A request slower than this (ms) is logged at info; every request is logged at debug. */
  slowRequestMs: number;
  /** GET /metrics (Prometheus) answers a bearer of this token; unset: /metrics is 404. */
  metricsToken: string | undefined;
  /** OTLP/HTTP collector for traces (OTEL_EXPORTER_OTLP_ENDPOINT), or undefined: no traces. */
  otelEndpoint: string | undefined;
  /** An organisation whose gateways sent readings in the last day, but none for this many minutes, has stopped. */
  ingestionStoppedMinutes: number;
  /** Secret for signing access tokens; without one a random secret is kept in the data folder/db. */
  authSecret: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  signInMaxFailures: number;
  signInWindow: number;
  /**
   * Failed sign-ins per account from all addresses within SIGN_IN_WINDOW past which a password alone
   * no longer signs that account in until the window passes (email link or SMS code only).
   */
  signInAccountMaxFailures: number;
  /** Past SIGN_IN_MAX_FAILURES account-wide failures, each attempt waits this, doubled per failure (at most 8 s). */
  signInAccountDelayMs: number;
  /**
   * Failed sign-ins from one client address (all accounts) within SIGN_IN_WINDOW past which its
   * attempts are slowed like an account's past its soft limit; never refused (a shared NAT).
   */
  signInAddressMaxFailures: number;
  /** The demo's published sign-ins and gateway secrets work from other machines too (default: this one only). */
  demoPublic: boolean;
  mqttPort: number;
  mqttUrl: string | undefined;
  /** The cross-server bus travels over NATS instead of PostgreSQL NOTIFY (needs DATABASE_URL). */
  natsUrl: string | undefined;
  /**
   * Server processes on this machine (node:cluster workers sharing PORT): default one on PGlite,
   * the number of cores on PostgreSQL. More than one needs DATABASE_URL.
   */
  workers: number;
  /**
   * PostgreSQL connections per process for ordinary work (readings, pages). Default: twice the
   * cores shared among the workers (4 on a 2-core machine with one process). More connections
   * than cores only make PostgreSQL's backends share the CPU: at 10 an SOS's statements waited
   * behind ten busy backends (p99 1.2-4.0 s), at 4 the same load ingested as fast and the SOS's
   * p99 was 165-201 ms over five runs (bench/RESULTS.md, 2026-11-23).
   */
  databasePoolSize: number;
  /** PostgreSQL connections per process kept for urgent work (SOS and fall batches, credential look-ups). */
  databaseUrgentPoolSize: number;
  /**
   * A PostgreSQL statement's answer is waited for this long (client side), a connection this long:
   * a server cut off from its database answers 503 DATABASE_UNAVAILABLE within ~2 s instead of
   * hanging (issue 34). Migrations are exempt.
   */
  databaseQueryTimeoutMs: number;
  databaseConnectTimeoutMs: number;
  /** The alert outbox deliverers' fallback poll (they are woken on each alert this server commits). */
  alertOutboxPollMs: number;
  /**
   * The deliverers take only alerts this process saw opened (tests: files share one database, each
   * notifies its own alerts). Off in a real server: any server delivers any alert's rows.
   */
  alertOutboxOnlyOwn: boolean;
  /**
   * The leader's channel health sweep (issue 38 item 4). Off in test apps: files share one
   * database, and a sweep would tell one file's owners of another file's failing channel; the
   * tests run the sweep themselves on their own organisation.
   */
  channelHealthSweep: boolean;
  /**
   * A fault test's hook (TEST_FAULT, only with NODE_ENV=test): at an SOS or fall batch's commit
   * (the urgent lane's or the batch's own), the first time, the process dies (SIGKILL), the
   * request throws, or every other backend of the database is terminated. Null in a real server.
   */
  testFault: {
    at: 'urgent-committed' | 'batch-committed';
    action: 'kill' | 'throw' | 'terminate';
  } | null;
  /** This worker's slot (0 .. workers-1), kept when the primary restarts it; slot 0 runs the embedded broker. */
  workerIndex: number;
  /** Full-resolution readings are kept this many days (rollups longer). */
  readingsRetentionDays: number;
  /** Access-log entries are kept this long (at least 1,095 days and the readings' retention). */
  accessLogRetentionDays: number;
  /** Days per partition of the readings table (created ahead by the timer-job leader). */
  readingsPartitionDays: number;
  /** The alert engine's clock tick (disconnection, non-wearing); 0 turns it off. */
  engineTickSeconds: number;
  simulator: boolean;
  /** The demo simulator's gateways report a newly linked bracelet (pairing) this long after the link. */
  simulatorPairingDelaySeconds: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (per-address sign-in
   * limits): false (default, the socket's address), true (any: only behind a proxy that
   * overwrites the header), a hop count, or proxy addresses/CIDRs.
   */
  trustProxy: boolean | number | string[];
  /** Where /monitoring relays envelopes, e.g. https://o{o}.ingest.sentry.io/api/{p}/envelope/. */
  monitoringUpstream: string | undefined;
  /** The one DSN /monitoring relays for (its organisation, project and host); none: nothing relayed. */
  monitoringDsn: string | undefined;
  webDist: string;
  /** An unconfirmed EMERGENCY alert escalates to the next recipients after this many seconds. */
  escalationAfterSeconds: number;
  /** SMS/phone calls go through Twilio when all three are set; otherwise they are only recorded. */
  twilio:
    | {
        accountSid: string;
        authToken: string;
        from: string;
        apiBase: string;
        /**
         * Where Twilio reports each message's and call's status (PUBLIC_URL/v2/notifications/twilio/status);
         * only with PUBLIC_URL set, since Twilio must reach it. Without it attempts stay 'queued'/'sent'.
         */
        statusCallbackUrl?: string | undefined;
      }
    | undefined;
  /** The device summary snapshot is rebuilt at most this often (ms) when something changed. */
  summarySnapshotMs: number;
  /** The whole snapshot is read again (in the background) once its last whole read is this old (ms). */
  summaryMaxStaleMs: number;
  /** Gateway HTTP batches in progress beyond which new non-urgent batches get 503 + Retry-After. */
  ingestMaxPending: number;
  /**
   * Vendor gateways (issue 18): advertisements per second each gateway may send on average, and
   * how many at once (a token bucket); beyond it a request is refused with 429 + Retry-After.
   */
  gatewayAdvertisementsPerSecond: number;
  gatewayAdvertisementsBurst: number;
  /** "Heard, not registered" devices kept per gateway; the least recently heard make room. */
  unknownDevicesPerGateway: number;
  /**
   * Presence-only sightings of a registered tag are coalesced per gateway and tag within this
   * window (ms): the first passes at once, later ones become one reading at the window's end
   * (presence-coalescer.ts). 0 stores one per request. Events and measured values never wait.
   */
  vendorPresenceIntervalMs: number;
  /**
   * Rollups and latest values are folded in memory and written this often (ms) for all wearers
   * at once; 0 writes them after every batch, before its answer (decision record 0011).
   */
  rollupFlushMs: number;
  /** What a process that died before its flush left is recomputed from readings after this long. */
  rollupRecoverySeconds: number;
  /** Where people reach the console (links in mails), without a trailing slash. */
  publicUrl: string;
  /** /map's outdoor tiles (a URL template and its attribution), or null for the plain grid only. */
  mapTiles: { url: string; attribution: string } | null;
  /** Mail leaves through this SMTP server; without it mails are .eml files under DATA_DIR/mail. */
  smtpUrl: string | undefined;
  /** The From of every mail. */
  mailFrom: string;
  /** Key that encrypts TOTP secrets at rest; without it one is generated and kept in the db. */
  totpEncryptionKey: string | undefined;
  /** Social sign-in (OpenID Connect, code + PKCE) when OIDC_ISSUER and OIDC_CLIENT_ID are set. */
  oidc:
    | { issuer: string; clientId: string; clientSecret: string | undefined; displayName: string }
    | undefined;
  /** Sign-in methods offered (the others' endpoints answer 403). */
  signInMethods: SignInMethod[];
  /** Web Push (docs/push.md). */
  push: {
    /** VAPID_PRIVATE_KEY; without it a key is generated once and kept in the database. */
    vapidPrivateKey: string | undefined;
    /** The VAPID `sub` (RFC 8292 §2.1): who the push services may contact. */
    vapidSubject: string;
    /** Push endpoints may be http:// and private addresses (development, tests). */
    allowPrivate: boolean;
  };
  /** Webhooks (docs/webhooks.md). */
  webhooks: {
    /** Endpoints may resolve to loopback, private and CGNAT addresses (development, tests). */
    allowPrivate: boolean;
    /** This process delivers (off in tests that do not deliver, so they share a database quietly). */
    worker: boolean;
    /** A delivery request's deadline, connection to last byte read. */
    timeoutMs: number;
    /** The first retry's delay; each next one doubles (at most an hour), with jitter. */
    retryBaseMs: number;
    /** The worker's fallback poll (it is woken on each outbox write of this server). */
    pollMs: number;
  };
  /** Chat channels (docs/chat-channels.md, decision 0022). */
  chat: {
    slackApiUrl: string;
    lineWorksApiUrl: string;
    lineWorksAuthUrl: string;
    /** The LINE Messaging API's base (https://api.line.me). */
    lineApiUrl: string;
    /** A request's deadline; no answer by then is not resent (it may have been delivered). */
    timeoutMs: number;
    /** The first retry's delay after a 5xx or a refused connection; each next one doubles. */
    retryBaseMs: number;
  };
};

export class ConfigError extends Error {}

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim());
}

/** Parses the environment once; a wrong value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name] ?? '')}: ${issue?.message}`);
  }
  const e = parsed.data;
  if (e.MONITORING_UPSTREAM && !e.MONITORING_DSN) {
    throw new ConfigError(
      'MONITORING_UPSTREAM needs MONITORING_DSN: the tunnel relays only to the configured organisation and project',
    );
  }
  if (e.WORKERS !== undefined && e.WORKERS > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid WORKERS=${e.WORKERS}: PGlite (no DATABASE_URL) is one process; several workers need DATABASE_URL`,
    );
  }
  if (e.NATS_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'NATS_URL needs DATABASE_URL: on PGlite there is one server process and nothing to carry',
    );
  }
  const workers = e.WORKERS ?? (e.DATABASE_URL ? availableParallelism() : 1);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    seedDemo: e.SEED_DEMO ?? e.DATABASE_URL === undefined,
    logLevel: e.LOG_LEVEL,
    slowRequestMs: e.SLOW_REQUEST_MS,
    metricsToken: e.METRICS_TOKEN,
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    ingestionStoppedMinutes: e.INGESTION_STOPPED_MINUTES,
    authSecret: e.AUTH_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    signInMaxFailures: e.SIGN_IN_MAX_FAILURES,
    signInWindow: e.SIGN_IN_WINDOW,
    signInAccountMaxFailures: e.SIGN_IN_ACCOUNT_MAX_FAILURES,
    signInAccountDelayMs: e.SIGN_IN_ACCOUNT_DELAY_MS,
    signInAddressMaxFailures: e.SIGN_IN_ADDRESS_MAX_FAILURES,
    demoPublic: e.DEMO_PUBLIC,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    natsUrl: e.NATS_URL,
    workers,
    databasePoolSize:
      e.DATABASE_POOL_SIZE ?? Math.max(2, Math.ceil((2 * availableParallelism()) / workers)),
    databaseUrgentPoolSize: e.DATABASE_URGENT_POOL_SIZE,
    databaseQueryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    alertOutboxPollMs: e.ALERT_OUTBOX_POLL_MS,
    alertOutboxOnlyOwn: false,
    channelHealthSweep: true,
    testFault:
      e.TEST_FAULT && e.NODE_ENV === 'test'
        ? {
            at: e.TEST_FAULT.split(':')[0] as 'urgent-committed' | 'batch-committed',
            action: e.TEST_FAULT.split(':')[1] as 'kill' | 'throw' | 'terminate',
          }
        : null,
    workerIndex: e.WORKER_INDEX,
    readingsRetentionDays: e.READINGS_RETENTION_DAYS,
    accessLogRetentionDays: Math.max(e.ACCESS_LOG_RETENTION_DAYS, e.READINGS_RETENTION_DAYS),
    readingsPartitionDays: e.READINGS_PARTITION_DAYS,
    engineTickSeconds: e.ENGINE_TICK_SECONDS,
    simulator: e.SIMULATOR,
    simulatorPairingDelaySeconds: e.SIMULATOR_PAIRING_DELAY_SECONDS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    monitoringUpstream: e.MONITORING_UPSTREAM,
    monitoringDsn: e.MONITORING_DSN,
    webDist: resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    escalationAfterSeconds: e.ESCALATION_AFTER_SECONDS,
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM
        ? {
            accountSid: e.TWILIO_ACCOUNT_SID,
            authToken: e.TWILIO_AUTH_TOKEN,
            from: e.TWILIO_FROM,
            apiBase: e.TWILIO_API_BASE,
            statusCallbackUrl: e.PUBLIC_URL
              ? `${e.PUBLIC_URL.replace(/\/+$/, '')}/v2/notifications/twilio/status`
              : undefined,
          }
        : undefined,
    summarySnapshotMs: e.SUMMARY_SNAPSHOT_MS,
    summaryMaxStaleMs: e.SUMMARY_MAX_STALE_MS,
    ingestMaxPending: e.INGEST_MAX_PENDING,
    gatewayAdvertisementsPerSecond: e.GATEWAY_ADVERTISEMENTS_PER_SECOND,
    gatewayAdvertisementsBurst: e.GATEWAY_ADVERTISEMENTS_BURST,
    unknownDevicesPerGateway: e.UNKNOWN_DEVICES_PER_GATEWAY,
    vendorPresenceIntervalMs: e.VENDOR_PRESENCE_INTERVAL_MS,
    rollupFlushMs: e.ROLLUP_FLUSH_MS,
    rollupRecoverySeconds: e.ROLLUP_RECOVERY_SECONDS,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    mapTiles:
      e.MAP_TILE_URL.toLowerCase() === 'none'
        ? null
        : { url: e.MAP_TILE_URL, attribution: e.MAP_TILE_ATTRIBUTION },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'no-reply@localhost',
    totpEncryptionKey: e.TOTP_ENCRYPTION_KEY,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            displayName: e.OIDC_DISPLAY_NAME,
          }
        : undefined,
    signInMethods: SIGN_IN_METHODS.filter((m) =>
      e.SIGN_IN_METHODS.split(',').some((x) => x.trim() === m),
    ),
    push: {
      vapidPrivateKey: e.VAPID_PRIVATE_KEY,
      vapidSubject:
        e.VAPID_SUBJECT ??
        (e.PUBLIC_URL?.startsWith('https://')
          ? e.PUBLIC_URL.replace(/\/+$/, '')
          : `mailto:${(e.MAIL_FROM ?? 'no-reply@localhost').replace(/^.*<([^>]+)>.*$/, '$1')}`),
      allowPrivate: e.PUSH_ALLOW_PRIVATE,
    },
    webhooks: {
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
      worker: e.WEBHOOKS_WORKER,
      timeoutMs: e.WEBHOOKS_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOKS_RETRY_BASE_MS,
      pollMs: e.WEBHOOKS_POLL_MS,
    },
    chat: {
      slackApiUrl: e.CHAT_SLACK_API_URL.replace(/\/+$/, ''),
      lineWorksApiUrl: e.CHAT_LINE_WORKS_API_URL.replace(/\/+$/, ''),
      lineWorksAuthUrl: e.CHAT_LINE_WORKS_AUTH_URL,
      lineApiUrl: e.CHAT_LINE_API_URL.replace(/\/+$/, ''),
      timeoutMs: e.CHAT_TIMEOUT_MS,
      retryBaseMs: 500,
    },
  };
}
