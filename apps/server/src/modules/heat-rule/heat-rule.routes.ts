import type { FastifyPluginAsync } from 'fastify';
import {
  getHeatProcedure,
  getHeatRuleReport,
  getHeatRuleReportCsv,
  putHeatProcedure,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { heatRuleCsv } from './heat-rule-csv.js';
import { heatRuleService } from './heat-rule.service.js';

/** Japan's 2025 heat rule per site (group): the written procedure, the named contacts and the monthly report. */
export const heatRuleRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const heat = heatRuleService(ctx);

  serve(app, getHeatProcedure, (req) => heat.get(req.actor, req.params.groupId));
  serve(app, putHeatProcedure, (req) => heat.put(req.actor, req.params.groupId, req.body));
  serve(app, getHeatRuleReport, (req) =>
    heat.report(req.actor, req.params.groupId, req.query.month),
  );
  serve(app, getHeatRuleReportCsv, async (req, reply) => {
    const report = await heat.report(req.actor, req.params.groupId, req.query.month);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="heat-rule-${req.query.month}.csv"`)
      .send(heatRuleCsv(report, req.query.lng ?? 'ja'));
  });
};
