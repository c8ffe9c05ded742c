import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertCsvQuery,
  alertParams,
  alertTimelineResponse,
  errorBody,
  handoverQuery,
  handoverResponse,
  snoozeBody,
  snoozeListQuery,
  snoozeListResponse,
  snoozeParams,
  snoozeView,
  alertListQuery,
  alertListResponse,
  batchConfirmBody,
  batchConfirmResponse,
  confirmAlertBody,
  confirmAlertResponse,
  responseTimesQuery,
  responseTimesResponse,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { alertsCsvFor, confirmAlerts, listAlertsFor } from './alerts.service.js';
import { alertTimeline } from './alert-timeline.service.js';
import { responseTimesCsv } from './response-times-csv.js';
import { responseTimesFor } from './response-times.service.js';
import { handover } from './handover.service.js';
import { createSnooze, endSnooze, listSnoozes } from './snoozes.service.js';

/** /v2/alert/*: the alert history, its CSV export and confirmation. */
export const alertsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (base, { ctx }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Alerts'];

  app.get(
    '/v2/alert/list',
    {
      config: { permission: 'alert:read' },
      schema: { tags, querystring: alertListQuery, response: { 200: alertListResponse } },
    },
    (request) => listAlertsFor(ctx, request.actor, request.query),
  );

  app.get(
    '/v2/alert/listCsv',
    {
      config: { permission: 'alert:read' },
      schema: { tags, querystring: alertCsvQuery, produces: ['text/csv'] },
    },
    async (request, reply) => {
      const { csv, fileName } = await alertsCsvFor(ctx, request.actor, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(csv);
    },
  );

  app.get(
    '/v2/alert/:alertId/timeline',
    {
      // Staff only: the story names who was called, at which number.
      config: { permission: 'notification:read' },
      schema: {
        tags,
        summary:
          "One alert's story: raised, every notification attempt and its delivery, escalation steps, confirmation, closing",
        params: alertParams,
        response: { 200: alertTimelineResponse },
      },
    },
    (request) => alertTimeline(ctx, request.actor, request.params.alertId),
  );

  const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
  app.get(
    '/v2/alert/responseTimes',
    {
      config: { permission: 'alertFigures:read' },
      schema: {
        tags,
        summary:
          'Time from raised to first notice, to delivery and to confirmation (median, p90) per month and alert type',
        querystring: responseTimesQuery,
        response: { 200: responseTimesResponse, ...errors },
      },
    },
    (request) => responseTimesFor(ctx, request.actor, request.query),
  );

  app.get(
    '/v2/alert/responseTimesCsv',
    {
      config: { permission: 'alertFigures:read' },
      schema: {
        tags,
        summary: 'The response-time figures as CSV (UTF-8 with BOM)',
        querystring: responseTimesQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const figures = await responseTimesFor(ctx, request.actor, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="response-times-${figures.from}-${figures.to}.csv"`,
        )
        .send(responseTimesCsv(figures, request.query.lng ?? 'ja'));
    },
  );

  app.post(
    '/v2/alert/snooze',
    {
      config: { permission: 'alert:snooze' },
      schema: {
        tags,
        summary:
          'Snooze one CAUTION or DEVICE_STATUS alert type of one wearer (at most 12 hours, with a reason): recorded, not notified',
        body: snoozeBody,
        response: {
          201: snoozeView,
          400: errorBody,
          403: errorBody,
          404: errorBody,
          409: errorBody,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSnooze(ctx, request.actor, request.body)),
  );

  app.get(
    '/v2/alert/snoozes',
    {
      config: { permission: 'alert:read' },
      schema: {
        tags,
        summary: 'Active snoozes (includeEnded: also those of the last 7 days)',
        querystring: snoozeListQuery,
        response: { 200: snoozeListResponse },
      },
    },
    async (request) => ({ snoozes: await listSnoozes(ctx, request.actor, request.query) }),
  );

  app.delete(
    '/v2/alert/snooze/:snoozeId',
    {
      config: { permission: 'alert:snooze' },
      schema: {
        tags,
        summary: 'End a snooze early',
        params: snoozeParams,
        response: { 200: snoozeView, 404: errorBody },
      },
    },
    (request) => endSnooze(ctx, request.actor, request.params.snoozeId),
  );

  app.get(
    '/v2/alert/handover',
    {
      config: { permission: 'alert:handover' },
      schema: {
        tags,
        summary:
          'Shift handover: open alerts, snoozes (who, why, until) and confirmations of the last `hours` (default 8)',
        querystring: handoverQuery,
        response: { 200: handoverResponse },
      },
    },
    (request) => handover(ctx, request.actor, request.query),
  );

  app.post(
    '/v2/alert/confirm',
    {
      config: { permission: 'alert:confirm' },
      schema: { tags, body: confirmAlertBody, response: { 200: confirmAlertResponse } },
    },
    async (request) => {
      const { alertId, ...confirmation } = request.body;
      const { results } = await confirmAlerts(ctx, request.actor, [alertId], confirmation);
      const result = results[0];
      if (!result || result.result === 'not_found')
        throw notFound(`No alert ${request.body.alertId}`);
      return result;
    },
  );

  app.post(
    '/v2/alert/batchConfirm',
    {
      config: { permission: 'alert:confirm' },
      schema: { tags, body: batchConfirmBody, response: { 200: batchConfirmResponse } },
    },
    (request) => {
      const { alertIds, ...confirmation } = request.body;
      return confirmAlerts(ctx, request.actor, alertIds, confirmation);
    },
  );
};
