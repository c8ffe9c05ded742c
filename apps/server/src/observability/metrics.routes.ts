import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/client.js';

/**
 * Organisations whose gateways sent readings in the last day but none for `minutes` (a gateway unplugged, a
 * network cut, a broken integration): what an operator alerts on as "ingestion stopped". From wearer_latest (one
 * row per wearer), so it costs a scan of the wearers, not of the readings.
 */
export async function stoppedOrganizations(
  db: Queryable,
  now: Date,
  minutes: number,
): Promise<{ organizationId: string; lastReadingAt: string }[]> {
  const rows = await db.query<{ organization_id: string; last: Date | string }>(
    `SELECT organization_id, max(last_seen_at) AS last FROM wearer_latest
      GROUP BY organization_id
     HAVING max(last_seen_at) > $1::timestamptz - interval '1 day'
        AND max(last_seen_at) < $1::timestamptz - make_interval(mins => $2::int)
      ORDER BY organization_id`,
    [now, minutes],
  );
  return rows.map((r) => ({
    organizationId: r.organization_id,
    lastReadingAt: new Date(r.last).toISOString(),
  }));
}

/** The bearer token of the request, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const ageSeconds = (at: Date | string | null, now: Date) =>
  at === null ? 0 : Math.max(0, (now.getTime() - new Date(at).getTime()) / 1000);

/**
 * GET /metrics in Prometheus' text format (docs/operations.md, "Metrics"). Off unless METRICS_TOKEN is set (404,
 * as if there were no such page); then only a bearer of that token reads it (401 otherwise): the figures name
 * organisations and are never for the internet. The counters are this server's; the gauges read the database at
 * each scrape (every server reports the same values: aggregate them with max, not sum).
 */
export const metricsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const token = ctx.config.metricsToken;
  const registry = ctx.metrics.registry;
  const g = ctx.metricGauges;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token === undefined || registry === null || g === null)
      return reply.code(404).send({ message: 'Metrics are off (METRICS_TOKEN is not set)' });
    if (!bearerMatches(request.headers.authorization, token))
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ message: 'GET /metrics needs the METRICS_TOKEN as a bearer token' });
    const now = ctx.now();
    const db = ctx.db;
    g.openAlerts.reset();
    for (const r of await db.query<{ level: string; n: number }>(
      "SELECT level, count(*)::int AS n FROM alerts WHERE status = 'OPEN' GROUP BY level",
    ))
      g.openAlerts.set({ level: r.level }, r.n);
    const [webhooks] = await db.query<{ n: number; oldest: Date | string | null }>(
      "SELECT count(*)::int AS n, min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
    );
    g.webhookOutboxDepth.set(webhooks?.n ?? 0);
    g.webhookOutboxOldestSeconds.set(ageSeconds(webhooks?.oldest ?? null, now));
    const [outbox] = await db.query<{ n: number; oldest: Date | string | null }>(
      'SELECT count(*)::int AS n, min(created_at) AS oldest FROM alert_outbox',
    );
    g.alertOutboxDepth.set(outbox?.n ?? 0);
    g.alertOutboxOldestSeconds.set(ageSeconds(outbox?.oldest ?? null, now));
    g.busConnected.set(ctx.cluster.connected() ? 1 : 0);
    g.busResyncs.set(ctx.cluster.resyncs());
    g.ingestionBacklog.set(ctx.ingestion.backlog.pending);
    g.ingestionStopped.reset();
    for (const s of await stoppedOrganizations(db, now, ctx.config.ingestionStoppedMinutes))
      g.ingestionStopped.set({ organization: s.organizationId }, 1);
    const [latest] = await db.query<{ last: Date | string | null }>(
      'SELECT max(last_seen_at) AS last FROM wearer_latest',
    );
    g.lastReadingAgeSeconds.set(latest?.last ? ageSeconds(latest.last, now) : -1);
    g.notificationsLastHour.reset();
    for (const r of await db.query<{ channel: string; status: string; n: number }>(
      `SELECT channel, status, count(*)::int AS n FROM notifications
        WHERE created_at > $1::timestamptz - interval '1 hour' GROUP BY channel, status`,
      [now],
    ))
      g.notificationsLastHour.set({ channel: r.channel, status: r.status }, r.n);
    g.summarySnapshotAgeSeconds.set(ctx.summaries.oldestAgeSeconds());
    for (const p of db.poolStats()) {
      g.databaseConnections.set({ pool: p.pool, state: 'busy' }, p.total - p.idle);
      g.databaseConnections.set({ pool: p.pool, state: 'idle' }, p.idle);
      g.databaseWaiting.set({ pool: p.pool }, p.waiting);
    }
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
};
