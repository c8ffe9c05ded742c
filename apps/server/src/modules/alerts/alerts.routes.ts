import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertCsvQuery,
  alertListQuery,
  alertListResponse,
  batchConfirmBody,
  batchConfirmResponse,
  confirmAlertBody,
  confirmAlertResponse,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { alertsCsvFor, confirmAlerts, listAlertsFor } from './alerts.service.js';

const yyyymmdd = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');

/** /v2/alert/*: the alert history, its CSV export and confirmation. */
export const alertsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (base, { ctx }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Alerts'];

  app.get(
    '/v2/alert/list',
    { config: { permission: 'alert:read' }, schema: { tags, querystring: alertListQuery, response: { 200: alertListResponse } } },
    (request) => listAlertsFor(ctx, request.actor, request.query),
  );

  app.get(
    '/v2/alert/listCsv',
    { config: { permission: 'alert:read' }, schema: { tags, querystring: alertCsvQuery, produces: ['text/csv'] } },
    async (request, reply) => {
      const csv = await alertsCsvFor(ctx, request.actor, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="alerts-${yyyymmdd(ctx.now())}.csv"`)
        .send(csv);
    },
  );

  app.post(
    '/v2/alert/confirm',
    { config: { permission: 'alert:confirm' }, schema: { tags, body: confirmAlertBody, response: { 200: confirmAlertResponse } } },
    async (request) => {
      const { alertId, ...confirmation } = request.body;
      const { results } = await confirmAlerts(ctx, request.actor, [alertId], confirmation);
      const result = results[0];
      if (!result || result.result === 'not_found') throw notFound(`No alert ${request.body.alertId}`);
      return result;
    },
  );

  app.post(
    '/v2/alert/batchConfirm',
    { config: { permission: 'alert:confirm' }, schema: { tags, body: batchConfirmBody, response: { 200: batchConfirmResponse } } },
    (request) => {
      const { alertIds, ...confirmation } = request.body;
      return confirmAlerts(ctx, request.actor, alertIds, confirmation);
    },
  );
};
