import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  groupParams,
  heatProcedureBody,
  heatProcedureResponse,
  heatRuleReport,
  heatRuleReportQuery,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { heatRuleCsv } from './heat-rule-csv.js';
import { heatRuleService } from './heat-rule.service.js';

const tags = ['Heat rule'];
const security = [{ bearer: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Japan's 2025 heat rule per site (group): the written procedure, the named contacts and the monthly report. */
export const heatRuleRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const heat = heatRuleService(ctx);

  app.get(
    '/v2/group/:groupId/heatProcedure',
    {
      config: { permission: 'group:read' },
      schema: {
        tags,
        summary:
          "The site's heat procedure and nearest hospital (null until written) and its named contacts",
        security,
        params: groupParams,
        response: { 200: heatProcedureResponse, ...errors },
      },
    },
    (request) => heat.get(request.actor, request.params.groupId),
  );

  app.put(
    '/v2/group/:groupId/heatProcedure',
    {
      config: { permission: 'heatProcedure:update' },
      schema: {
        tags,
        summary: "Write the site's heat procedure and nearest hospital (audited)",
        security,
        params: groupParams,
        body: heatProcedureBody,
        response: { 200: heatProcedureResponse, ...errors },
      },
    },
    (request) => heat.put(request.actor, request.params.groupId, request.body),
  );

  app.get(
    '/v2/group/:groupId/heatRuleReport',
    {
      config: { permission: 'group:read' },
      schema: {
        tags,
        summary:
          'One month of the site under the heat rule: applicable hours, heat alerts, time to respond, steps taken',
        security,
        params: groupParams,
        querystring: heatRuleReportQuery,
        response: { 200: heatRuleReport, ...errors },
      },
    },
    (request) => heat.report(request.actor, request.params.groupId, request.query.month),
  );

  app.get(
    '/v2/group/:groupId/heatRuleReportCsv',
    {
      config: { permission: 'group:read' },
      schema: {
        tags,
        summary: 'The monthly heat-rule report as CSV (UTF-8 with BOM)',
        security,
        params: groupParams,
        querystring: heatRuleReportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const report = await heat.report(request.actor, request.params.groupId, request.query.month);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="heat-rule-${request.query.month}.csv"`,
        )
        .send(heatRuleCsv(report, request.query.lng ?? 'ja'));
    },
  );
};
