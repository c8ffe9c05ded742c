import type { FastifyPluginAsync } from 'fastify';
import {
  batchConfirmAlerts,
  confirmAlert,
  endSnooze,
  getAlertLink,
  getAlertTimeline,
  getHandover,
  getResponseTimes,
  getResponseTimesCsv,
  listAlerts,
  listAlertsCsv,
  listSnoozes,
  snoozeAlertType,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { serve } from '../../http/serve.js';
import { noteRead } from '../../plugins/access-log.js';
import { alertsService } from './alerts.service.js';
import { alertLinksService } from './alert-links.service.js';
import { alertTimelineService } from './alert-timeline.service.js';
import { responseTimesCsv } from './response-times-csv.js';
import { responseTimesService } from './response-times.service.js';
import { handoverService } from './handover.service.js';
import { snoozesService } from './snoozes.service.js';

/** /v2/alert/*: the alert history, its CSV export and confirmation. */
export const alertsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const timeline = alertTimelineService(ctx);
  const responseTimes = responseTimesService(ctx);
  const handover = handoverService(ctx);
  const alerts = alertsService(ctx);
  const snoozes = snoozesService(ctx);
  serve(app, listAlerts, (req) => alerts.list(req.actor, req.query), {
    reads: { what: 'alerts', peopleInAnswer: (page) => page.alerts.map((a) => a.wearer?.uid) },
  });

  serve(
    app,
    listAlertsCsv,
    async (req, reply) => {
      const { csv, fileName, wearerIds } = await alerts.csv(req.actor, req.query);
      noteRead(req, wearerIds);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(csv);
    },
    { reads: { what: 'csv' } },
  );

  serve(app, getAlertTimeline, (req) => timeline.alertTimeline(req.actor, req.params.alertId), {
    reads: { what: 'alerts', peopleInAnswer: (t) => [t.alert.wearer?.uid] },
  });

  serve(app, getAlertLink, (req) => alertLinksService(ctx).resolve(req.actor, req.params.code));

  serve(app, getResponseTimes, (req) => responseTimes.responseTimesFor(req.actor, req.query));

  serve(app, getResponseTimesCsv, async (req, reply) => {
    const figures = await responseTimes.responseTimesFor(req.actor, req.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="response-times-${figures.from}-${figures.to}.csv"`,
      )
      .send(responseTimesCsv(figures, req.query.lng ?? 'ja'));
  });

  serve(app, snoozeAlertType, (req) => snoozes.create(req.actor, req.body));
  serve(app, listSnoozes, async (req) => ({
    snoozes: await snoozes.list(req.actor, req.query),
  }));
  serve(app, endSnooze, (req) => snoozes.end(req.actor, req.params.snoozeId));

  serve(app, getHandover, (req) => handover.handover(req.actor, req.query), {
    reads: {
      what: 'handover',
      peopleInAnswer: (h) => [
        ...h.open.alerts.map((a) => a.wearer?.uid),
        ...h.confirmed.alerts.map((a) => a.wearer?.uid),
        ...h.snoozes.map((s) => s.wearer.uid),
      ],
    },
  });

  serve(app, confirmAlert, async (req) => {
    const { alertId, ...confirmation } = req.body;
    const { results } = await alerts.confirm(req.actor, [alertId], confirmation);
    const result = results[0];
    if (!result || result.result === 'not_found') throw notFound(`No alert ${alertId}`);
    return result;
  });

  serve(app, batchConfirmAlerts, (req) => {
    const { alertIds, ...confirmation } = req.body;
    return alerts.confirm(req.actor, alertIds, confirmation);
  });
};
