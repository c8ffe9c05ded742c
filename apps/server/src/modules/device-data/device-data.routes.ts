import type { FastifyPluginAsync } from 'fastify';
import {
  getDeviceHistory,
  getDeviceSummary,
  getMonthlyReport,
  getMonthlyReportCsv,
  isFlagSet,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { deviceDataService } from './device-data.service.js';
import { monthlyReportCsv, monthlyReportFileName } from './monthly-report-csv.js';
import { startPlannerStats } from './planner-stats.job.js';

/** If-None-Match names these bytes (a list, `*`, weak or strong: compared weakly, RFC 9110 13.1.2). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/** Wearers' latest state, history and monthly report. */
export const deviceDataRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const deviceData = deviceDataService(ctx);
  const stopStats = startPlannerStats(ctx, app.log);
  app.addHook('onClose', async () => {
    stopStats();
  });

  serve(app, getDeviceSummary, async (request, reply) => {
    const acceptsGzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    const { body, gzip, etag } = await deviceData.summary(
      request.actor,
      { organizationId: request.query.clientId, groupId: request.query.groupId },
      { acceptsGzip, format: request.query.format, settled: isFlagSet(request.query.settled) },
    );
    void reply.header('vary', 'accept-encoding');
    // A caller that kept the bytes (in memory: the answer stays `no-store`, it is personal data)
    // asks again with If-None-Match: unchanged means a 304 and nothing sent.
    if (etag !== undefined) {
      void reply.header('etag', etag);
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    }
    if (gzip) void reply.header('content-encoding', 'gzip');
    // Serialised once per snapshot by the database in the contract's shape (checked by the tests);
    // Fastify sends bytes as they are, so the schema documents the answer without re-validating rows.
    return reply.type('application/json; charset=utf-8').send(body);
  });

  serve(app, getDeviceHistory, (req) => deviceData.history(req.actor, req.query), {
    reads: { what: 'history', people: (req) => [req.query.uid] },
  });

  serve(
    app,
    getMonthlyReport,
    (req) => deviceData.monthlyReport(req.actor, req.query.uid, req.query.month),
    { reads: { what: 'monthly-report', people: (req) => [req.query.uid] } },
  );

  serve(
    app,
    getMonthlyReportCsv,
    async (req, reply) => {
      const { uid, month, lng } = req.query;
      const report = await deviceData.monthlyReport(req.actor, uid, month);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${monthlyReportFileName(uid, month)}"`,
        )
        .send(monthlyReportCsv(report, lng));
    },
    { reads: { what: 'monthly-report', people: (req) => [req.query.uid] } },
  );
};
