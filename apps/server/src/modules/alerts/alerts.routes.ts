import type { FastifyPluginAsync } from 'fastify';
import {
  batchConfirmAlerts,
  confirmAlert,
  endSnooze,
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
import { alertsCsvFor, confirmAlerts, listAlertsFor } from './alerts.service.js';
import { alertTimelineService } from './alert-timeline.service.js';
import { responseTimesCsv } from './response-times-csv.js';
import { responseTimesService } from './response-times.service.js';
import { handoverService } from './handover.service.js';
import * as snoozes from './snoozes.service.js';

/** /v2/alert/*: the alert history, its CSV export and confirmation. */
export const alertsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const timeline = alertTimelineService(ctx);
  const responseTimes = responseTimesService(ctx);
  const handover = handoverService(ctx);
  serve(app, listAlerts, (req) => listAlertsFor(ctx, req.actor, req.query));

  serve(app, listAlertsCsv, async (req, reply) => {
    const { csv, fileName } = await alertsCsvFor(ctx, req.actor, req.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(csv);
  });

  serve(app, getAlertTimeline, (req) => timeline.alertTimeline(req.actor, req.params.alertId));

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

  serve(app, snoozeAlertType, (req) => snoozes.createSnooze(ctx, req.actor, req.body));
  serve(app, listSnoozes, async (req) => ({
    snoozes: await snoozes.listSnoozes(ctx, req.actor, req.query),
  }));
  serve(app, endSnooze, (req) => snoozes.endSnooze(ctx, req.actor, req.params.snoozeId));

  serve(app, getHandover, (req) => handover.handover(req.actor, req.query));

  serve(app, confirmAlert, async (req) => {
    const { alertId, ...confirmation } = req.body;
    const { results } = await confirmAlerts(ctx, req.actor, [alertId], confirmation);
    const result = results[0];
    if (!result || result.result === 'not_found') throw notFound(`No alert ${alertId}`);
    return result;
  });

  serve(app, batchConfirmAlerts, (req) => {
    const { alertIds, ...confirmation } = req.body;
    return confirmAlerts(ctx, req.actor, alertIds, confirmation);
  });
};
