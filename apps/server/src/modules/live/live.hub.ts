import type { ServerResponse } from 'node:http';
import { type Actor, can, type LiveAlertEvent, type LiveSiteHeatEvent } from '@wearable/domain';
import { SYSTEM_ACTOR } from '../../access/scope-sql.js';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type BusEvents } from '../../bus/events.js';
import { toAlertView } from '../alerts/alerts.service.js';
import { alertRowOf } from './alert-payload.js';
import { deviceDataService, toWearerSummary } from '../device-data/device-data.service.js';

export const HEARTBEAT_MS = 15_000;
/** Summary changes are gathered this long and fetched in a few queries. */
export const SUMMARY_FLUSH_MS = 1_000;
/**
 * Wearers per summary query: on PGlite (one connection) a query over thousands of changed
 * wearers would hold the database long enough to delay an SOS behind it; small ones let the
 * priority lane put urgent work in between.
 */
const FLUSH_CHUNK = 200;
/**
 * A client whose socket still holds this much unsent data gets no summary frames until it
 * drains: an alert written after megabytes of superseded latest values would reach the console
 * seconds late. The wearers it missed are sent at a later flush (latest values, not history).
 */
export const SUMMARY_BACKLOG_BYTES = 64 * 1024;

interface Client {
  actor: Actor;
  /** Wearers whose summary frame was held back while the socket was congested. */
  owed: Set<string>;
  res: ServerResponse;
}

type Log = { error(obj: object, msg: string): void };

/** The same rule as every wearer query: can(actor, permission, where the wearer is). */
const sees = (
  actor: Actor,
  permission: 'wearer:read' | 'alert:read',
  w: { organizationId: string; groupId: string | null; wearerId: string | null },
) =>
  can(actor, permission, {
    organizationId: w.organizationId,
    groupIds: w.groupId === null ? [] : [w.groupId],
    // A device no wearer holds (issue 34): where its gateway is, as the alerts list decides.
    ...(w.wearerId === null ? {} : { wearerId: w.wearerId }),
  });

/**
 * The live stream's fan-out: bus events become SSE frames for the clients allowed to see
 * them (the same rule as the summary). Alert frames come from memory (alert-payload.ts); one
 * query per second for summaries.
 */
export function liveHub(ctx: AppContext, log: Log) {
  const clients = new Set<Client>();
  const pendingWearers = new Set<string>();

  const send = (c: Client, frame: string) => {
    if (!c.res.writableEnded && !c.res.destroyed) c.res.write(frame);
  };
  const write = (c: Client, event: string, data: unknown) =>
    send(c, `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  async function onAlert(action: LiveAlertEvent['action'], alert: BusEvents['alert.opened']) {
    const where = {
      organizationId: alert.organizationId,
      groupId: alert.groupId,
      wearerId: alert.wearerId,
    };
    // The wearer's summary (open alerts) follows at the next flush: the frame that confirms what
    // the console made of the alert event, so it never refetches the whole summary.
    if (clients.size && alert.wearerId !== null) pendingWearers.add(alert.wearerId);
    const audience = [...clients].filter((c) => sees(c.actor, 'alert:read', where));
    if (!audience.length) return;
    const row = await alertRowOf(ctx, log, alert);
    if (!row) return;
    const data = { action, alert: toAlertView(row) } satisfies LiveAlertEvent;
    for (const c of audience) write(c, 'alert', data);
    if (action === 'opened')
      ctx.metrics.livePushed(
        alert.level,
        (ctx.now().getTime() - new Date(alert.createdAt).getTime()) / 1000,
      );
  }

  async function flushSummaries() {
    const all = new Set(pendingWearers);
    pendingWearers.clear();
    for (const c of clients) for (const id of c.owed) all.add(id);
    if (!all.size || !clients.size) return;
    const ids = [...all];
    for (const c of clients) c.owed.clear();
    const now = ctx.now();
    for (let i = 0; i < ids.length; i += FLUSH_CHUNK) {
      for (const row of await deviceDataService(ctx).summaryRows(SYSTEM_ACTOR, {
        wearerIds: ids.slice(i, i + FLUSH_CHUNK),
      })) {
        const summary = toWearerSummary(row, now);
        for (const c of clients) {
          if (
            sees(c.actor, 'wearer:read', {
              organizationId: row.organization_id,
              groupId: row.group_id,
              wearerId: row.uid,
            })
          ) {
            if (c.res.writableLength > SUMMARY_BACKLOG_BYTES) c.owed.add(row.uid);
            else write(c, 'summary', summary);
          }
        }
      }
    }
  }

  const onOpened = (a: BusEvents['alert.opened']) =>
    void onAlert('opened', a).catch((err: unknown) => log.error({ err }, 'live alert failed'));
  const onClosed = (a: BusEvents['alert.closed']) =>
    void onAlert(a.closeReason === 'confirmed' ? 'confirmed' : 'closed', a).catch((err: unknown) =>
      log.error({ err }, 'live alert failed'),
    );
  const onConfirmed = (a: BusEvents['alert.confirmed']) =>
    void onAlert('confirmed', a).catch((err: unknown) => log.error({ err }, 'live alert failed'));
  const onWearer = (w: BusEvents['wearer.updated']) => {
    if (clients.size) pendingWearers.add(w.wearerId);
  };
  // A site's change of heat level: to staff who see its gateway (the same rule as GET …/siteHeat).
  const onSiteHeat = (e: BusEvents['siteHeat.changed']) => {
    const where = {
      organizationId: e.organizationId,
      groupIds: e.site.groupId === null ? [] : [e.site.groupId],
    };
    const data = { site: e.site, change: e.change } satisfies LiveSiteHeatEvent;
    for (const c of clients) if (can(c.actor, 'gateway:read', where)) write(c, 'siteHeat', data);
  };
  ctx.bus.on(BUS_EVENTS.alertOpened, onOpened);
  ctx.bus.on(BUS_EVENTS.siteHeatChanged, onSiteHeat);
  ctx.bus.on(BUS_EVENTS.alertClosed, onClosed);
  ctx.bus.on(BUS_EVENTS.alertConfirmed, onConfirmed);
  ctx.bus.on(BUS_EVENTS.wearerUpdated, onWearer);

  const heartbeat = setInterval(() => {
    for (const c of clients) send(c, ': heartbeat\n\n');
  }, HEARTBEAT_MS);
  const flusher = setInterval(() => {
    flushSummaries().catch((err: unknown) => log.error({ err }, 'live summary failed'));
  }, SUMMARY_FLUSH_MS);
  heartbeat.unref();
  flusher.unref();

  return {
    add(actor: Actor, res: ServerResponse): () => void {
      const client: Client = { actor, res, owed: new Set() };
      clients.add(client);
      // Its summary snapshot gives the names for alert frames without a query per alert.
      ctx.summaries.warm(actor);
      return () => clients.delete(client);
    },
    get size() {
      return clients.size;
    },
    /** Ends every stream (app close) and stops listening. */
    close() {
      clearInterval(heartbeat);
      clearInterval(flusher);
      ctx.bus.off(BUS_EVENTS.alertOpened, onOpened);
      ctx.bus.off(BUS_EVENTS.alertClosed, onClosed);
      ctx.bus.off(BUS_EVENTS.alertConfirmed, onConfirmed);
      ctx.bus.off(BUS_EVENTS.wearerUpdated, onWearer);
      ctx.bus.off(BUS_EVENTS.siteHeatChanged, onSiteHeat);
      for (const c of clients) c.res.end();
      clients.clear();
    },
  };
}
